import { createFinding, type ContractFinding } from './contract-finding.js'
import { collectionsOf } from './path-key.js'

/** A path of the older document and the one it became in the newer. */
export interface MovedPath {
  readonly before: string
  readonly after: string
}

export interface ResourceMoves {
  readonly findings: readonly ContractFinding[]
  /** Removed paths that reappear elsewhere, to compare operation by operation. */
  readonly moved: readonly MovedPath[]
  /** Removed paths the moves explain, so they are not reported one by one. */
  readonly explained: ReadonlySet<string>
}

/**
 * Reads removed and added paths as resources renamed (`/authors…` became
 * `/writers…`) or re-rooted (`/posts/{post_id}/comments` became
 * `/comments` only, or moved under another parent), one finding each.
 *
 * @param removed path key → the older document's path
 * @param added path key → the newer document's path
 * @param kept path key → the newer document's path, for paths in both documents
 * @param similar whether an older collection path and a newer one return records of one resource
 */
export function detectResourceMoves(
  removed: ReadonlyMap<string, string>,
  added: ReadonlyMap<string, string>,
  kept: ReadonlyMap<string, string>,
  tagOf: (path: string) => string | null,
  similar: (olderPath: string, newerPath: string) => boolean,
): ResourceMoves {
  const findings: ContractFinding[] = []
  const moved: MovedPath[] = []
  const explained = new Set<string>()
  const claimed = new Set<string>()
  for (const [fromKey, fromPath] of removed) {
    const rename = findRename(fromKey, removed, added, (key) => claimed.has(key), similar)
    if (rename === null) continue
    const toKey = rename.addedKey
    moved.push({ before: fromPath, after: added.get(toKey)! })
    explained.add(fromKey)
    claimed.add(toKey)
    if (fromKey !== `/${rename.from}`) continue
    findings.push(
      createFinding('RESOURCE_RENAMED', {
        operation: fromPath,
        subject: '',
        before: fromPath,
        after: added.get(toKey)!,
        resource: rename.from,
        name: rename.from,
      }),
    )
  }
  const rerooted = new Set<string>()
  for (const [fromKey, fromPath] of removed) {
    if (explained.has(fromKey)) continue
    const segments = fromKey.split('/')
    const collection = collectionsOf(fromKey).at(-1)
    const isItem = segments.at(-1) === '{}'
    if (collection === undefined || collectionsOf(fromKey).length < 2) continue
    const target = [...added].find(
      ([key]) =>
        !claimed.has(key) && collectionsOf(key).at(-1) === collection && (key.split('/').at(-1) === '{}') === isItem,
    )
    const topLevel = isItem ? `/${collection}/{}` : `/${collection}`
    if (target === undefined && !kept.has(topLevel)) continue
    explained.add(fromKey)
    if (target !== undefined) {
      claimed.add(target[0])
      moved.push({ before: fromPath, after: target[1] })
    }
    const parent = collectionsOf(fromKey).at(-2)!
    if (rerooted.has(`${parent}/${collection}`)) continue
    rerooted.add(`${parent}/${collection}`)
    findings.push(
      createFinding('RESOURCE_REROOTED', {
        operation: fromPath,
        subject: '',
        before: `under ${parent} (${fromPath})`,
        after: target === undefined ? `top level only (${kept.get(topLevel)})` : `at ${target[1]}`,
        resource: tagOf(fromPath) ?? collection,
        name: parent,
      }),
    )
  }
  return { findings, moved, explained }
}

/**
 * A collection segment renamed: its top-level path is gone, the path with only
 * that segment changed is new (and not taken by another rename), and both
 * top-level paths list the same kind of record.
 */
function findRename(
  fromKey: string,
  removed: ReadonlyMap<string, string>,
  added: ReadonlyMap<string, string>,
  isClaimed: (key: string) => boolean,
  similar: (olderPath: string, newerPath: string) => boolean,
): { from: string; to: string; addedKey: string } | null {
  const segments = fromKey.split('/')
  for (const addedKey of added.keys()) {
    if (isClaimed(addedKey)) continue
    const others = addedKey.split('/')
    if (others.length !== segments.length) continue
    const differing = segments.flatMap((segment, index) => (segment === others[index] ? [] : [index]))
    if (differing.length !== 1) continue
    const [from, to] = [segments[differing[0]!]!, others[differing[0]!]!]
    if (from === '{}' || to === '{}') continue
    const [fromRoot, toRoot] = [removed.get(`/${from}`), added.get(`/${to}`)]
    if (fromRoot !== undefined && toRoot !== undefined && similar(fromRoot, toRoot)) return { from, to, addedKey }
  }
  return null
}
