import type { Compilable } from 'kysely'
import { QueryParameter } from './query-parameter.js'

/** SQL compiled once, with the placeholders its positional parameters stand for. */
export interface CachedQuery {
  readonly sql: string
  readonly parameters: readonly QueryParameter[]
}

/**
 * Compiled queries by shape. Building and compiling a Kysely query costs about
 * as much as running a cheap one, so each shape (a key naming the table and
 * everything that changes the SQL text) is compiled on first use and reused.
 */
export class QueryCache {
  readonly #queries = new Map<string, CachedQuery>()

  /**
   * Returns the query cached under `key`, building it on first use. Every value
   * in the built query must be a QueryParameter: a literal would be replayed
   * on every later call, so it is rejected.
   */
  get(key: string, build: () => Compilable): CachedQuery {
    let query = this.#queries.get(key)
    if (query === undefined) {
      query = compileQuery(key, build())
      this.#queries.set(key, query)
    }
    return query
  }
}

function compileQuery(key: string, query: Compilable): CachedQuery {
  const { sql, parameters } = query.compile()
  const placeholders = parameters.map((value) => {
    if (!(value instanceof QueryParameter)) {
      throw new Error(`query "${key}" embeds a literal value; use parameter() so the cached query stays reusable`)
    }
    return value
  })
  return { sql, parameters: placeholders }
}
