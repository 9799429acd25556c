/**
 * The app module of the benchmark's hooked server: a `beforeCreate` and an
 * `afterCreate` hook on authors that do next to nothing, so the row measures
 * what running hooks costs (the calls, the translation, the write's
 * transaction), not what hooks do.
 */
import { defineApp } from 'restmint/runtime'
import type { Api } from '../generated/server.js'

export const benchApp = defineApp<Api>({
  hooks: {
    authors: {
      beforeCreate: async ({ body }) => ({ ...body, name: body.name.trim() }),
      afterCreate: async ({ record, log }) => {
        if (record.name === '') log.warn({ author: record.id }, 'author without a name')
      },
    },
  },
})

/**
 * Row f's floor: one `afterCreate` that does nothing. The create then costs
 * what the semantics require of any after-hook (the insert and a
 * COMMIT in a transaction of their own, a rollback should the hook throw)
 * and next to nothing else, so row f cannot do better than this server.
 */
export const emptyAfterCreateApp = defineApp<Api>({
  hooks: { authors: { afterCreate: async () => {} } },
})
