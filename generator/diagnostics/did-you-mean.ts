/**
 * The candidate closest to `input`, or null when none is close enough to be a
 * likely typo. Case and separators (`-`, `_`, spaces) are ignored, so
 * `minLength` finds `min_length`; otherwise up to two edits (insertions,
 * deletions, substitutions, adjacent swaps) are allowed, one for inputs of
 * three characters or fewer. Ties go to the earliest candidate.
 */
export function didYouMean(input: string, candidates: Iterable<string>): string | null {
  const wanted = normalize(input)
  const allowed = wanted.length <= 3 ? 1 : 2
  let best: string | null = null
  let bestDistance = allowed + 1
  for (const candidate of candidates) {
    if (candidate === input) continue
    const distance = editDistance(wanted, normalize(candidate))
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  return best
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/[-_\s]+/g, '')
}

/** Optimal string alignment distance: Levenshtein plus adjacent transpositions. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = []
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = []
    for (let j = 0; j <= b.length; j++) {
      if (i === 0 || j === 0) {
        row.push(i + j)
        continue
      }
      const substitution = (rows[i - 1]?.[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)
      let distance = Math.min((rows[i - 1]?.[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, substitution)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        distance = Math.min(distance, (rows[i - 2]?.[j - 2] ?? 0) + 1)
      }
      row.push(distance)
    }
    rows.push(row)
  }
  return rows[a.length]?.[b.length] ?? 0
}
