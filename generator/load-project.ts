import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { UserError } from './diagnostics/diagnostic.js'
import type { LoadedManifest } from './manifest/load-manifest.js'
import type { ApiModel } from './model/api-model.js'
import type { ValidatedManifest } from './validate/validate-manifest.js'

/**
 * One manifest as every command sees it: read once, and parsed, validated
 * (versions derived) and built into its model at most once, on first use. A
 * cached `generate` needs none of those, nor their packages (yaml, ajv).
 */
export interface Project {
  /** The manifest path as the user gave it (relative to `cwd`); diagnostics and file headers name it this way. */
  readonly manifestFile: string
  readonly cwd: string
  readonly bytes: Buffer
  readonly text: string
  /** Manifest texts by file name, for rendering diagnostics with source lines. */
  readonly sources: ReadonlyMap<string, string>
  /** The parsed manifest, every problem in it, and when there is none the manifest and its versions. */
  validated(): Promise<ValidatedProject>
  /** The model of a manifest without errors; check validated() first. */
  model(): Promise<ApiModel>
}

export interface ValidatedProject extends ValidatedManifest {
  readonly loaded: LoadedManifest
}

/** Reads the manifest; a missing or unreadable one is a user error naming `--manifest`. */
export async function loadProject(cwd: string, manifestFile: string): Promise<Project> {
  const bytes = await readManifest(cwd, manifestFile)
  const text = bytes.toString('utf8')
  let validated: Promise<ValidatedProject> | undefined
  let model: Promise<ApiModel> | undefined
  const project: Project = {
    manifestFile,
    cwd,
    bytes,
    text,
    sources: new Map([[manifestFile, text]]),
    validated: () => (validated ??= validate(manifestFile, text)),
    model: () => (model ??= build(project)),
  }
  return project
}

async function validate(manifestFile: string, text: string): Promise<ValidatedProject> {
  // Imported when first needed: yaml and ajv load only then.
  const [{ loadManifest }, { validateManifest }] = await Promise.all([
    import('./manifest/load-manifest.js'),
    import('./validate/validate-manifest.js'),
  ])
  const loaded = loadManifest(manifestFile, text)
  return { loaded, ...validateManifest(loaded) }
}

async function build(project: Project): Promise<ApiModel> {
  const { manifest, versions } = await project.validated()
  if (!manifest || !versions) throw new Error(`internal error: ${project.manifestFile} has errors, so no model`)
  const { buildModel } = await import('./model/build-model.js')
  return buildModel(manifest, project.manifestFile, versions)
}

async function readManifest(cwd: string, manifestFile: string): Promise<Buffer> {
  try {
    return await readFile(resolve(cwd, manifestFile))
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message
    throw new UserError(`cannot read the manifest ${manifestFile} (${reason}); pass its path with --manifest`)
  }
}
