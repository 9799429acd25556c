import { defineConfig } from 'vitest/config'
import { PACKAGE_TESTS } from './vitest.config.js'

/**
 * The packaging tests, a step of their own after `npm test` (`npm run test:package`, which .ci/run runs):
 * they test what a user installs or clones (package.json's files, exports, bin and prepack; npx before any
 * build) through npm pack, npm install and npx in copies of the checkout, about a minute of npm and tsc
 * that would otherwise hold up the tests of the sources.
 */
export default defineConfig({
  test: {
    include: PACKAGE_TESTS,
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
})
