import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

/**
 * Folders of unit tests that share no state through modules: their files run one after another in a
 * worker without a fresh module graph each (about half their CPU). test/render is not one of them:
 * template-views.test.ts instruments the templates it loads.
 */
const UNIT_TESTS = ['validate', 'contract', 'model', 'runtime', 'house'].map((folder) => `test/${folder}/**/*.test.ts`)

/** The packaging tests (npm pack and install, a fresh clone's first commands): `npm run test:package`. */
export const PACKAGE_TESTS = ['test/package/**/*.test.ts']

export default defineConfig({
  resolve: { conditions: ['restmint-source'] },
  ssr: { resolve: { conditions: ['restmint-source'] } },
  test: {
    // One worker per core (vitest keeps one core back by default, which on two cores runs every file
    // in turn): the slow files mostly wait on child processes (npm, tsc, a served CLI).
    maxWorkers: availableParallelism(),
    // PostgreSQL commits without waiting for the WAL to reach the disk, in every test and every process
    // a test starts (node-postgres reads PGOPTIONS): on a busy disk each commit's fsync took milliseconds,
    // most of the PostgreSQL tests' time. What a transaction sees and makes visible is unchanged; only a
    // server crash could lose the last commits, of throwaway test schemas.
    env: { PGOPTIONS: '-c synchronous_commit=off' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT_TESTS, isolate: false } },
      {
        extends: true,
        test: {
          name: 'end-to-end',
          include: ['test/**/*.test.ts'],
          exclude: [...UNIT_TESTS, ...PACKAGE_TESTS],
          // Probes PostgreSQL once and stops the run with what to start or set when it is missing; compiles
          // the CLI that tests start as a child process (test/support/spawn-cli.ts).
          globalSetup: ['test/support/postgres-global-setup.ts', 'test/support/cli-global-setup.ts'],
        },
      },
    ],
  },
})
