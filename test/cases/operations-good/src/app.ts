// The handlers of the operations-good case: every declared operation has one (restmint check compares them).
import { defineApp } from 'restmint/runtime'

export default defineApp({
  operations: {
    'orders.holds.replace': async () => ({ id: 1 }),
    'orders.notes.update': async () => undefined,
    'orders.reminders.delete': async () => undefined,
    'items.returns.create': async () => ({ id: 1 }),
    'reports.visits-per-day.list': async () => [],
    'reports.snapshots.create': async () => ({ url: 'https://example.com/snapshot' }),
  },
} as never)
