/**
 * `YYYY-MM-DD` plus whole calendar months, kept on the same day of the month
 * or, past the end of a shorter month, on its last day: 2027-01-15 + 6 →
 * 2027-07-15, 2027-08-31 + 6 → 2028-02-29.
 */
export function addCalendarMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number]
  const target = new Date(Date.UTC(year, month - 1 + months, 1))
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  target.setUTCDate(Math.min(day, lastDay))
  return target.toISOString().slice(0, 10)
}
