import {defineConfig} from 'vitest/config'

// Two projects, two workers each (CI machines have two cores; vitest's default would use one). Integration
// tests bind port 0, use their own temp folders, PostgreSQL schema and NATS prefix, so two files may run side
// by side; what they wait on is mostly child processes and timers, not CPU. Unit tests run first (groupOrder).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: ['test/**/*.integration.test.ts', 'test/**/*.integration.test.tsx'],
          testTimeout: 20_000,
          maxWorkers: 2,
          sequence: {groupOrder: 0},
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.integration.test.ts', 'test/**/*.integration.test.tsx'],
          maxWorkers: 2,
          sequence: {groupOrder: 1},
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
})
