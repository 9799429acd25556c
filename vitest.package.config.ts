import { defineConfig } from 'vitest/config'
import { PACKAGE_TESTS } from './vitest.config.js'

/**
 * The packaging tests, a step of their own after `npm test` (`npm run test:package`, which .ci/run runs):
 * they test what a user installs or clones (package.json's files, exports, bin, prepack and prepare; npx
 * before any build; restmint init) through npm pack, npm install and npx in copies of the checkout, minutes
 * of npm and tsc that would otherwise hold up the tests of the sources. The checkout is packed once per run
 * (the global setup), for every test that installs the tarball.
 */
export default defineConfig({
  test: {
    include: PACKAGE_TESTS,
    globalSetup: ['test/support/package-global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
})
