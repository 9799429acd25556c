import { defineConfig } from 'vitest/config'
import { GLOBAL_SETUP, PACKAGE_TESTS, PROCESS_TESTS, SOURCE_TEST_OPTIONS } from './vitest.config.js'

/**
 * The tests that start processes, a step of their own after `npm test` (`npm run test:processes`, which
 * .ci/run runs), so that the tests of the sources stay fast:
 * - `processes`: restmint serve and dev as children (PROCESS_TESTS), with the sources' set-up;
 * - `package`: what a user installs or clones (package.json's files, exports, bin, prepack and prepare; npx
 *   before any build; restmint init) through npm pack, npm install and npx in copies of the checkout. The
 *   checkout is packed once per run (the global setup), for every test that installs the tarball.
 */
export default defineConfig({
  ...SOURCE_TEST_OPTIONS,
  test: {
    ...SOURCE_TEST_OPTIONS.test,
    projects: [
      { extends: true, test: { name: 'processes', include: PROCESS_TESTS, globalSetup: GLOBAL_SETUP } },
      {
        test: {
          name: 'package',
          include: PACKAGE_TESTS,
          globalSetup: ['test/support/package-global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
})
