import type { ContractRuleId } from './contract-rules.js'
import { compareHeaderParameters, compareQueryParameters } from './compare-parameters.js'
import { compareSecurity } from './compare-security.js'
import { addOperationFinding, compareSchemas, describeBodyField, type OperationComparison } from './compare-schemas.js'
import { asList, asNode, resolveNode, type OpenApiNode } from './openapi-node.js'

/** The path item and operation objects of one operation, in one document. */
export interface OperationSide {
  readonly pathItem: OpenApiNode
  readonly operation: OpenApiNode
}

/** Compares one operation present in both documents: parameters, request body, responses, security. */
export function compareOperation(comparison: OperationComparison, before: OperationSide, after: OperationSide) {
  const parameters = (side: OperationSide) => [
    ...asList(side.pathItem.parameters),
    ...asList(side.operation.parameters),
  ]
  compareQueryParameters(comparison, parameters(before), parameters(after))
  compareHeaderParameters(comparison, parameters(before), parameters(after))
  compareRequestBodies(comparison, before.operation.requestBody, after.operation.requestBody)
  compareResponses(comparison, asNode(before.operation.responses), asNode(after.operation.responses))
  compareSecurity(comparison, before.operation, after.operation)
  compareDeleteSemantics(comparison, before.operation, after.operation)
}

/**
 * A DELETE that becomes a soft delete (`x-restmint-soft-delete`) answers as
 * before (204, then 404, gone from lists): additive, said so that nobody
 * learns it from the children that no longer cascade until a purge. The
 * reverse takes the restorations path and `?deleted=` away, which their own
 * rules report as breaking.
 */
function compareDeleteSemantics(comparison: OperationComparison, older: OpenApiNode, newer: OpenApiNode) {
  if (older['x-restmint-soft-delete'] !== true && newer['x-restmint-soft-delete'] === true) {
    reportOperation(comparison, 'DELETE_MADE_SOFT', 'delete', 'removes the record', 'stamps deleted_at')
  }
}

function reportOperation(
  comparison: OperationComparison,
  rule: ContractRuleId,
  subject: string,
  before: string,
  after: string,
) {
  addOperationFinding(comparison, rule, { subject, name: subject, before, after })
}

function compareRequestBodies(comparison: OperationComparison, older: unknown, newer: unknown) {
  const was = asNode(resolveNode(comparison.older, older).node.content)
  const now = asNode(resolveNode(comparison.newer, newer).node.content)
  for (const mediaType of Object.keys(was)) {
    if (!(mediaType in now)) {
      reportOperation(comparison, 'REQUEST_MEDIA_TYPE_REMOVED', 'request body', mediaType, listMediaTypes(now))
      continue
    }
    const place = {
      direction: 'request' as const,
      field: '',
      describe: describeBodyField('request'),
      key: `${comparison.operation}|request`,
    }
    compareSchemas(comparison, place, asNode(was[mediaType]).schema, asNode(now[mediaType]).schema)
  }
  for (const mediaType of Object.keys(now)) {
    if (!(mediaType in was))
      reportOperation(comparison, 'REQUEST_MEDIA_TYPE_ADDED', 'request body', listMediaTypes(was), mediaType)
  }
}

function compareResponses(comparison: OperationComparison, older: OpenApiNode, newer: OpenApiNode) {
  const isSuccess = (status: string) => /^2/.test(status)
  for (const status of Object.keys(older)) {
    if (!(status in newer)) {
      if (isSuccess(status)) {
        const now = Object.keys(newer).filter(isSuccess).join(', ') || 'none'
        reportOperation(comparison, 'SUCCESS_STATUS_REMOVED', 'response status', status, now)
      }
      continue
    }
    const was = asNode(resolveNode(comparison.older, older[status]).node.content)
    const now = asNode(resolveNode(comparison.newer, newer[status]).node.content)
    const subject = isSuccess(status) ? 'response' : `response ${status}`
    for (const mediaType of Object.keys(was)) {
      if (!(mediaType in now)) {
        reportOperation(
          comparison,
          'RESPONSE_MEDIA_TYPE_CHANGED',
          `${subject} media type`,
          mediaType,
          listMediaTypes(now),
        )
        continue
      }
      const place = {
        direction: 'response' as const,
        field: '',
        describe: describeBodyField(subject),
        key: `${comparison.operation}|${status}|${mediaType}`,
      }
      compareSchemas(comparison, place, asNode(was[mediaType]).schema, asNode(now[mediaType]).schema)
    }
  }
  for (const status of Object.keys(newer)) {
    if (isSuccess(status) && !(status in older)) {
      const was = Object.keys(older).filter(isSuccess).join(', ') || 'none'
      reportOperation(comparison, 'SUCCESS_STATUS_ADDED', 'response status', was, status)
    }
  }
}

function listMediaTypes(content: OpenApiNode): string {
  return Object.keys(content).join(', ') || 'no body'
}
