import type { Options } from 'prettier'
import prettierPackage from 'prettier/package.json' with { type: 'json' }

/**
 * Fixed options, so output does not depend on the user's own prettier config
 * and stays byte-identical from machine to machine.
 */
export const PRETTIER_OPTIONS: Options = {
  semi: false,
  singleQuote: true,
  trailingComma: 'all',
  printWidth: 100,
}

/** Read from its package.json: cache keys need it, but an unchanged run should not load prettier (~0.1 s). */
export const PRETTIER_VERSION = prettierPackage.version

/**
 * Babel's TypeScript parser: prettier prints the same from it as from
 * typescript-estree for what restmint generates (test/render/format-files.test.ts
 * checks every valid case), at ~20% less CPU, most of a cold generate.
 */
export const TYPESCRIPT_PARSER = 'babel-ts'

export async function formatSource(source: string, parser: string): Promise<string> {
  const prettier = await import('prettier')
  return prettier.format(source, { ...PRETTIER_OPTIONS, parser })
}
