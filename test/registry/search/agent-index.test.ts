import {describe, expect, it} from 'vitest'
import {AgentSearchIndex, qualityBoost} from '../../../src/registry/search/agent-index.js'
import {FieldedBm25} from '../../../src/registry/search/bm25.js'
import {toSearchDoc} from '../../../src/registry/search/documents.js'
import type {SearchFilters} from '../../../src/registry/search/filters.js'
import {agentRecord, NOW, probe} from './fixtures.js'

const filters = (partial: Partial<SearchFilters> = {}): SearchFilters => ({operationalOnly: false, accepts: [], produces: [], limit: 10, ...partial})
const ids = (index: AgentSearchIndex, prompt: string, f?: Partial<SearchFilters>) => index.query(prompt, filters(f)).map((r) => r.doc.agentId)

function seeded() {
  const index = new AgentSearchIndex()
  index.upsert(agentRecord('painter', {name: 'Painter', description: 'Generates images from a text prompt', category: 'media.image-generation', tags: ['image', 'art'], accepts: ['application/json'], produces: ['image/png']}), NOW)
  index.upsert(agentRecord('translator', {name: 'Translator', description: 'Translates text between 40 languages', category: 'language.translation', tags: ['translate', 'text'], accepts: ['text/plain', 'application/json'], produces: ['application/json']}), NOW)
  index.upsert(agentRecord('ocr-bot', {name: 'OCR bot', description: 'Reads text in images and scanned PDFs', category: 'vision.ocr', tags: ['ocr', 'pdf'], accepts: ['image/*', 'application/pdf'], produces: ['text/plain']}), NOW)
  index.upsert(agentRecord('weather', {name: 'Weather', description: 'Forecasts for any city', category: 'data.weather', tags: ['weather']}), NOW)
  return index
}

describe('AgentSearchIndex', () => {
  it('ranks by the DiscoveryCard text', () => {
    const index = seeded()
    expect(ids(index, 'I need an agent that can generate images')[0]).toBe('painter')
    expect(ids(index, 'translate this into German')).toEqual(['translator'])
    expect(ids(index, 'weather forecast for Paris')[0]).toBe('weather')
    expect(ids(index, 'read text out of a scanned pdf')[0]).toBe('ocr-bot')
  })

  it('matches the category by its dotted parts and the agent id by its words', () => {
    const index = seeded()
    expect(ids(index, 'vision')).toEqual(['ocr-bot'])
    expect(ids(index, 'bot')).toEqual(['ocr-bot'])
  })

  it('returns only online agents', () => {
    const index = seeded()
    index.upsert(agentRecord('old-painter', {name: 'Old painter', description: 'Generates images', tags: ['image']}, {lastSeenMs: NOW - 6 * 60_000}), NOW)
    index.upsert(agentRecord('never-seen', {description: 'Generates images'}, {lastSeenMs: null}), NOW)
    expect(ids(index, 'images')).not.toContain('old-painter')
    expect(ids(index, 'images')).not.toContain('never-seen')
    index.setOnline('painter', false)
    expect(ids(index, 'images')).not.toContain('painter')
    index.setOnline('painter', true)
    expect(ids(index, 'images')).toContain('painter')
  })

  it('filters by accepted and produced media types, with wildcards either way', () => {
    const index = seeded()
    expect(ids(index, 'text', {accepts: ['text/plain']})).toEqual(['translator'])
    expect(ids(index, 'text', {accepts: ['image/jpeg']})).toEqual(['ocr-bot'])
    expect(ids(index, 'text images', {produces: ['image/*']})).toEqual(['painter'])
    expect(ids(index, 'text images', {produces: ['image/webp']})).toEqual([])
    expect(ids(index, 'text', {accepts: ['application/pdf', 'text/plain']}).sort()).toEqual(['ocr-bot', 'translator'])
    expect(ids(index, 'weather', {accepts: ['application/json']})).toEqual([]) // declares no accepts: not matched
  })

  it('keeps only operational agents with operationalOnly', () => {
    const index = seeded()
    index.upsert(agentRecord('painter2', {name: 'Painter two', description: 'Generates images', tags: ['image']}, {probe: probe({operational: true})}), NOW)
    index.upsert(agentRecord('painter3', {name: 'Painter three', description: 'Generates images', tags: ['image']}, {probe: probe({operational: false})}), NOW)
    expect(ids(index, 'images', {operationalOnly: true})).toEqual(['painter2'])
  })

  it('boosts operational agents and card matches, demotes failing ones', () => {
    const index = new AgentSearchIndex()
    const card = {description: 'Summarises documents', tags: ['summary']}
    index.upsert(agentRecord('a-unknown', card), NOW)
    index.upsert(agentRecord('b-failing', card, {probe: probe({operational: false})}), NOW)
    index.upsert(agentRecord('c-working', card, {probe: probe({operational: true, card_match: '1/2'})}), NOW)
    index.upsert(agentRecord('d-perfect', card, {probe: probe({operational: true, card_match: '2/2'})}), NOW)
    expect(ids(index, 'summarise documents')).toEqual(['d-perfect', 'c-working', 'a-unknown', 'b-failing'])
    expect(qualityBoost(true, '2/2')).toBeCloseTo(1.2)
    expect(toSearchDoc(agentRecord('x', card, {probe: probe({operational: true, card_match: '2/2'})}), NOW).boost).toBeCloseTo(1.2)
  })

  it('honours the limit and orders equal scores the same way every time (by a hash of the agent id)', () => {
    const names = ['e', 'c', 'a', 'd', 'b'].map((id) => `agent-${id}`)
    const expected = [...names].sort((a, b) => FieldedBm25.tieOf(a) - FieldedBm25.tieOf(b)).slice(0, 3)
    for (const order of [names, [...names].reverse()]) {
      const index = new AgentSearchIndex()
      for (const id of order) index.upsert(agentRecord(id, {description: 'same words'}), NOW)
      expect(ids(index, 'same words', {limit: 3})).toEqual(expected)
      expect(ids(index, '', {limit: 3})).toEqual(expected)
    }
  })

  it('lists every online agent by quality for a prompt without searchable words', () => {
    const index = seeded()
    index.upsert(agentRecord('zz-top', {description: 'x'}, {probe: probe({operational: true})}), NOW)
    expect(ids(index, '')[0]).toBe('zz-top')
    expect(ids(index, 'I need the')).toHaveLength(5)
  })

  it('re-indexes changed text and keeps unchanged text in place', () => {
    const index = seeded()
    const before = index.get('weather')
    index.upsert(agentRecord('weather', {name: 'Weather', description: 'Forecasts for any city', category: 'data.weather', tags: ['weather']}, {probe: probe({operational: true})}), NOW)
    expect(index.get('weather')!.textKey).toBe(before!.textKey)
    expect(index.get('weather')!.operational).toBe(true)
    index.upsert(agentRecord('weather', {name: 'Tides', description: 'Tide tables'}), NOW)
    expect(ids(index, 'forecast')).toEqual([])
    expect(ids(index, 'tide')).toEqual(['weather'])
  })

  it('shows an agent without a hoisted name under its raw id', () => {
    const doc = toSearchDoc(agentRecord('raw_id-1', {}, {displayName: null, agentCard: {description: 'x'}}), NOW)
    expect(doc.displayName).toBe('raw_id-1')
  })

  it('derives did and verified from a bound key, invoke from answering skills', () => {
    const pubkey = Buffer.alloc(32, 7).toString('base64')
    const doc = toSearchDoc(agentRecord('keyed', {}, {
      pubkey,
      probe: probe({skills: [
        {id: 'draw', url: 'https://keyed.example.com/v1/draw', answering: true, status: 400},
        {id: 'broken', url: 'https://keyed.example.com/v1/broken', answering: false, status: 500},
      ]}),
    }), NOW)
    expect(doc.verified).toBe(true)
    expect(doc.did).toMatch(/^did:key:z6Mk/)
    expect(doc.invoke).toEqual([{skill: 'draw', url: 'https://keyed.example.com/v1/draw'}])
    const plain = toSearchDoc(agentRecord('plain'), NOW)
    expect(plain.verified).toBe(false)
    expect(plain.did).toBeNull()
    expect(plain.invoke).toEqual([])
  })
})
