export {errorMiddleware, notFoundMiddleware, sendError, STATUS_OF_KIND} from './error-middleware.js'
export {readJsonBody, readJsonObject, type JsonBody} from './json-body.js'
export {createRateLimiter, type RateLimiter, type RateLimitOptions} from './rate-limit.js'
export {listen, type Listening} from './listen.js'
