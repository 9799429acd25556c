import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { defineConfig, type ViteUserConfig } from 'vitest/config'

/** Folders of unit tests: they need neither PostgreSQL nor the compiled CLI (the global setups). */
const UNIT_TESTS = ['validate', 'contract', 'model', 'runtime', 'house'].map((folder) => `test/${folder}/**/*.test.ts`)

/** Test files that replace modules (vi.mock): each needs a module graph of its own. */
const MOCKING_TESTS = ['test/render/template-views.test.ts', 'test/migrate/migrate-create.test.ts']

/** The packaging tests (npm pack and install, a fresh clone's first commands): `npm run test:processes`. */
export const PACKAGE_TESTS = ['test/package/**/*.test.ts']

/**
 * Tests of restmint as a process: they start `restmint serve`, `dev`, `generate`, `migrate create`, `token`
 * or a server of the README's as children and check what only a process shows (draining on SIGTERM, kill -9
 * in the middle of a write, which modules a fresh process loads, restarts on a saved file, refusing to start
 * over drift or pending migrations, instances preparing one database together, the development secret).
 * Starting processes is most of their time, so they run in a step of their own with the packaging tests,
 * `npm run test:processes`, which .ci/run runs after `npm test`; the same features in-process (buildServer,
 * close(), the applier, generate and migrate create through runCli) are in `npm test`.
 */
export const PROCESS_TESTS = [
  'test/cli/dev.test.ts',
  'test/cli/example-migration.test.ts',
  'test/cli/interrupted-generate.test.ts',
  'test/cli/migrate-create-interrupted.test.ts',
  'test/cli/migrate-crash.test.ts',
  'test/cli/migrate-drift.test.ts',
  'test/cli/migrate-serve.test.ts',
  'test/cli/readme-server.test.ts',
  'test/cli/serve-database.test.ts',
  'test/cli/serve-instances.test.ts',
  'test/cli/serve-shutdown.test.ts',
  'test/cli/start-up-modules.test.ts',
  'test/cli/token.test.ts',
  'test/migrate/hostile-serve-memory.test.ts',
  'test/storage/prepare-concurrency.test.ts',
]

/**
 * Probes PostgreSQL once and stops the run with what to start or set when it is missing; compiles the CLI
 * that tests start as a child process (test/support/spawn-cli.ts).
 */
export const GLOBAL_SETUP = ['test/support/postgres-global-setup.ts', 'test/support/cli-global-setup.ts']

/** What every run of the sources' tests shares: this file's, and the process tests' (vitest.processes.config.ts). */
export const SOURCE_TEST_OPTIONS = {
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
  },
} satisfies ViteUserConfig

export default defineConfig({
  ...SOURCE_TEST_OPTIONS,
  test: {
    ...SOURCE_TEST_OPTIONS.test,
    // vitest runs projects one after another, in the order of their names: the unit files first, whose
    // longest ones (4–5 s) otherwise ran last, on one worker, while the other one had nothing left to do.
    projects: [
      { extends: true, test: { name: '1 unit', include: UNIT_TESTS } },
      {
        extends: true,
        test: {
          name: '2 end-to-end',
          include: ['test/**/*.test.ts'],
          exclude: [...UNIT_TESTS, ...MOCKING_TESTS, ...PACKAGE_TESTS, ...PROCESS_TESTS],
          globalSetup: GLOBAL_SETUP,
        },
      },
      { extends: true, test: { name: '3 mocking', include: MOCKING_TESTS, isolate: true, globalSetup: GLOBAL_SETUP } },
    ],
  },
})
