import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Handlebars from 'handlebars'
import { templateHelpers } from './template-helpers.js'

export type TemplateName =
  | 'schema.ts'
  | 'server.ts'
  | 'version-index.ts'
  | 'routes.ts'
  | 'types.ts'
  | 'validators.js'
  | 'body-validators.d.ts'

export type RenderTemplate = (name: TemplateName, view: object) => string

/**
 * Compiles templates/*.hbs once per process. HTML escaping is off: values go
 * through the helpers in template-helpers.ts. `strict` makes a missing view
 * field an error instead of an empty string.
 */
export function loadTemplates(): RenderTemplate {
  const directory = findTemplatesDirectory()
  const handlebars = Handlebars.create()
  handlebars.registerHelper(templateHelpers)
  const partials = join(directory, 'partials')
  for (const file of readdirSync(partials)) {
    handlebars.registerPartial(file.replace(/\.hbs$/, ''), readFileSync(join(partials, file), 'utf8'))
  }
  const compiled = new Map<string, Handlebars.TemplateDelegate>()
  return (name, view) => {
    let template = compiled.get(name)
    if (!template) {
      const source = readFileSync(join(directory, `${name}.hbs`), 'utf8')
      template = handlebars.compile(source, { noEscape: true, strict: true })
      compiled.set(name, template)
    }
    return template(view)
  }
}

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
