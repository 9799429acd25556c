/**
 * The example API's own code, named by resources.yaml's `app:`: hooks and
 * computed fields, typed by the generated `Api`.
 */
import { defineApp } from 'restmint/runtime'
import type { Api } from '../generated/server.js'

export default defineApp<Api>({})
