#!/usr/bin/env node
import { existsSync } from 'node:fs'

// The published package ships dist/. A source checkout may not have built it yet (`npm install` does
// not build): its TypeScript sources then load through tsx, a dev dependency, so the CLI works at once.
const compiled = new URL('../dist/generator/cli/main.js', import.meta.url)
const source = new URL('../generator/cli/main.ts', import.meta.url)
let entry = compiled
if (!existsSync(compiled) && existsSync(source)) {
  const tsx = await import('tsx/esm/api').catch(() => undefined)
  if (tsx === undefined) {
    process.stderr.write('restmint: dist/ is not built and tsx is not installed; run `npm install`, or `npm run build`\n')
    process.exit(1)
  }
  tsx.register()
  entry = source
}
const { main } = await import(entry.href)

process.exitCode = await main(process.argv)
