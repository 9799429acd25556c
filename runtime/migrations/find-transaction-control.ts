/** A statement that would end or start the transaction `migrate apply` runs a migration file in. */
export interface TransactionControl {
  /** As written: `COMMIT`. */
  readonly keyword: string
  /** 1-based. */
  readonly line: number
  readonly column: number
}

/** First words of statements that begin or end a transaction (`ROLLBACK TO` a savepoint does neither). */
const CONTROL_KEYWORDS = new Set(['begin', 'commit', 'end', 'rollback', 'abort', 'start'])
/** Words, and what is skipped: comments, quoted strings and names, PostgreSQL's dollar quotes. */
const TOKEN =
  /--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|'(?:[^']|'')*(?:'|$)|"(?:[^"]|"")*(?:"|$)|\$([A-Za-z_]\w*)?\$[\s\S]*?(?:\$\1\$|$)|;|[A-Za-z_][\w$]*|\s+|./gy
/** Statements whose body runs between BEGIN and END of their own. */
const ROUTINES = new Set(['trigger', 'function', 'procedure'])

/**
 * The first statement of `sql` that begins, commits or rolls back a
 * transaction, or null. Such a statement inside a migration file would end
 * the applier's transaction early (a COMMIT in the middle leaves the rest
 * outside it, so a failure could no longer be rolled back). The bodies of
 * triggers and SQL-standard functions (`create trigger … begin … end`,
 * `begin atomic … end`) are statements, not transaction control.
 */
export function findTransactionControl(sql: string): TransactionControl | null {
  let atStatementStart = true
  let firstWord: string | null = null
  let createsRoutine = false
  let inBody = false
  for (const match of sql.matchAll(TOKEN)) {
    const token = match[0]
    if (token === ';') {
      if (inBody && firstWord === 'end') inBody = false
      atStatementStart = true
      firstWord = null
      createsRoutine = false
      continue
    }
    if (!/^[A-Za-z_]/.test(token)) continue
    const word = token.toLowerCase()
    if (atStatementStart) {
      atStatementStart = false
      firstWord = word
      if (!inBody && CONTROL_KEYWORDS.has(word) && !isRollbackToSavepoint(sql, match.index + token.length, word)) {
        const before = sql.slice(0, match.index).split('\n')
        return { keyword: token, line: before.length, column: before.at(-1)!.length + 1 }
      }
    } else if (firstWord === 'create' && ROUTINES.has(word)) {
      createsRoutine = true
    } else if (createsRoutine && word === 'begin') {
      inBody = true
    }
  }
  return null
}

function isRollbackToSavepoint(sql: string, end: number, word: string): boolean {
  return word === 'rollback' && /^\s+(?:transaction\s+|work\s+)?to\b/i.test(sql.slice(end))
}
