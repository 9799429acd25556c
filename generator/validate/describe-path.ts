import type { ManifestPath } from '../manifest/source-ranges.js'

/** What one entry of a resource's named sections is called in messages. */
const ENTRY_NOUNS: Readonly<Record<string, string>> = {
  fields: 'field',
  relations: 'relation',
  filter: 'filter',
}

/**
 * A manifest location in the words a user would use: `field "name"`,
 * `"max_length" of field "name"`, `relation "author"`, `include value 2 of
 * resource "posts"`, `resource "authors"`, `service.title`.
 */
export function describePath(path: ManifestPath): string {
  const [section, name, key, entry, option, index] = path
  if (section === undefined) return 'the manifest'
  if (section === 'versions' && name !== undefined) {
    return key === undefined ? `version "${name}"` : `"${String(key)}" of version "${name}"`
  }
  if (section !== 'resources' || name === undefined) return path.join('.')
  const resource = `resource "${name}"`
  if (key === undefined) return resource
  const noun = typeof key === 'string' && Object.hasOwn(ENTRY_NOUNS, key) ? ENTRY_NOUNS[key] : undefined
  if (noun === undefined) {
    if (typeof entry === 'number') return `${String(key)} value ${entry + 1} of ${resource}`
    return entry === undefined ? `"${String(key)}" of ${resource}` : `${path.slice(2).join('.')} of ${resource}`
  }
  if (entry === undefined) return `${String(key)} of ${resource}`
  const described = `${noun} "${String(entry)}"`
  if (option === undefined) return described
  if (typeof option === 'number') return `value ${option + 1} of ${described}`
  if (index === undefined) return `"${option}" of ${described}`
  if (typeof index === 'number') return `${option} value ${index + 1} of ${described}`
  return path.join('.')
}
