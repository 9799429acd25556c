import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { hashFiles, hashKey, listFiles } from './emit/content-cache.js'
import { findTemplatesDirectory } from './render/find-templates-directory.js'

/**
 * A hash of everything besides the manifest that decides what `generate`
 * writes: restmint's own code (generator/ and runtime/, built or source, as
 * this process runs it), its templates and manifest schema, and the version
 * of every package it depends on. Keys the cache of whole generate results,
 * so that a changed restmint or dependency never reuses an old result.
 */
export function generatorFingerprint(): string {
  const generator = dirname(fileURLToPath(import.meta.url))
  const templates = findTemplatesDirectory()
  const packageRoot = dirname(templates)
  const packageJson = join(packageRoot, 'package.json')
  const code = [generator, join(generator, '..', 'runtime'), templates].flatMap(listFiles)
  const files = hashFiles([...code, join(generator, '..', 'manifest.schema.json'), packageJson], packageRoot)
  const { dependencies = {} } = JSON.parse(readFileSync(packageJson, 'utf8')) as {
    dependencies?: Record<string, string>
  }
  const versions = Object.keys(dependencies)
    .sort()
    .map((name) => `${name}@${installedVersion(name, packageRoot)}`)
  return hashKey(files, ...versions)
}

/** The version of `name` Node would load for restmint: from the nearest node_modules/ holding it. */
function installedVersion(name: string, packageRoot: string): string {
  for (let directory = packageRoot; ; directory = dirname(directory)) {
    const manifest = join(directory, 'node_modules', name, 'package.json')
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version
    if (dirname(directory) === directory) return 'not installed'
  }
}
