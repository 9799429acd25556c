import { DummyDriver, Kysely, type DatabaseIntrospector, type DialectAdapter, type QueryCompiler } from 'kysely'

/**
 * A Kysely that compiles one dialect's SQL and never connects: `migrate
 * create` writes migration files for every dialect without a database.
 */
export function createCompileOnlyKysely(dialect: {
  readonly adapter: () => DialectAdapter
  readonly compiler: () => QueryCompiler
  readonly introspector: (db: Kysely<any>) => DatabaseIntrospector
}): Kysely<any> {
  return new Kysely<any>({
    dialect: {
      createAdapter: dialect.adapter,
      createDriver: () => new DummyDriver(),
      createIntrospector: dialect.introspector,
      createQueryCompiler: dialect.compiler,
    },
  })
}
