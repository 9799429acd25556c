import type { ApiShape } from './api-shape.js'

/**
 * The handler of one custom operation declared in the manifest, keyed
 * `<resource>.<operation>.<method-name>`. Its context is typed by the
 * operation's declaration.
 */
export type OperationHandler<_A extends ApiShape> = (context: never) => Promise<unknown>

/** Every custom operation's handler, by key. */
export type OperationHandlers<A extends ApiShape> = { readonly [key: string]: OperationHandler<A> }
