import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { defineConfig } from 'vitest/config'

/** Folders of unit tests: they need neither PostgreSQL nor the compiled CLI (the global setups). */
const UNIT_TESTS = ['validate', 'contract', 'model', 'runtime', 'house'].map((folder) => `test/${folder}/**/*.test.ts`)

/** Test files that replace modules (vi.mock): each needs a module graph of its own. */
const MOCKING_TESTS = ['test/render/template-views.test.ts', 'test/migrate/migrate-create.test.ts']

/** The packaging tests (npm pack and install, a fresh clone's first commands): `npm run test:package`. */
export const PACKAGE_TESTS = ['test/package/**/*.test.ts']

/**
 * Probes PostgreSQL once and stops the run with what to start or set when it is missing; compiles the CLI
 * that tests start as a child process (test/support/spawn-cli.ts).
 */
const GLOBAL_SETUP = ['test/support/postgres-global-setup.ts', 'test/support/cli-global-setup.ts']

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
    // Every project a test generates in a temporary directory shares one content cache (formatted files,
    // serve bundles): such a directory has no node_modules/.cache of its own, so each generate formatted
    // every file again. Entries are keyed by content, so sharing them changes no result; the tests of the
    // cache itself (start-up-modules, generate-and-check) set RESTMINT_CACHE back to its default.
    env: {
      PGOPTIONS: '-c synchronous_commit=off',
      RESTMINT_CACHE: join(import.meta.dirname, 'node_modules', '.cache', 'restmint-tests'),
    },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ['test/support/close-client-connections.ts'],
    // Files run one after another in a worker without a fresh module graph each: importing the generator,
    // the runtime and their packages again for every file was about half the CPU of the HTTP tests. No
    // test file keeps state in a module that another one reads, but the ones that mock modules.
    isolate: false,
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT_TESTS } },
      {
        extends: true,
        test: {
          name: 'end-to-end',
          include: ['test/**/*.test.ts'],
          exclude: [...UNIT_TESTS, ...MOCKING_TESTS, ...PACKAGE_TESTS],
          globalSetup: GLOBAL_SETUP,
        },
      },
      { extends: true, test: { name: 'mocking', include: MOCKING_TESTS, isolate: true, globalSetup: GLOBAL_SETUP } },
    ],
  },
})
