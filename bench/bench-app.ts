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
