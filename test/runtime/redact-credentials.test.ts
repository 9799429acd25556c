import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { serveLogger } from '../../generator/cli/run-serve.js'
import { redactCredentials } from '../../runtime/storage/redact-credentials.js'

describe('redactCredentials', () => {
  const cases: [given: string, want: string][] = [
    ['postgres://ada:s3cret@db:5432/shop', 'postgres://ada:***@db:5432/shop'],
    ['postgresql://ada:p@ss:w0rd@db/shop', 'postgresql://ada:***@db/shop'],
    [
      'cannot open "postgres://ada:s3cret@db/shop": ECONNREFUSED',
      'cannot open "postgres://ada:***@db/shop": ECONNREFUSED',
    ],
    ['postgres://ada@db/shop?password=s3cret&sslmode=require', 'postgres://ada@db/shop?password=***&sslmode=require'],
    ['postgres://db/shop?sslpassword=s3cret', 'postgres://db/shop?sslpassword=***'],
    ['host=db user=ada password=s3cret dbname=shop', 'host=db user=ada password=*** dbname=shop'],
    ["host=db password='s3 cr\\'et' dbname=shop", 'host=db password=*** dbname=shop'],
    ['Password = s3cret', 'Password=***'],
    // Nothing secret: unchanged, and so is text already redacted.
    ['postgres://ada@db:5432/shop', 'postgres://ada@db:5432/shop'],
    ['sqlite:./data/restmint.db', 'sqlite:./data/restmint.db'],
    ['postgres://ada:***@db/shop?password=***', 'postgres://ada:***@db/shop?password=***'],
  ]
  it.each(cases)('%s', (given, want) => {
    expect(redactCredentials(given)).toBe(want)
  })
})

describe("serve's Fastify logger", () => {
  it('logs errors without the credentials they quote', async () => {
    const lines: string[] = []
    const app = Fastify({ logger: serveLogger((line) => void lines.push(line)) })
    app.get('/boom', () => {
      throw new Error('lost postgres://ada:s3cret@db/shop (password="s3cret")')
    })
    const response = await app.inject('/boom')
    await app.close()
    expect(response.statusCode).toBe(500)
    expect(lines.length).toBeGreaterThan(0)
    for (const line of lines) {
      const entry = JSON.parse(line) as { msg: string }
      expect(entry.msg).toBe('lost postgres://ada:***@db/shop (password=***)')
      expect(line).not.toContain('s3cret')
    }
  })
})
