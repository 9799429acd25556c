import { describe, expect, it } from 'vitest'
import type { Manifest } from '../../generator/manifest/manifest.js'
import { buildHttp } from '../../generator/model/build-http.js'

const manifest = (auth: Manifest['auth']): Manifest =>
  ({
    restmint: 1,
    service: { title: 'Headers' },
    versions: { v1: {} },
    http: { cors: { origins: ['https://app.example.com'] } },
    ...(auth ? { auth } : {}),
    resources: { notes: { fields: { title: { type: 'string' } } } },
  }) as Manifest

describe('buildHttp', () => {
  it('lets browsers send credentials, JSON bodies and conditional headers', () => {
    expect(buildHttp(manifest(undefined)).cors?.allowedHeaders).toEqual([
      'Authorization',
      'Content-Type',
      'If-Match',
      'If-None-Match',
    ])
  })

  it("adds each API-key scheme's header, since a browser must be allowed to send it", () => {
    const auth: Manifest['auth'] = {
      schemes: { machine: { type: 'api_key', header: 'X-API-Key', keys_env: 'API_KEYS' } },
    }
    expect(buildHttp(manifest(auth)).cors?.allowedHeaders).toContain('X-API-Key')
  })
})
