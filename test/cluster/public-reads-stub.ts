import type {PublicBoardReads} from '../../src/cluster/types.js'

/** For BoardsPart fakes in tests that never read boards publicly. */
export const noPublicReads: PublicBoardReads = {
  boards: async () => [],
  newestPosts: async () => ({posts: [], more: false}),
}
