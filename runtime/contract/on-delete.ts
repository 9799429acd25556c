/** What deleting a referenced record does to the records whose foreign key points at it. */
export const ON_DELETE_ACTIONS = ['restrict', 'cascade'] as const

export type OnDelete = (typeof ON_DELETE_ACTIONS)[number]
