import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { UserError } from '../diagnostics/diagnostic.js'
import { temporaryPathOf } from '../emit/temporary-path.js'
import type { CliIo } from './cli-io.js'
import { readOwnPackage } from './read-own-package.js'
import { renderScaffold, type ScaffoldView } from './render-scaffold.js'

export interface InitOptions {
  /** Where to write the project (default: the working directory). */
  readonly directory?: string
  /** The restmint dependency to write instead of this version: a tarball path or a git URL. */
  readonly from?: string
  /** Write into a directory that is not empty, replacing the scaffold's files there. */
  readonly force?: boolean
}

/**
 * `restmint init [dir]`: writes a project that uses restmint (package.json,
 * resources.yaml, src/app.ts, tsconfig.json, .gitignore, README.md and one
 * test) and says what it wrote and what to run next. Refuses a directory that
 * holds anything unless `--force`. Each file is written beside its place and
 * renamed into it, so none is ever half-written.
 */
export function runInit(options: InitOptions, io: CliIo): number {
  const given = options.directory ?? '.'
  const target = resolve(io.cwd, given)
  if (existsSync(target) && !statSync(target).isDirectory()) {
    throw new UserError(`${given} is a file, not a directory; give restmint init a directory to write the project in`)
  }
  const present = existsSync(target) ? readdirSync(target) : []
  if (present.length > 0 && options.force !== true) {
    const shown = present.sort().slice(0, 5).join(', ')
    throw new UserError(
      `${given} is not empty (${shown}${present.length > 5 ? ', …' : ''}); restmint init writes into a new or empty ` +
        `directory: give another one (restmint init my-api), or pass --force to write the project's files over ` +
        `what is there (other files stay). Nothing was written.`,
    )
  }
  const own = readOwnPackage()
  const name = packageNameOf(basename(target))
  const restmint = options.from === undefined ? installedSpec(target) : dependencySpec(options.from, io.cwd, target)
  if (restmint === undefined) {
    throw new UserError(
      `restmint init cannot tell where this restmint was installed from, and restmint is not on the npm ` +
        `registry; pass --from with a tarball (npm pack in a checkout) or a git URL. Nothing was written.`,
    )
  }
  const view: ScaffoldView = {
    name,
    title: `${name} API`,
    restmint,
    exec: process.platform === 'win32' ? '' : 'exec ',
    typescript: own.devDependencies.typescript ?? 'latest',
    vitest: own.devDependencies.vitest ?? 'latest',
    typesNode: own.devDependencies['@types/node'] ?? 'latest',
  }
  const files = renderScaffold(view)
  const existingPackage = join(target, 'package.json')
  if (existsSync(existingPackage)) {
    files.set('package.json', mergePackageJson(readFileSync(existingPackage, 'utf8'), files.get('package.json')!))
  }
  for (const [path, contents] of files) {
    const file = join(target, path)
    mkdirSync(dirname(file), { recursive: true })
    const staged = temporaryPathOf(file)
    rmSync(staged, { force: true })
    writeFileSync(staged, contents, { flag: 'wx' })
    renameSync(staged, file)
  }
  const shownTarget = relative(io.cwd, target) || '.'
  io.stdout(`Created a restmint project in ${shownTarget}/ (restmint ${view.restmint}):\n`)
  for (const path of files.keys()) io.stdout(`  wrote    ${join(shownTarget, path)}\n`)
  io.stdout('Next:\n')
  if (shownTarget !== '.') io.stdout(`  cd ${shownTarget}\n`)
  io.stdout('  npm install\n  npm run dev      # serves the API at http://127.0.0.1:3000 and follows every save\n')
  io.stdout('  npm test\n')
  return 0
}

/**
 * `--from`: a path that exists (a tarball, or a checkout) becomes a `file:` spec relative to the project,
 * as npm itself writes one (a tarball kept inside the project installs anywhere the project is cloned);
 * anything else (a git URL, a version range) is written as given.
 */
function dependencySpec(from: string, cwd: string, project: string): string {
  const path = resolve(cwd, from)
  return existsSync(path) ? fileSpec(project, path) : from
}

function fileSpec(project: string, path: string): string {
  const fromProject = relative(project, path)
  // Another drive (Windows) has no relative path.
  if (isAbsolute(fromProject)) return `file:${path}`
  const relativePath = fromProject.split(sep).join('/')
  return `file:${relativePath.startsWith('.') ? relativePath : `./${relativePath}`}`
}

/**
 * Without `--from`: the restmint this command runs from, as it was installed. In a project's
 * node_modules, the spec that project's package.json gives it (a git URL, a tarball, a registry range);
 * run from a checkout of restmint, that checkout. Undefined when neither can be read: restmint is not on
 * the registry, so a bare version range would not install.
 */
function installedSpec(project: string): string | undefined {
  const own = dirname(createRequire(import.meta.url).resolve('restmint/package.json'))
  if (basename(dirname(own)) !== 'node_modules') return fileSpec(project, own)
  const installer = dirname(dirname(own))
  let manifest: { dependencies?: Record<string, string>; devDependencies?: Record<string, string> }
  try {
    manifest = JSON.parse(readFileSync(join(installer, 'package.json'), 'utf8')) as typeof manifest
  } catch {
    return undefined
  }
  const spec = manifest.dependencies?.restmint ?? manifest.devDependencies?.restmint
  if (spec === undefined) return undefined
  return spec.startsWith('file:') ? fileSpec(project, resolve(installer, spec.slice('file:'.length))) : spec
}

/**
 * `--force` over a project that has a package.json: the scaffold's scripts, dependencies and
 * allowScripts are added to it, and everything else it says (name, version, its own scripts and
 * dependencies) stays; the scaffold's entries (and `"type": "module"`) win where both name one.
 */
function mergePackageJson(existing: string, scaffold: string): string {
  let current: unknown
  try {
    current = JSON.parse(existing)
  } catch (error) {
    throw new UserError(
      `package.json is not valid JSON (${(error as Error).message}); fix it or move it away, then run ` +
        `restmint init --force again. Nothing was written.`,
    )
  }
  if (!isPlainObject(current)) {
    throw new UserError(
      'package.json holds no JSON object; fix it or move it away, then run restmint init --force again. ' +
        'Nothing was written.',
    )
  }
  const added = JSON.parse(scaffold) as Record<string, Record<string, unknown>>
  // The scaffold's code is ESM: `type` is the scaffold's whatever the project said.
  const merged: Record<string, unknown> = { ...added, ...current, type: added.type }
  for (const key of ['scripts', 'dependencies', 'devDependencies', 'allowScripts']) {
    const own = current[key]
    merged[key] = { ...(isPlainObject(own) ? own : {}), ...added[key] }
  }
  // A package named in one section of the scaffold leaves the other (npm would install the dependencies' spec).
  for (const [section, other] of [
    ['dependencies', 'devDependencies'],
    ['devDependencies', 'dependencies'],
  ] as const) {
    const from = merged[other] as Record<string, unknown>
    for (const name of Object.keys(added[section] ?? {})) delete from[name]
  }
  return `${JSON.stringify(merged, null, 2)}\n`
}

/** An npm package name from a directory name: lowercase, with only the characters npm allows. */
function packageNameOf(directoryName: string): string {
  const name = directoryName
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '')
  return name === '' ? 'my-api' : name
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
