import { PROBLEM_CATALOGUE, problemTypeUri, type ProblemCode } from './problem-catalogue.js'

/** One bad input: a query or path parameter by name, or a body member by JSON Pointer. */
export interface InvalidParam {
  readonly in: 'query' | 'path' | 'body'
  readonly name?: string
  readonly pointer?: string
  readonly detail: string
}

/** An RFC 9457 problem details body. https://www.rfc-editor.org/rfc/rfc9457 */
export interface ProblemDetails {
  type: string
  title: string
  status: number
  detail: string
  instance?: string
  /** A catalogue code, or one the API's own code chose (`problem(...)` in its app module). */
  code: ProblemCode | (string & {})
  errors?: InvalidParam[]
}

/** Thrown by handlers; the API's error handler turns it into application/problem+json. */
export class ProblemError extends Error {
  override name = 'ProblemError'
  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly extra: { errors?: InvalidParam[]; headers?: Record<string, string> } = {},
  ) {
    super(detail)
  }

  toProblem(instance?: string): ProblemDetails {
    const { status, title } = PROBLEM_CATALOGUE[this.code]
    return {
      type: problemTypeUri(this.code),
      title,
      status,
      detail: this.detail,
      ...(instance !== undefined ? { instance } : {}),
      code: this.code,
      ...(this.extra.errors ? { errors: this.extra.errors } : {}),
    }
  }
}

/** A `validation_failed` problem listing `errors`, all found in one part of the request. */
export function validationFailed(where: InvalidParam['in'], errors: InvalidParam[]): ProblemError {
  return new ProblemError('validation_failed', summarize(where), { errors })
}

/** The `detail` of a validation_failed problem about one part of the request. */
export function summarize(where: InvalidParam['in']): string {
  const what = { query: 'query parameters', path: 'path parameters', body: 'request body' }[where]
  return `The ${what} did not validate; see errors for each problem.`
}
