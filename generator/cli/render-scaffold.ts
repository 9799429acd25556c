import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import Handlebars from 'handlebars'
import { findTemplatesDirectory } from '../render/find-templates-directory.js'

/** What the templates of templates/init/ read. */
export interface ScaffoldView {
  /** The npm package name, from the directory's name. */
  readonly name: string
  /** The API's title (service.title). */
  readonly title: string
  /** The restmint dependency: a version range, a `file:` tarball or a git URL. */
  readonly restmint: string
  /**
   * What starts the scripts that run a server: `exec ` in a POSIX shell, so npm's SIGTERM reaches the
   * server rather than only the shell npm runs the script in; nothing on Windows, whose cmd has no exec.
   */
  readonly exec: string
  /** devDependencies, at the versions restmint itself is developed with. */
  readonly typescript: string
  readonly vitest: string
  readonly typesNode: string
}

/**
 * Files npm treats specially inside a package are shipped under another name: a `.gitignore` in
 * templates/ would be read by `npm pack` as the ignore rules of that directory, not packed.
 */
const RENAMED: Readonly<Record<string, string>> = { gitignore: '.gitignore' }

/**
 * The project `restmint init` writes, by path in sorted order: every
 * templates/init/**\/*.hbs rendered with the view, at its path without
 * `.hbs`. HTML escaping is off (nothing is HTML); values that land in JSON or
 * YAML go through `{{json}}`, and a field a template reads but the view lacks
 * is an error (`strict`).
 */
export function renderScaffold(view: ScaffoldView): Map<string, string> {
  const directory = join(findTemplatesDirectory(), 'init')
  const handlebars = Handlebars.create()
  handlebars.registerHelper('json', (value: unknown) => JSON.stringify(value))
  const templates = readdirSync(directory, { recursive: true, encoding: 'utf8' }).filter((path) =>
    path.endsWith('.hbs'),
  )
  const files = templates.map((template): [string, string] => {
    const source = readFileSync(join(directory, template), 'utf8')
    const path = template.replace(/\.hbs$/, '')
    return [RENAMED[path] ?? path, handlebars.compile(source, { noEscape: true, strict: true })(view)]
  })
  return new Map(files.sort(([a], [b]) => (a < b ? -1 : 1)))
}
