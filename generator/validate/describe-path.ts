import type { ManifestPath } from '../manifest/source-ranges.js'

/**
 * A manifest location in the words a user would use: `field "name"`,
 * `"max_length" of field "name"`, `resource "authors"`, `service.title`.
 */
export function describePath(path: ManifestPath): string {
  const [section, name, key, fieldName, option, index] = path
  if (section === undefined) return 'the manifest'
  if (section === 'versions' && name !== undefined) return `version "${name}"`
  if (section === 'resources' && name !== undefined) {
    if (key === undefined) return `resource "${name}"`
    if (key !== 'fields') return `"${key}" of resource "${name}"`
    if (fieldName === undefined) return `fields of resource "${name}"`
    if (option === undefined) return `field "${fieldName}"`
    if (index === undefined) return `"${option}" of field "${fieldName}"`
    if (typeof index === 'number') return `${option} value ${index + 1} of field "${fieldName}"`
  }
  return path.join('.')
}
