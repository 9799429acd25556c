import { createFinding, type ContractFinding } from './contract-finding.js'
import { compareOperation } from './compare-operations.js'
import { detectResourceMoves } from './detect-resource-moves.js'
import { FindingCollector } from './finding-collector.js'
import { asList, asNode, type OpenApiNode } from './openapi-node.js'
import { pathKey } from './path-key.js'
import { haveSimilarRecords } from './similar-records.js'

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

/**
 * Every difference between a published OpenAPI document and the current one
 * that a client can notice, each with its rule (docs/contract-rules.md): the
 * breaking ones a published version must never have, and the additive ones
 * publishing records. Paths match without their version prefix, so two
 * consecutive versions compare too.
 */
export function compareContracts(published: unknown, current: unknown): ContractFinding[] {
  const older = asNode(published)
  const newer = asNode(current)
  const olderPaths = keyedPaths(older)
  const newerPaths = keyedPaths(newer)
  const removed = new Map([...olderPaths].filter(([key]) => !newerPaths.has(key)))
  const added = new Map([...newerPaths].filter(([key]) => !olderPaths.has(key)))
  const kept = new Map([...newerPaths].filter(([key]) => olderPaths.has(key)))
  const tagOf = (document: OpenApiNode) => (path: string) => firstTag(asNode(asNode(document.paths)[path]))
  const similar = (olderPath: string, newerPath: string) => haveSimilarRecords(older, newer, olderPath, newerPath)
  const moves = detectResourceMoves(removed, added, kept, tagOf(older), similar)
  const findings = new FindingCollector()
  moves.findings.forEach((finding, index) => findings.add(finding, `move|${index}`))
  for (const [key, path] of removed) {
    if (moves.explained.has(key)) continue
    const finding = createFinding('PATH_REMOVED', {
      operation: path,
      subject: '',
      before: path,
      after: '(absent)',
      resource: tagOf(older)(path),
      name: path,
    })
    findings.add(finding, `path|${key}`)
  }
  const movedTargets = new Set(moves.moved.map(({ after }) => after))
  for (const [key, path] of added) {
    if (movedTargets.has(path)) continue
    const finding = createFinding('PATH_ADDED', {
      operation: path,
      subject: '',
      before: '(absent)',
      after: path,
      resource: tagOf(newer)(path),
      name: path,
    })
    findings.add(finding, `path|${key}`)
  }
  const pairs = [...[...kept].map(([key, path]) => ({ before: olderPaths.get(key)!, after: path })), ...moves.moved]
  for (const pair of pairs) comparePathItems(older, newer, pair.before, pair.after, findings)
  return findings.list()
}

function comparePathItems(
  older: OpenApiNode,
  newer: OpenApiNode,
  beforePath: string,
  afterPath: string,
  findings: FindingCollector,
) {
  const before = asNode(asNode(older.paths)[beforePath])
  const after = asNode(asNode(newer.paths)[afterPath])
  for (const method of METHODS) {
    if (before[method] === undefined && after[method] === undefined) continue
    const label = `${method.toUpperCase()} ${after[method] === undefined ? beforePath : afterPath}`
    const resource = firstTag(before) ?? firstTag(after)
    const finding = (rule: 'OPERATION_REMOVED' | 'OPERATION_ADDED', was: string, now: string) =>
      findings.add(
        createFinding(rule, { operation: label, subject: '', before: was, after: now, resource, name: method }),
        `${label}|${rule}`,
      )
    if (after[method] === undefined) finding('OPERATION_REMOVED', label, '(absent)')
    else if (before[method] === undefined) finding('OPERATION_ADDED', '(absent)', label)
    else {
      const comparison = { older, newer, operation: label, resource, findings, visited: new Set<string>() }
      compareOperation(
        comparison,
        { pathItem: before, operation: asNode(before[method]) },
        { pathItem: after, operation: asNode(after[method]) },
      )
    }
  }
}

/** Path key → path, for every path of the document. */
function keyedPaths(document: OpenApiNode): Map<string, string> {
  const version = typeof asNode(document.info).version === 'string' ? (asNode(document.info).version as string) : ''
  return new Map(Object.keys(asNode(document.paths)).map((path) => [pathKey(path, version), path]))
}

/** The resource an operation of the path item serves: restmint tags each with its collection name. */
function firstTag(pathItem: OpenApiNode): string | null {
  for (const method of METHODS) {
    const tag = asList(asNode(pathItem[method]).tags)[0]
    if (typeof tag === 'string') return tag
  }
  return null
}
