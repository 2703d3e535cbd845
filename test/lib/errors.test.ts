import {describe, expect, it} from 'vitest'
import {MeshError, invalid, rateLimited} from '../../src/lib/errors.js'
import {redact} from '../../src/lib/log.js'

describe('MeshError', () => {
  it('carries kind, code, message and field', () => {
    const error = invalid('bad_id', 'agent_id is too short', {field: 'agent_id'})
    expect(error).toBeInstanceOf(MeshError)
    expect([error.kind, error.code, error.message, error.field]).toEqual(['invalid', 'bad_id', 'agent_id is too short', 'agent_id'])
  })
  it('puts retry_after on rate-limit errors', () => {
    expect(rateLimited('slow down', 7).details).toEqual({retry_after: 7})
  })
})

describe('redact', () => {
  it('masks secret-looking keys at any depth and keeps the rest', () => {
    expect(redact({api_key: 'abc', nested: {Authorization: 'Bearer x', ok: 1}, list: [{token: 't'}]})).toEqual({
      api_key: '[redacted]',
      nested: {Authorization: '[redacted]', ok: 1},
      list: [{token: '[redacted]'}],
    })
  })
})
