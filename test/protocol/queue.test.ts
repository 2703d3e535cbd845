// The JSON Schema cannot import src/protocol/queue.ts, so this keeps the queue file's shape in step.
import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {QUEUE_STATUSES} from '../../src/protocol/queue.js'

const schema = JSON.parse(readFileSync(new URL('../../schemas/queue.schema.json', import.meta.url), 'utf8'))

describe('the queue file written once', () => {
  it('the schema takes the protocol item statuses (spec v16), in order', () => {
    expect(schema.properties.items.items.properties.status.enum).toEqual([...QUEUE_STATUSES])
  })
})
