/**
 * Schema validation with sentences a person can act on: where ajv's message
 * would quote a regex or a length (`must match pattern "\S"`), the field's
 * own sentence is used, and a query parameter given twice (an array where
 * the schema wants a string) is said to be repeated.
 */
import {invalid, isMeshError} from '../lib/errors.js'
import {assertValid, getValidator} from '../lib/schemas.js'

/** What each field must look like, said to a person, keyed by the error's field path. */
export type Shapes = Record<string, string>

/** Like assertValid, with `shapes` replacing pattern and length messages of the fields they name. */
export function assertShaped<T>(schema: string, raw: unknown, shapes: Shapes, code = 'invalid_body'): T {
  try {
    return assertValid<T>(schema, raw, code)
  } catch (error) {
    const field = isMeshError(error) ? error.field : undefined
    // A repeated query parameter reaches the schema as an array: "must be string" would not say what went wrong.
    if (code === 'invalid_query' && field && Array.isArray((raw as Record<string, unknown> | null)?.[field])) {
      throw invalid(code, `${field} is given more than once`, {field})
    }
    // The validator still holds the errors assertValid just read: a pattern or a length is the shape's to say.
    const keyword = getValidator(schema).errors?.[0]?.keyword
    if (field && shapes[field] && (keyword === 'pattern' || keyword === 'minLength' || keyword === 'maxLength')) {
      throw invalid(code, shapes[field], {field})
    }
    throw error
  }
}

/** The props every cluster, board and post may carry (schemas/board-props.schema.json). */
export const PROPS_SHAPES: Shapes = {'props.lang': 'props.lang must be a language tag such as en or pt-BR'}

/** A board's or post's title (pattern `\S`). */
export const TITLE_SHAPE = 'title must be 1 to 200 characters, not only spaces'
