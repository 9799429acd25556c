/**
 * A synthetic manifest of `count` resources for benchmarks. Resources differ
 * (rotating field sets, every fifth one nested under an earlier one), so the
 * generator cannot serve most of them from one formatted file.
 */
export function buildSyntheticManifest(count: number): string {
  const fieldPool = [
    'title: { type: string, required: true, max_length: 200 }',
    'price: { type: number, minimum: 0 }',
    'status: { type: string, enum: [draft, live, archived], default: draft }',
    'due_on: { type: date }',
    'contact_email: { type: string, format: email, unique: true }',
    'quantity: { type: integer, minimum: 0, maximum: 1000 }',
    'active: { type: boolean, default: true }',
    'notes: { type: string, nullable: true, max_length: 2000 }',
    'homepage: { type: string, format: uri }',
    'starts_at: { type: datetime }',
    'code: { type: string, pattern: "^[A-Z]{3}-[0-9]{4}$" }',
    'rating: { type: number, minimum: 0, maximum: 5 }',
  ]
  const names = Array.from({ length: count }, (_, index) => `widget-${numberWord(index)}-records`)
  const lines = ['restmint: 1', 'service:', '  title: Synthetic API', 'versions:', '  v1: {}', 'resources:']
  names.forEach((name, index) => {
    lines.push(`  ${name}:`)
    if (index % 5 === 4) lines.push(`    parent: ${names[index - 1]}`)
    lines.push('    fields:')
    const size = 3 + (index % 4)
    for (let offset = 0; offset < size; offset++) {
      lines.push(`      ${fieldPool[(index + offset * 5) % fieldPool.length]}`)
    }
  })
  return `${lines.join('\n')}\n`
}

// Consonants only: names must be letters, and must not spell a verb ("do").
const LETTERS = 'bcdfghjklmnpqrstvwxz'

/** `b`, `c`, …, `z`, `cb`, … */
function numberWord(value: number): string {
  let word = ''
  do {
    word = LETTERS[value % LETTERS.length]! + word
    value = Math.floor(value / LETTERS.length)
  } while (value > 0)
  return word
}
