import {defineConfig} from 'vitest/config'

// Two projects: unit tests run in parallel; tests that bind ports, spawn the
// built binary or talk to PostgreSQL/NATS run one file at a time.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: ['test/**/*.integration.test.ts', 'test/**/*.integration.test.tsx'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.integration.test.ts', 'test/**/*.integration.test.tsx'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
})
