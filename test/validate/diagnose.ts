import { expect } from 'vitest'
import type { Diagnostic } from '../../generator/diagnostics/diagnostic.js'
import { loadManifest } from '../../generator/manifest/load-manifest.js'
import { validateManifest } from '../../generator/validate/validate-manifest.js'

/** Six lines, so the first resource key is at line 7, column 3. */
export const HEADER = 'restmint: 1\nservice:\n  title: Test\nversions:\n  v1: {}\nresources:\n'

/** A minimal valid manifest with `body` (indented by the caller) as its resources. */
export function withResources(body: string): string {
  return HEADER + body
}

export interface Located {
  readonly code: string
  readonly line: number
  readonly col: number
  readonly message: string
  readonly diagnostic: Diagnostic
}

/** Every diagnostic of a manifest text, with 1-based line and column from yaml's LineCounter. */
export function diagnose(text: string): Located[] {
  const loaded = loadManifest('resources.yaml', text)
  return validateManifest(loaded).diagnostics.map((diagnostic) => {
    const { line, col } = loaded.lineCounter.linePos(diagnostic.start)
    return { code: diagnostic.code, line, col, message: diagnostic.message, diagnostic }
  })
}

/** Diagnostics as `CODE line:col`, the shape table-driven tests compare. */
export function codesAt(text: string): string[] {
  return diagnose(text).map(({ code, line, col }) => `${code} ${line}:${col}`)
}

/** Asserts that `text` has exactly one diagnostic, `expected` (`CODE line:col`), whose message contains `message`. */
export function expectOnlyDiagnostic(text: string, expected: string, message: string): void {
  const found = diagnose(text)
  expect(found.map(({ code, line, col }) => `${code} ${line}:${col}`)).toEqual([expected])
  expect(found[0]?.message).toContain(message)
}
