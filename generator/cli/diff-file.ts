import { formatPatch, structuredPatch } from 'diff'

/** How a file's contents change: a line count for the summary, the unified diff for `check --diff`. */
export interface FileDiff {
  readonly added: number
  readonly removed: number
  /** The unified diff, each line cut at MAX_LINE_LENGTH characters; ends with a newline. */
  readonly patch: string
}

/** Generated validators are minified onto one line of many kilobytes: a diff line is cut after this many characters. */
export const MAX_LINE_LENGTH = 200

/** The diff from `before` to `after` of the file at `path` (both may be empty: a missing or an extra file). */
export function diffFile(path: string, before: string, after: string): FileDiff {
  const patch = structuredPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, { context: 2 })
  let added = 0
  let removed = 0
  for (const line of patch.hunks.flatMap((hunk) => hunk.lines)) {
    if (line.startsWith('+')) added += 1
    else if (line.startsWith('-')) removed += 1
  }
  const lines = formatPatch(patch, { includeIndex: false, includeUnderline: false, includeFileHeaders: true })
    .split('\n')
    .map(cutLine)
  return { added, removed, patch: lines.join('\n').replace(/\n*$/, '\n') }
}

/** `+12 −3 lines` */
export function describeLineCounts({ added, removed }: FileDiff): string {
  return `+${added} −${removed} line${added + removed === 1 ? '' : 's'}`
}

function cutLine(line: string): string {
  if (line.length <= MAX_LINE_LENGTH) return line
  return `${line.slice(0, MAX_LINE_LENGTH)} … (${line.length - MAX_LINE_LENGTH} more characters)`
}
