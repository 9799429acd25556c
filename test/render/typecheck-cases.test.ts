import { existsSync, readdirSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * The golden output of every valid end-to-end case (test/cases/*-good/expected)
 * must compile: `tsc --noEmit` with the repo's own compiler options (strict,
 * NodeNext, customConditions so `restmint/runtime` resolves to runtime/*.ts).
 * tsconfig.json leaves the golden trees out, so this is what proves that odd
 * but valid names (hostile-names-good) yield working TypeScript.
 */
const root = join(import.meta.dirname, '../..')
const casesDirectory = join(root, 'test/cases')

describe('generated code of the end-to-end cases', () => {
  const trees = readdirSync(casesDirectory)
    .sort()
    .map((name) => join(casesDirectory, name, 'expected'))
    .filter((directory) => existsSync(directory))

  it('includes the hostile-names case', () => {
    expect(trees.map((tree) => relative(casesDirectory, tree))).toContain(join('hostile-names-good', 'expected'))
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
    expect(parsed.fileNames.some((file) => file.includes(`${sep}hostile-names-good${sep}`) || file.includes('/hostile-names-good/'))).toBe(true)
    const program = ts.createProgram(parsed.fileNames, parsed.options)
    // Errors inside runtime/ are the repo typecheck's business; here only the generated trees count.
    const inCases = (diagnostic: ts.Diagnostic) =>
      diagnostic.file === undefined || !relative(casesDirectory, diagnostic.file.fileName).startsWith('..')
    const diagnostics = ts.getPreEmitDiagnostics(program).filter(inCases)
    const host: ts.FormatDiagnosticsHost = {
      getCanonicalFileName: (fileName) => fileName,
      getCurrentDirectory: () => root,
      getNewLine: () => '\n',
    }
    expect(ts.formatDiagnostics(diagnostics, host)).toBe('')
  })
})
