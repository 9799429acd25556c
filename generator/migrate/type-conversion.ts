import type { FieldType } from '../../runtime/contract/field-type.js'

/**
 * Type changes every stored value survives: an integer is a number, anything
 * reads back as its text (as the API writes it: `true`, `2026-11-24`,
 * `2026-11-24T10:00:00.000Z`), a date is that day's midnight UTC. Every other
 * change (string → integer, number → integer, …) narrows: values that do not
 * fit are lost, so `migrate create` needs --allow-data-loss for it.
 */
const LOSSLESS_CONVERSIONS: Readonly<Record<FieldType, readonly FieldType[]>> = {
  integer: ['number', 'string'],
  number: ['string'],
  boolean: ['string'],
  date: ['datetime', 'string'],
  datetime: ['string'],
  string: [],
}

export function isLosslessConversion(from: FieldType, to: FieldType): boolean {
  return from === to || LOSSLESS_CONVERSIONS[from].includes(to)
}
