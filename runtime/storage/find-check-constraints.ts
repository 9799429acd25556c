import type { ExistingCheck } from './storage-dialect.js'

/** Tokens of a CREATE TABLE statement: quoted strings and identifiers whole, words, single characters. */
const TOKEN = /'(?:[^']|'')*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\]|--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|\w+|\S/g

/**
 * The CHECK constraints of a CREATE TABLE statement as SQLite stores it
 * (sqlite_master.sql), which no pragma lists: each `CHECK (…)`, column or
 * table constraint, with the name a preceding `CONSTRAINT name` gives it.
 * Reads tokens so that a `check` inside a string, a quoted name or a comment
 * does not count.
 */
export function findCheckConstraints(statement: string): ExistingCheck[] {
  const tokens = [...statement.matchAll(TOKEN)]
    .filter(([text]) => !text.startsWith('--') && !text.startsWith('/*'))
    .map((match) => ({ text: match[0], start: match.index }))
  const checks: ExistingCheck[] = []
  for (let index = 0; index < tokens.length; index++) {
    if (tokens[index]!.text.toLowerCase() !== 'check' || tokens[index + 1]?.text !== '(') continue
    let depth = 0
    let end = index + 1
    for (; end < tokens.length; end++) {
      if (tokens[end]!.text === '(') depth++
      if (tokens[end]!.text === ')' && --depth === 0) break
    }
    const named = tokens[index - 2]?.text.toLowerCase() === 'constraint' ? tokens[index - 1]!.text : undefined
    const expression = statement.slice(tokens[index + 1]!.start + 1, tokens[end]?.start ?? statement.length).trim()
    checks.push({ name: named === undefined ? null : unquote(named), expression })
    index = end
  }
  return checks
}

function unquote(name: string): string {
  const quote = name[0]
  if (quote === '"' || quote === '`') return name.slice(1, -1).replaceAll(quote + quote, quote)
  return quote === '[' ? name.slice(1, -1) : name
}
