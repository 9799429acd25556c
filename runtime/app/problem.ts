import { STATUS_CODES } from 'node:http'
import { ProblemError, type ProblemDetails } from '../problems/problem-error.js'

/** What `problem(...)` may add: body members at fault, by JSON Pointer in the newest version's names. */
export interface ProblemOptions {
  /** `{ '/total': 'must equal the sum of the items' }`: answered as `errors`, each `in: 'body'`. */
  readonly pointers?: Readonly<Record<string, string>>
}

/**
 * An error an app module's hook or operation throws to answer with a problem
 * of its own: `status` (400–599), a stable `code` for programs (snake_case),
 * a `detail` for people. Its `type` is `about:blank` and its title the
 * status's reason phrase, as RFC 9457 has it for problems without a
 * documented type.
 */
export class AppProblemError extends ProblemError {
  override name = 'AppProblemError'
  /**
   * Throws a TypeError for a status outside 400–599 or a code that is not
   * snake_case: a mistake in server code, found the first time it runs.
   */
  constructor(
    readonly status: number,
    readonly appCode: string,
    detail: string,
    readonly pointers: Readonly<Record<string, string>>,
  ) {
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new TypeError(`problem(): status must be a whole number from 400 to 599, not ${status}`)
    }
    if (!/^[a-z][a-z0-9_]*$/.test(appCode)) {
      throw new TypeError(`problem(): code must be snake_case (e.g. "order_shipped"), not ${JSON.stringify(appCode)}`)
    }
    super('internal_error', detail, {
      errors: Object.entries(pointers).map(([pointer, detail]) => ({ in: 'body', pointer, detail })),
    })
  }

  override toProblem(instance?: string): ProblemDetails {
    return {
      type: 'about:blank',
      title: STATUS_CODES[this.status] ?? 'Error',
      status: this.status,
      detail: this.detail,
      ...(instance !== undefined ? { instance } : {}),
      code: this.appCode,
      ...(this.extra.errors?.length ? { errors: this.extra.errors } : {}),
    }
  }
}

/**
 * The problem a hook or operation throws: `throw problem(409, 'order_shipped',
 * 'A shipped order cannot change.')`; checked as AppProblemError's constructor says.
 */
export function problem(status: number, code: string, detail: string, options: ProblemOptions = {}): AppProblemError {
  return new AppProblemError(status, code, detail, options.pointers ?? {})
}
