/**
 * What a generated `Api` type says about one resource, in the newest
 * version's names: its record, and the bodies of a create (and replace) and
 * of an update. `generated/server.ts` exports one `Api` type mapping every
 * resource to these.
 */
export interface ResourceShape {
  readonly record: object
  readonly create: object
  readonly update: object
}

/** Every resource of an API by name (`generated/server.ts`'s `Api`). */
export type ApiShape = { readonly [resource: string]: ResourceShape }
