/**
 * The most UTF-8 bytes of text one index entry may hold, on every dialect.
 * PostgreSQL refuses a B-tree entry over 2704 bytes (an 8 kB page's third,
 * after compression, which depends on the text), so a long value in a unique,
 * sorted or filtered string column would fail there and pass in SQLite. A
 * fixed limit below that, with room for the entry's header and other columns,
 * makes the outcome the same on both and independent of how well text compresses.
 */
export const MAX_INDEXED_TEXT_BYTES = 2000

/** UTF-8 spends at most 4 bytes on one character (code point). */
const MAX_UTF8_BYTES_PER_CHARACTER = 4

/**
 * The longest `max_length` (in characters) of a string field that the
 * generator gives a sort or filter index of its own: whatever its characters,
 * a value then fits MAX_INDEXED_TEXT_BYTES.
 */
export const MAX_INDEXED_TEXT_LENGTH = MAX_INDEXED_TEXT_BYTES / MAX_UTF8_BYTES_PER_CHARACTER
