import { describe, expect, it } from 'vitest'
import type { Diagnostic } from '../../generator/diagnostics/diagnostic.js'
import { formatDiagnostics } from '../../generator/diagnostics/format-diagnostics.js'

const TEXT = 'restmint: 1\nresources:\n  author: {}\n'

function at(
  code: string,
  start: number,
  end: number,
  file = 'resources.yaml',
  message = `${code} message`,
): Diagnostic {
  return { code, severity: 'error', message, file, start, end }
}

describe('formatDiagnostics', () => {
  it('renders the header, the source line and carets under the span', () => {
    const start = TEXT.indexOf('author')
    const diagnostic = at(
      'NAMING_PLURAL',
      start,
      start + 6,
      'resources.yaml',
      'collection "author" must be a plural noun; did you mean "authors"?',
    )
    expect(formatDiagnostics([diagnostic], new Map([['resources.yaml', TEXT]]))).toBe(
      'resources.yaml:3:3: error NAMING_PLURAL: collection "author" must be a plural noun; did you mean "authors"?\n' +
        '    author: {}\n' +
        '    ^^^^^^\n',
    )
  })

  it('dedupes and sorts by file, then position', () => {
    const sources = new Map([
      ['a.yaml', TEXT],
      ['b.yaml', TEXT],
    ])
    const output = formatDiagnostics(
      [
        at('THIRD', 14, 15, 'b.yaml'),
        at('SECOND', 14, 15, 'a.yaml'),
        at('FIRST', 0, 8, 'a.yaml'),
        at('SECOND', 14, 15, 'a.yaml'),
      ],
      sources,
    )
    const headers = output.split('\n').filter((line) => /^\w\.yaml:/.test(line))
    expect(headers).toEqual([
      'a.yaml:1:1: error FIRST: FIRST message',
      'a.yaml:2:3: error SECOND: SECOND message',
      'b.yaml:2:3: error THIRD: THIRD message',
    ])
  })

  it('clips a multi-line span to its first line and shows at least one caret', () => {
    const output = formatDiagnostics([at('X', 12, TEXT.length), at('Y', 0, 0)], new Map([['resources.yaml', TEXT]]))
    expect(output.split('\n')).toEqual([
      'resources.yaml:1:1: error Y: Y message',
      '  restmint: 1',
      '  ^',
      'resources.yaml:2:1: error X: X message',
      '  resources:',
      '  ^^^^^^^^^^',
      '',
    ])
  })

  it('keeps tabs in the indent so carets line up', () => {
    const text = 'a:\n\tb: 1\n'
    expect(formatDiagnostics([at('X', 4, 5)], new Map([['f.yaml', text]]).set('resources.yaml', text))).toBe(
      'resources.yaml:2:2: error X: X message\n  \tb: 1\n  \t^\n',
    )
  })

  it('marks the end of a line and a span at the end of the file', () => {
    const text = 'a: 1\n'
    const output = formatDiagnostics([at('X', 4, 4), at('Y', 5, 5)], new Map([['resources.yaml', text]]))
    expect(output).toBe(
      'resources.yaml:1:5: error X: X message\n  a: 1\n      ^\nresources.yaml:2:1: error Y: Y message\n  \n  ^\n',
    )
  })

  it('prints only the header when the source is unknown', () => {
    expect(formatDiagnostics([at('X', 3, 4)], new Map())).toBe('resources.yaml: error X: X message\n')
  })

  it('labels warnings and colors only on request', () => {
    const warning: Diagnostic = { ...at('YAML_SYNTAX', 0, 1), severity: 'warning' }
    const sources = new Map([['resources.yaml', TEXT]])
    expect(formatDiagnostics([warning], sources)).toContain(': warning YAML_SYNTAX:')
    expect(formatDiagnostics([warning], sources)).not.toContain('\u001b[')
    const colored = formatDiagnostics([warning], sources, { color: true })
    expect(colored).toContain('\u001b[33mwarning\u001b[0m')
    expect(colored.replace(/\u001b\[\d+m/g, '')).toBe(formatDiagnostics([warning], sources))
  })

  it('returns an empty string for no diagnostics', () => {
    expect(formatDiagnostics([], new Map())).toBe('')
  })
})
