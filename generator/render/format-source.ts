import * as prettier from 'prettier'

/**
 * Fixed options, so output does not depend on the user's own prettier config
 * and stays byte-identical from machine to machine.
 */
export const PRETTIER_OPTIONS: prettier.Options = {
  semi: false,
  singleQuote: true,
  trailingComma: 'all',
  printWidth: 100,
}

export const PRETTIER_VERSION = prettier.version

export function formatSource(source: string, parser: string): Promise<string> {
  return prettier.format(source, { ...PRETTIER_OPTIONS, parser })
}
