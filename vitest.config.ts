import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { conditions: ['restmint-source'] },
  ssr: { resolve: { conditions: ['restmint-source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    // One worker per core (vitest keeps one core back by default, which on two cores runs every file
    // in turn): the slow files mostly wait on child processes (npm, tsc, a served CLI).
    maxWorkers: availableParallelism(),
    // Probes PostgreSQL once and stops the run with what to start or set when it is missing.
    globalSetup: ['test/support/postgres-global-setup.ts'],
    // serve's cached bundles (node_modules/.cache/restmint/*.mjs) import the runtime's .ts sources under test:
    // vitest must load them itself rather than hand them to Node, as it does other files in node_modules.
    server: { deps: { inline: [/node_modules\/\.cache\/restmint\//] } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
