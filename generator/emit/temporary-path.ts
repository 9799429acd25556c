const TEMPORARY_SUFFIX = /\.restmint-\d+\.tmp$/

/**
 * Where a file is staged before it is renamed into place: next to its target,
 * so the rename stays on one file system and is atomic.
 */
export function temporaryPathOf(path: string): string {
  return `${path}.restmint-${process.pid}.tmp`
}

/** The path a staged file was meant for; null when `path` is not a staged file. */
export function targetOfTemporary(path: string): string | null {
  return TEMPORARY_SUFFIX.test(path) ? path.replace(TEMPORARY_SUFFIX, '') : null
}
