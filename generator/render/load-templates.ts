import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import Handlebars from 'handlebars'
import { findTemplatesDirectory } from './find-templates-directory.js'
import { templateHelpers } from './template-helpers.js'

export type TemplateName =
  'schema.ts' | 'server.ts' | 'version-index.ts' | 'routes.ts' | 'types.ts' | 'validators.js' | 'body-validators.d.ts'

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
