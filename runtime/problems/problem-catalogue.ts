/**
 * Every problem the generated API answers with (RFC 9457). Each code is
 * documented in docs/problems.md; test/runtime/problem-catalogue.test.ts keeps
 * the two in step.
 */
export const PROBLEM_CATALOGUE = {
  validation_failed: { status: 400, title: 'Invalid request' },
  malformed_body: { status: 400, title: 'Malformed request body' },
  invalid_cursor: { status: 400, title: 'Invalid cursor' },
  bad_request: { status: 400, title: 'Bad request' },
  unauthenticated: { status: 401, title: 'Authentication required' },
  invalid_credentials: { status: 401, title: 'Invalid credentials' },
  forbidden: { status: 403, title: 'Forbidden' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  request_timeout: { status: 408, title: 'Request timeout' },
  unique_violation: { status: 409, title: 'Duplicate value' },
  still_referenced: { status: 409, title: 'Still referenced' },
  not_deleted: { status: 409, title: 'Not deleted' },
  constraint_violation: { status: 409, title: 'Database constraint violated' },
  payload_too_large: { status: 413, title: 'Request body too large' },
  uri_too_long: { status: 414, title: 'URI too long' },
  precondition_failed: { status: 412, title: 'Precondition failed' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  expectation_failed: { status: 417, title: 'Expectation failed' },
  precondition_required: { status: 428, title: 'Precondition required' },
  too_many_requests: { status: 429, title: 'Too many requests' },
  header_fields_too_large: { status: 431, title: 'Request header fields too large' },
  internal_error: { status: 500, title: 'Internal server error' },
  operation_failed: { status: 500, title: 'Operation failed' },
  hook_failed: { status: 500, title: 'Hook failed' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
} as const satisfies Record<string, { status: number; title: string }>

export type ProblemCode = keyof typeof PROBLEM_CATALOGUE

/** Problem `type` URIs: identifiers, documented at these anchors of docs/problems.md. */
export function problemTypeUri(code: ProblemCode): string {
  return `https://restmint.dev/problems/${code.replaceAll('_', '-')}`
}
