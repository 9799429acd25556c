import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as prettier from 'prettier'
import { describe, expect, it } from 'vitest'

describe('formatting', () => {
  it('leaves YAML as yaml.stringify writes it because prettier would not change it', async () => {
    const yaml = readFileSync(join(import.meta.dirname, '../../generated/v1/openapi.yaml'), 'utf8')
    expect(await prettier.format(yaml, { parser: 'yaml', printWidth: 100 })).toBe(yaml)
  })
})
