const UNIT_SECONDS = { s: 1, m: 60, h: 3_600 } as const

/**
 * The seconds of a rate limit's `per`: a whole number of seconds, minutes or
 * hours (`30s`, `1m`, `1h`), at most a day; null for anything else.
 */
export function parseRatePeriod(per: string): number | null {
  const match = /^([1-9][0-9]{0,5})([smh])$/.exec(per)
  if (match === null) return null
  const seconds = Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS]
  return seconds <= MAX_RATE_PERIOD_SECONDS ? seconds : null
}

/** A day: longer windows are quotas, not rate limits, and would keep counters for days. */
export const MAX_RATE_PERIOD_SECONDS = 86_400
