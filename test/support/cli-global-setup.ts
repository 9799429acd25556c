import type { TestProject } from 'vitest/node'
import { buildTestCli } from './build-test-cli.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The directory buildTestCli compiled this run's sources into; tests start child processes from it. */
    testBuildDirectory: string
  }
}

/**
 * Vitest global setup: compiles the CLI once per run (and again before each
 * rerun in watch mode, so children never run stale code) into a directory
 * that git ignores (test/tmp-cli-*), kept for the next run of the same sources.
 */
export default async function compileTestCli(project: TestProject): Promise<void> {
  const compile = async () => project.provide('testBuildDirectory', await buildTestCli())
  await compile()
  project.onTestsRerun(compile)
}
