import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { buildTestCli } from './build-test-cli.js'
import { REPO } from './copy-checkout.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The directory buildTestCli compiled this run's sources into; tests start child processes from it. */
    testBuildDirectory: string
  }
}

/**
 * Vitest global setup: compiles the CLI once per run (and again before each
 * rerun in watch mode, so children never run stale code), into a directory
 * that git ignores (test/tmp-*), removed at the end.
 */
export default async function compileTestCli(project: TestProject): Promise<() => void> {
  const directory = mkdtempSync(join(REPO, 'test', 'tmp-cli-'))
  const compile = async () => {
    await buildTestCli(directory)
    project.provide('testBuildDirectory', directory)
  }
  await compile()
  project.onTestsRerun(compile)
  return () => rmSync(directory, { recursive: true, force: true })
}
