import type {MeshError} from '../../src/lib/errors.js'

/** The error a promise rejects with; fails the test if it resolves. */
export async function caught(promise: Promise<unknown>): Promise<MeshError> {
  try {
    await promise
  } catch (error) {
    return error as MeshError
  }
  throw new Error('expected a rejection')
}
