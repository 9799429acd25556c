import { describe, expect, it } from 'vitest'
import { probePostgres } from './postgres-global-setup.js'

// Issue 6, item 25: without PostgreSQL the run stops once, saying what to start or set.
describe('the PostgreSQL probe run before the tests', () => {
  it('names the server, the reason and the ways out, without the password', async () => {
    const probe = probePostgres('postgres://postgres:n0t-f0r-y0ur-eyes@127.0.0.1:44098/test')
    await expect(probe).rejects.toThrow(
      'PostgreSQL is not reachable at postgres://postgres:***@127.0.0.1:44098/test (connect ECONNREFUSED 127.0.0.1:44098).',
    )
    await expect(probe).rejects.toThrow(
      /start PostgreSQL there[\s\S]*RESTMINT_TEST_POSTGRES=off to run the SQLite tests only/,
    )
    await expect(probe).rejects.not.toThrow(/n0t-f0r-y0ur-eyes/)
  })
})
