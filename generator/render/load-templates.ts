import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import Handlebars from 'handlebars'
import { findTemplatesDirectory } from './find-templates-directory.js'
import { templateHelpers } from './template-helpers.js'
import type { TemplateName, TemplateViews } from './template-views.js'

/** Renders a template with its view (template-views.ts), so a view missing or misnaming a field fails to compile. */
export type RenderTemplate = <N extends TemplateName>(name: N, view: TemplateViews[N]) => string

/**
 * Compiles templates/*.hbs once per process. HTML escaping is off: values go
 * through the helpers in template-helpers.ts. A view field a template reads
 * but its view lacks is an error, not an empty string: `strict` covers bare
 * reads, and the helpers refuse `undefined`, which Handlebars passes them for
 * a missing field.
 */
export function loadTemplates(): RenderTemplate {
  // Once per process, not per render: a test process renders hundreds of manifests.
  return (loaded ??= compileTemplates())
}

let loaded: RenderTemplate | undefined

function compileTemplates(): RenderTemplate {
  const directory = findTemplatesDirectory()
  const handlebars = Handlebars.create()
  for (const [name, helper] of Object.entries(templateHelpers)) {
    handlebars.registerHelper(name, refuseUndefined(name, helper))
  }
  const options = { noEscape: true, strict: true }
  const partials = join(directory, 'partials')
  for (const file of readdirSync(partials)) {
    // Compiled here: Handlebars compiles a partial registered as text again at every use (every file's header).
    const partial = handlebars.compile(readFileSync(join(partials, file), 'utf8'), options)
    handlebars.registerPartial(file.replace(/\.hbs$/, ''), partial)
  }
  const compiled = new Map<TemplateName, Handlebars.TemplateDelegate>()
  return (name, view) => {
    let template = compiled.get(name)
    if (!template) {
      const source = readFileSync(join(directory, `${name}.hbs`), 'utf8')
      template = handlebars.compile(source, options)
      compiled.set(name, template)
    }
    return template(view, { data: { template: name } })
  }
}

/** `helper`, throwing when a template passes it a field its view does not have. */
function refuseUndefined(name: string, helper: (...values: never[]) => string): Handlebars.HelperDelegate {
  return (...args: unknown[]) => {
    const options = args.at(-1) as Handlebars.HelperOptions & { loc: { start: { line: number; column: number } } }
    if (args.slice(0, -1).includes(undefined)) {
      const { line, column } = options.loc.start
      throw new Error(
        `internal error: ${String(options.data.template)}.hbs:${line}:${column + 1}: {{${name}}} got undefined; ` +
          'the template reads a field its view (template-views.ts) does not have',
      )
    }
    return (helper as (...values: unknown[]) => string)(...args)
  }
}
