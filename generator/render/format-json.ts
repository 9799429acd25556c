import { util } from 'prettier'

type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json }

/**
 * JSON laid out exactly as prettier's `json` parser lays out `JSON.stringify`
 * output at this print width, in a fraction of the time (prettier takes
 * seconds on a large OpenAPI document). An object or array goes on one line
 * when it fits there with the comma after it, otherwise one member per line,
 * two spaces deeper. Returns null for the one layout it does not reproduce, a
 * list of numbers too long for one line (prettier fills such lines), so the
 * caller can lay it out otherwise. test/render/format-files.test.ts compares
 * the two.
 */
export function formatJson(source: string, printWidth: number): string | null {
  try {
    return `${print(JSON.parse(source) as Json, 0, 0, '', printWidth)}\n`
  } catch (error) {
    if (error instanceof NumberFill) return null
    throw error
  }
}

class NumberFill extends Error {}

/** `value` starting at `column`, `depth` levels in, followed on its last line by `suffix` (included). */
function print(value: Json, column: number, depth: number, suffix: string, printWidth: number): string {
  const oneLine = printFlat(value, printWidth - column - suffix.length)
  if (oneLine !== null) return `${oneLine.text}${suffix}`
  const list = value as readonly Json[] | { readonly [key: string]: Json }
  if (Array.isArray(list) && list.every((item) => typeof item === 'number')) throw new NumberFill()
  const members: [string, Json][] = Array.isArray(list)
    ? list.map((item: Json) => ['', item])
    : Object.entries(list).map(([key, item]) => [`${JSON.stringify(key)}: `, item])
  const indent = '  '.repeat(depth + 1)
  const lines = members.map(([key, item], index) => {
    const comma = index < members.length - 1 ? ',' : ''
    return `${indent}${key}${print(item, indent.length + util.getStringWidth(key), depth + 1, comma, printWidth)}`
  })
  const [open, close] = Array.isArray(list) ? ['[', ']'] : ['{', '}']
  return `${open}\n${lines.join('\n')}\n${'  '.repeat(depth)}${close}${suffix}`
}

/**
 * `value` on one line, or null when that is wider than `budget`. Scalars and
 * empty lists and maps always fit (prettier never breaks them). Gives up as
 * soon as the budget is spent, so trying costs at most a line's worth.
 */
function printFlat(value: Json, budget: number): { text: string; width: number } | null {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value)
    return { text, width: util.getStringWidth(text) }
  }
  const isList = Array.isArray(value)
  const members: [string, Json][] = isList
    ? (value as readonly Json[]).map((item) => ['', item])
    : Object.entries(value).map(([key, item]) => [`${JSON.stringify(key)}: `, item])
  if (members.length === 0) return { text: isList ? '[]' : '{}', width: 2 }
  const [open, close] = isList ? ['[', ']'] : ['{ ', ' }']
  let text = open
  let width = open.length + close.length + 2 * (members.length - 1)
  for (const [index, [key, item]] of members.entries()) {
    const keyWidth = util.getStringWidth(key)
    const printed = width + keyWidth <= budget ? printFlat(item, budget - width - keyWidth) : null
    if (printed === null) return null
    width += keyWidth + printed.width
    if (width > budget) return null
    text += `${index > 0 ? ', ' : ''}${key}${printed.text}`
  }
  return { text: text + close, width }
}
