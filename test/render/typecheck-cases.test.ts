import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'

/**
 * The output of every valid end-to-end case (test/cases/*-good) must compile:
 * `tsc --noEmit` with the repo's own compiler options (strict, NodeNext,
 * customConditions so `restmint/runtime` resolves to runtime/*.ts). The cases
 * keep only part of their output as golden files, so each is generated afresh
 * here, inside the repo (where `restmint/runtime` resolves): this is what
 * proves that odd but valid names (hostile-names-good) yield working TypeScript.
 */
const root = join(import.meta.dirname, '../..')
const casesDirectory = join(root, 'test/cases')
const goodCases = readdirSync(casesDirectory)
  .filter((name) => name.endsWith('-good'))
  .sort()

describe('generated code of the end-to-end cases', () => {
  let scratch: string
  let trees: string[]
  beforeAll(async () => {
    scratch = mkdtempSync(join(root, 'test', 'tmp-typecheck-'))
    trees = []
    for (const name of goodCases) {
      const out = join(scratch, name)
      const run = await runCli(join(casesDirectory, name), 'generate', '--out', out)
      if (run.exitCode !== 0) throw new Error(`${name}: generate failed\n${run.stderr}`)
      trees.push(out)
    }
  })
  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true })
  })

  it('includes the hostile-names case', () => {
    expect(goodCases).toContain('hostile-names-good')
  })

  it('typechecks under the repo compiler options', () => {
    const configFile = ts.findConfigFile(root, ts.sys.fileExists, 'tsconfig.json')!
    const { config } = ts.readConfigFile(configFile, ts.sys.readFile) as { config: Record<string, unknown> }
    const parsed = ts.parseJsonConfigFileContent(
      { ...config, include: trees.map((tree) => relative(root, tree)), exclude: [] },
      ts.sys,
      root,
      { noEmit: true },
      configFile,
    )
    expect(parsed.errors.map((error) => ts.flattenDiagnosticMessageText(error.messageText, '\n'))).toEqual([])
    expect(parsed.options.strict).toBe(true)
    expect(parsed.options.customConditions).toEqual(['restmint-source'])
    expect(
      parsed.fileNames.some(
        (file) => file.includes(`${sep}hostile-names-good${sep}`) || file.includes('/hostile-names-good/'),
      ),
    ).toBe(true)
    const program = ts.createProgram(parsed.fileNames, parsed.options)
    // Errors inside runtime/ are the repo typecheck's business; here only the generated trees count, so
    // only their files are checked (the runtime's bodies, most of the program, are not).
    const inCases = (file: ts.SourceFile) => !relative(scratch, file.fileName).startsWith('..')
    const diagnostics = [
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...program
        .getSourceFiles()
        .filter(inCases)
        .flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
    ]
    const host: ts.FormatDiagnosticsHost = {
      getCanonicalFileName: (fileName) => fileName,
      getCurrentDirectory: () => root,
      getNewLine: () => '\n',
    }
    expect(ts.formatDiagnostics(diagnostics, host)).toBe('')
  }, 120_000) // a whole TypeScript program over every case's tree: minutes on a loaded 2-core machine
})
