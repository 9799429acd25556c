import { isAlias, isMap, isScalar, isSeq, type Document, type Pair, type YAMLMap } from 'yaml'

/** Character offsets into the manifest text: [start, end). */
export interface SourceRange {
  readonly start: number
  readonly end: number
}

/** A location in the manifest data: map keys and list indexes, e.g. `['resources', 'authors', 'fields']`. */
export type ManifestPath = readonly (string | number)[]

interface Located {
  /** Range of the key token of the last segment reached, if it was a map key. */
  readonly key: SourceRange | null
  /** Range of the node the last segment reached. */
  readonly value: SourceRange | null
  /** False when the path stopped early because a segment does not exist in the source. */
  readonly complete: boolean
}

/**
 * Range of the key token that names the last segment of `path` (for
 * `['resources', 'author']`, the `author` key). Falls back to the value, then
 * to the nearest ancestor that exists, so a diagnostic always has a position.
 */
export function findKeyRange(document: Document.Parsed, path: ManifestPath): SourceRange {
  const located = locate(document, path)
  return located.key ?? located.value ?? START
}

/**
 * Range of the value at `path`. An empty value (`name:` with nothing after it)
 * has no width, so the key is used instead; a missing one falls back to the
 * nearest ancestor's key.
 */
export function findValueRange(document: Document.Parsed, path: ManifestPath): SourceRange {
  const located = locate(document, path)
  if (located.complete && located.value && located.value.end > located.value.start) return located.value
  return located.key ?? located.value ?? START
}

const START: SourceRange = { start: 0, end: 0 }

function locate(document: Document.Parsed, path: ManifestPath): Located {
  let node: unknown = document.contents
  let key: SourceRange | null = null
  for (const segment of path) {
    // Data reached through an alias lives at its anchor.
    if (isAlias(node)) node = node.resolve(document)
    if (isMap(node)) {
      const pair = pairsByKey(node).get(String(segment))
      if (!pair) return { key, value: rangeOf(node), complete: false }
      key = rangeOf(pair.key)
      node = pair.value
    } else if (isSeq(node) && typeof segment === 'number' && segment < node.items.length) {
      key = null
      node = node.items[segment]
    } else {
      return { key, value: rangeOf(node), complete: false }
    }
  }
  return { key, value: rangeOf(node), complete: true }
}

/**
 * A map's pairs by key text, built once per map: checks look up every field
 * of a map, and a scan per lookup made 20,000 fields take seconds.
 */
const pairIndexes = new WeakMap<YAMLMap, ReadonlyMap<string, Pair>>()

function pairsByKey(map: YAMLMap): ReadonlyMap<string, Pair> {
  let index = pairIndexes.get(map)
  if (!index) {
    const built = new Map<string, Pair>()
    // toJS keeps the last of duplicate keys, so the data came from the last one: later pairs overwrite.
    for (const pair of map.items as Pair[]) {
      const text = keyText(pair.key)
      if (text !== null) built.set(text, pair)
    }
    index = built
    pairIndexes.set(map, index)
  }
  return index
}

function keyText(key: unknown): string | null {
  if (!isScalar(key)) return null
  return key.value === null ? '' : String(key.value)
}

function rangeOf(node: unknown): SourceRange | null {
  if (node === null || typeof node !== 'object' || !('range' in node)) return null
  const range = (node as { range?: readonly number[] | null }).range
  if (!range || range[0] === undefined || range[1] === undefined) return null
  return { start: range[0], end: range[1] }
}
