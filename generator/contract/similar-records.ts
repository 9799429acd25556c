import { asNode, resolveNode, type OpenApiNode } from './openapi-node.js'
import { shapeOf } from './schema-shape.js'

/** Set by the server on every record, so they say nothing about which resource it is. */
const SERVER_FIELDS = new Set(['id', 'created_at', 'updated_at'])

/**
 * Whether the records two collection paths return share at least half their
 * fields (id and timestamps aside): what tells a renamed resource from one
 * removed while another, unrelated, was added.
 */
export function haveSimilarRecords(older: OpenApiNode, newer: OpenApiNode, olderPath: string, newerPath: string) {
  const before = recordFieldsOf(older, olderPath)
  const after = recordFieldsOf(newer, newerPath)
  const shared = [...before].filter((field) => after.has(field)).length
  return shared * 2 >= Math.max(before.size, after.size)
}

function recordFieldsOf(document: OpenApiNode, path: string): Set<string> {
  const list = asNode(asNode(asNode(document.paths)[path]).get)
  const ok = resolveNode(document, asNode(list.responses)['200']).node
  const body = shapeOf(document, asNode(asNode(ok.content)['application/json']).schema).schema
  const data = shapeOf(document, asNode(body.properties).data).schema
  const record = data.items === undefined ? data : shapeOf(document, data.items).schema
  return new Set(Object.keys(asNode(record.properties)).filter((field) => !SERVER_FIELDS.has(field)))
}
