import {describe, expect, it} from 'vitest'
import {parseMarkers} from '../../../src/daemon/chat/markers.js'

describe('parseMarkers', () => {
  it('reads every marker kind as JSON or YAML and removes the blocks from the text', () => {
    const output = ['Done.', '```mesh-report', '{"status": "done", "for": ["dlg_1"]}', '```', '', '', '', 'Next.', '````mesh-delegate', 'member: developer\nbrief: do it', '````', '```mesh-become', '{"member": "consultant"}', '```', '```mesh-commit', '{"subject": "feat: x", "files": ["a"]}', '```'].join('\n')
    const parsed = parseMarkers(output)
    expect(parsed.markers).toEqual([
      {kind: 'report', data: {status: 'done', for: ['dlg_1']}},
      {kind: 'delegate', data: {member: 'developer', brief: 'do it'}},
      {kind: 'become', data: {member: 'consultant'}},
      {kind: 'commit', data: {subject: 'feat: x', files: ['a']}},
    ])
    expect(parsed.text).toBe('Done.\n\nNext.')
  })

  it('reports unknown markers and bodies that are not objects as invalid, and leaves other code blocks alone', () => {
    const parsed = parseMarkers('```mesh-launch\n{}\n```\n```mesh-report\n[1, 2]\n```\n```mesh-report\n{"status": \n```\n```json\n{"a": 1}\n```')
    expect(parsed.markers.map((marker) => marker.kind)).toEqual(['invalid', 'invalid', 'invalid'])
    expect(parsed.markers[0]).toMatchObject({name: 'mesh-launch', error: expect.stringContaining('unknown marker')})
    expect(parsed.text).toBe('```json\n{"a": 1}\n```')
  })

  it('needs the fence at the start of a line and a closing fence of the same length', () => {
    expect(parseMarkers('say ```mesh-report\n{}\n```').markers).toEqual([])
    expect(parseMarkers('```mesh-report\n{}\n````').markers).toEqual([])
  })
})
