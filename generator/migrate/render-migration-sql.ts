import {
  DATA_LOSS_PREFIX,
  MIGRATION_SQL_FILES,
  SNAPSHOT_FILE,
  type MigrationDialect,
} from '../../runtime/migrations/migration-files.js'
import type { MigrationPlan, TableChange } from './migration-plan.js'
import { buildCreateStatements } from '../../runtime/storage/build-create-statements.js'
import type { RenamedTables } from './compare-table-columns.js'
import { describeTableChange } from './describe-changes.js'
import { defineSnapshotTable } from './define-snapshot-table.js'
import {
  MIGRATION_CREATE_OPTIONS,
  type MigrationLine,
  type MigrationSqlDialect,
  type MigrationStatement,
} from './migration-sql-dialect.js'
import { postgresMigrationSql } from './postgres/postgres-migration-sql.js'
import { sqliteMigrationSql } from './sqlite/sqlite-migration-sql.js'

const DIALECTS: Readonly<Record<MigrationDialect, MigrationSqlDialect>> = {
  sqlite: sqliteMigrationSql,
  postgres: postgresMigrationSql,
}

/** The prefix of each header line naming one table change. */
const MIGRATION_SUMMARY_PREFIX = '-- restmint migration: '

/** Every file of a migration's directory, by name: its SQL for each dialect and the snapshot it leads to. */
export function renderMigrationFiles(plan: MigrationPlan): Map<string, string> {
  return new Map([
    [MIGRATION_SQL_FILES.sqlite, renderMigrationSql(plan, 'sqlite')],
    [MIGRATION_SQL_FILES.postgres, renderMigrationSql(plan, 'postgres')],
    [SNAPSHOT_FILE, `${JSON.stringify(plan.after, null, 2)}\n`],
  ])
}

/**
 * The SQL file of a migration for one dialect: a header comment (what the
 * migration destroys, DATA_LOSS_PREFIX lines, then one line per table
 * change), then per table change its statements, each ending with `;`, in
 * the plan's order. Created tables get exactly the DDL prepare() runs
 * (buildCreateStatements, without IF NOT EXISTS); dropped ones DROP TABLE;
 * changed ones what the dialect's alterTable says. The same plan always
 * gives the same text.
 *
 * A lossy type change (allowed by --allow-data-loss) converts each value
 * through its text; a value that is no value of the new type becomes NULL,
 * then the backfill when there is one, and on a NOT NULL column without one
 * the migration fails and rolls back.
 */
export function renderMigrationSql(plan: MigrationPlan, dialect: MigrationDialect): string {
  const target = DIALECTS[dialect]
  const header = [
    ...plan.dataLoss.map((line) => `${DATA_LOSS_PREFIX}${line}`),
    ...plan.changes.map((change) => `${MIGRATION_SUMMARY_PREFIX}${describeTableChange(change)}`),
  ]
  const renamedTables = new Map(
    plan.changes.flatMap(({ before, after }) =>
      before !== null && after !== null && before.name !== after.name ? [[before.name, after.name] as const] : [],
    ),
  )
  const tableNames = new Set([...plan.before.tables, ...plan.after.tables].map((table) => table.name))
  const sections = plan.changes.map((change) =>
    renderTableChange(change, target, renamedTables, tableNames).map((line) => renderLine(line, target)),
  )
  return [header.join('\n'), ...sections.map((lines) => lines.join('\n'))].join('\n\n') + '\n'
}

function renderTableChange(
  change: TableChange,
  target: MigrationSqlDialect,
  renamedTables: RenamedTables,
  tableNames: ReadonlySet<string>,
): MigrationLine[] {
  const { before, after } = change
  if (before === null && after === null) throw new Error('a table change needs a table before or after it')
  if (before === null) {
    return buildCreateStatements(
      target.db,
      [defineSnapshotTable(after!)],
      target.columnTypes,
      target.syntax,
      MIGRATION_CREATE_OPTIONS,
    ).map((statement) => ({ statement }))
  }
  if (after === null) return [{ statement: target.db.schema.dropTable(before.name) }]
  return target.alterTable(before, after, change.sources, renamedTables, tableNames)
}

function renderLine(line: MigrationLine, target: MigrationSqlDialect): string {
  if ('comment' in line) return `-- ${line.comment}`
  return `${compileStatement(line.statement, target)};`
}

/**
 * The statement's SQL, CREATE TABLE with one column or constraint per line.
 * Every value is inlined as a literal by Kysely; a parameter would be lost
 * in a file, so one is a bug.
 */
function compileStatement(statement: MigrationStatement, target: MigrationSqlDialect): string {
  const { sql, parameters } = statement.compile(target.db)
  if (parameters.length > 0) throw new Error(`migration statement has parameters, which a file cannot hold: ${sql}`)
  return sql.startsWith('create table ') ? breakDefinitionList(sql) : sql
}

/** `create table "t" ("a" integer, "b" text)` → one definition per indented line. */
function breakDefinitionList(statement: string): string {
  const open = statement.indexOf('(')
  if (!statement.endsWith(')') || open < 0) return statement
  const definitions: string[] = []
  let depth = 0
  let quote: string | undefined
  let start = open + 1
  for (let index = start; index < statement.length - 1; index++) {
    const character = statement[index]!
    if (quote !== undefined) {
      if (character === quote) quote = undefined
    } else if (character === "'" || character === '"') quote = character
    else if (character === '(') depth++
    else if (character === ')') depth--
    else if (character === ',' && depth === 0) {
      definitions.push(statement.slice(start, index).trim())
      start = index + 1
    }
  }
  definitions.push(statement.slice(start, -1).trim())
  return `${statement.slice(0, open + 1)}\n${definitions.map((definition) => `  ${definition}`).join(',\n')}\n)`
}
