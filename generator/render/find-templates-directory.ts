import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** templates/ sits at the package root, above both generator/ and dist/generator/. */
export function findTemplatesDirectory(): string {
  let directory = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(directory, 'templates', 'schema.ts.hbs'))) {
    const parent = dirname(directory)
    if (parent === directory) throw new Error('internal error: restmint templates/ directory not found')
    directory = parent
  }
  return join(directory, 'templates')
}
