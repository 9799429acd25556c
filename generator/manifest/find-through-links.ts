import { listInverseLinks, type InverseLink } from './list-inverse-links.js'

/** The two links of a many-to-many's join resource: to the resource declaring the relation, and to its target. */
export interface ThroughLinks {
  /** The join's key holding the declaring record's id (`post_id`); undefined when it has no link there. */
  readonly source: InverseLink | undefined
  /** The join's key holding the target's id (`tag_id`); undefined when it has no link there. */
  readonly target: InverseLink | undefined
}

/**
 * The links of join resource `through` to `source` and to `target`: the first
 * one to each (its parent or a belongs-to). Reads data that may not have
 * passed the schema.
 */
export function findThroughLinks(
  resources: Readonly<Record<string, unknown>>,
  through: string,
  source: string,
  target: string,
): ThroughLinks {
  return {
    source: listInverseLinks(resources, through, source)[0],
    target: listInverseLinks(resources, through, target)[0],
  }
}
