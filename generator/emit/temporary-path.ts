/**
 * Where a file is staged before it is renamed into place: next to its target,
 * so the rename stays on one file system and is atomic.
 */
export function temporaryPathOf(path: string): string {
  return `${path}.restmint-${process.pid}.tmp`
}
