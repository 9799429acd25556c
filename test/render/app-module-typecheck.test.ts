import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * Issue 16: the example's app module (src/app.ts) is typed by the generated
 * `Api`, so a misspelt field in a hook fails tsc. Each case compiles a copy of
 * the module, with one change, under the repo's compiler options.
 */
const root = join(import.meta.dirname, '../..')
const source = readFileSync(join(root, 'src/app.ts'), 'utf8')
const scratch = mkdtempSync(join(root, 'test', 'tmp-app-module-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const cases = {
  'as-written': source,
  'misspelt-read': source.replace('record.order_id, { total }', 'record.orderid, { total }'),
  'misspelt-write': source.replace("action: 'created'", "acton: 'created'"),
}

/** tsc's errors in each case's copy of src/app.ts, as `TS<code>: message` lines; one program for them all. */
function typecheckCases(): Record<keyof typeof cases, string[]> {
  const files = Object.entries(cases).map(([name, text]) => {
    const file = join(scratch, `${name}.ts`)
    // The copies sit elsewhere than src/: their import of the generated types follows them.
    const server = relative(scratch, join(root, 'generated/server.js'))
    writeFileSync(file, text.replace("'../generated/server.js'", `'${server}'`))
    return [name, file] as const
  })
  const configFile = ts.findConfigFile(root, ts.sys.fileExists, 'tsconfig.json')!
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile) as { config: Record<string, unknown> }
  const parsed = ts.parseJsonConfigFileContent({ ...config, include: [] }, ts.sys, root, { noEmit: true }, configFile)
  const program = ts.createProgram(
    files.map(([, file]) => file),
    parsed.options,
  )
  return Object.fromEntries(
    files.map(([name, file]) => [
      name,
      // The copies' own diagnostics only: checking every module they import would take far longer.
      program
        .getSemanticDiagnostics(program.getSourceFile(file))
        .map((diagnostic) => `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`),
    ]),
  ) as Record<keyof typeof cases, string[]>
}

describe("the example's app module under tsc", () => {
  let errors: Record<keyof typeof cases, string[]>
  // tsc over the module and what it imports: seconds, more on a busy machine.
  beforeAll(() => {
    errors = typecheckCases()
  }, 180_000)

  it('compiles as written', () => {
    expect(errors['as-written']).toEqual([])
  })

  it('fails on a misspelt field read in a hook', () => {
    expect(cases['misspelt-read']).not.toBe(source)
    expect(errors['misspelt-read']).toEqual([
      expect.stringMatching(/^TS2551: Property 'orderid' does not exist on type 'Item'\. Did you mean 'order_id'\?/),
    ])
  })

  it('fails on a misspelt field written through db in a hook', () => {
    expect(errors['misspelt-write']).toEqual([
      expect.stringMatching(
        /^TS2561: .*'acton' does not exist in type 'AuditCreate'\. Did you mean to write 'action'\?/,
      ),
    ])
  })
})
