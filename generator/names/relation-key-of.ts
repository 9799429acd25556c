/** The foreign key field a belongs-to relation adds: `author_id` for `author`. */
export function relationKeyOf(relation: string): string {
  return `${relation}_id`
}
