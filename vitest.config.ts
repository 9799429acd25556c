import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { conditions: ['restmint-source'] },
  ssr: { resolve: { conditions: ['restmint-source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
