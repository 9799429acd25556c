/**
 * `npm run bench:generate`: generation time (cold and unchanged) for the
 * example manifest and a synthetic 100-resource manifest, and each server's
 * time to its first response: started first (serve bundles the generated
 * tree), then again (the bundle comes from the cache). Prints a table;
 * asserts nothing (issue 7's targets: cold ≤ 3 s, unchanged ≤ 0.5 s, first
 * response ≤ 0.5 s). Then `restmint dev` on the example: the time from a save
 * of the manifest (a new field: a migration written and applied) and of the
 * app module to the restarted server's first 200 (issue 16's goal: ≤ 1 s).
 * BENCH_GENERATE=dev measures only `restmint dev`.
 */
import { execFileSync, spawn } from 'node:child_process'
import {
  appendFileSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { buildSyntheticManifest } from './synthetic-manifest.js'

const root = join(import.meta.dirname, '..')
const cli = join(root, 'bin', 'restmint.js')
const cache = join(root, 'node_modules', '.cache', 'restmint')

function timeCli(cwd: string, ...args: string[]): number {
  const started = performance.now()
  execFileSync(process.execPath, [cli, ...args], { cwd, stdio: 'ignore' })
  return performance.now() - started
}

async function timeToFirstResponse(cwd: string, firstPath: string): Promise<number> {
  const port = 41000 + Math.floor(Math.random() * 1000)
  const started = performance.now()
  const server = spawn(process.execPath, [cli, 'serve', '--db', 'sqlite::memory:', '--port', String(port)], {
    cwd,
    stdio: 'ignore',
  })
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}${firstPath}`)
        if (response.status === 200) return performance.now() - started
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 5))
      if (performance.now() - started > 30_000) throw new Error('server did not answer within 30 s')
    }
  } finally {
    server.kill('SIGTERM')
  }
}

/**
 * `restmint dev` on a copy of the example (manifest, app module, migrations): from each save to the
 * restarted server's first 200, probing a request only the restarted server answers 200.
 */
async function timeDevSaves(dir: string): Promise<{ manifest: number; module: number }> {
  for (const path of ['resources.yaml', 'src', 'migrations'])
    cpSync(join(root, path), join(dir, path), { recursive: true })
  const port = 42000 + Math.floor(Math.random() * 1000)
  const base = `http://127.0.0.1:${port}`
  let stdout = ''
  const dev = spawn(process.execPath, [cli, 'dev', '--port', String(port), '--db', 'sqlite:./dev.db'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  dev.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()))
  const updates = () => stdout.split('restmint dev: up to date').length - 1
  const until = async (ready: () => Promise<boolean>): Promise<number> => {
    const started = performance.now()
    while (!(await ready().catch(() => false))) {
      if (performance.now() - started > 60_000) throw new Error(`restmint dev did not get there within 60 s\n${stdout}`)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    return performance.now() - started
  }
  try {
    await until(async () => (await fetch(`${base}/v2/authors`)).status === 200)
    const manifest = readFileSync(join(dir, 'resources.yaml'), 'utf8')
    writeFileSync(
      join(dir, 'resources.yaml'),
      manifest.replace(/^( {6})email: .*$/m, '$&\n$1nickname: { type: string, nullable: true }'),
    )
    const manifestSave = await until(
      async () => (await fetch(`${base}/v2/authors?filter[nickname][eq]=x`)).status === 200,
    )
    const before = updates()
    appendFileSync(join(dir, 'src', 'app.ts'), '// saved\n')
    const moduleSave = await until(async () => updates() > before && (await fetch(`${base}/v2/authors`)).status === 200)
    return { manifest: manifestSave, module: moduleSave }
  } finally {
    dev.kill('SIGTERM')
    await new Promise((resolve) => dev.once('close', resolve))
  }
}

const rows: string[][] = []
let devSaves: { manifest: number; module: number } | undefined
// Inside the package, so generated code resolves `restmint/runtime` by self-reference.
const scratch = mkdtempSync(join(root, 'bench', 'tmp-'))
try {
  const cases = [
    {
      name: 'example (8 resources)',
      write: (dir: string) => {
        copyFileSync(join(root, 'resources.yaml'), join(dir, 'resources.yaml'))
        cpSync(join(root, 'src'), join(dir, 'src'), { recursive: true }) // the manifest's app: module
      },
      first: '/v1/authors',
    },
    {
      name: 'synthetic (100 resources)',
      write: (dir: string) => writeFileSync(join(dir, 'resources.yaml'), buildSyntheticManifest(100)),
      first: '/v1/widget-b-records',
    },
  ]
  const devOnly = process.env.BENCH_GENERATE === 'dev'
  for (const { name, write, first } of devOnly ? [] : cases) {
    const dir = join(scratch, name.split(' ')[0]!)
    mkdirSync(dir)
    write(dir)
    rmSync(cache, { recursive: true, force: true })
    const cold = timeCli(dir, 'generate')
    const unchanged = timeCli(dir, 'generate')
    const check = timeCli(dir, 'check')
    const firstResponse = await timeToFirstResponse(dir, first)
    const firstResponseAgain = await timeToFirstResponse(dir, first)
    rows.push([name, ms(cold), ms(unchanged), ms(check), ms(firstResponse), ms(firstResponseAgain)])
  }
  const devDir = join(scratch, 'dev')
  mkdirSync(devDir)
  devSaves = await timeDevSaves(devDir)
} finally {
  rmSync(scratch, { recursive: true, force: true })
}

function ms(value: number): string {
  return `${Math.round(value)} ms`
}

const header = [
  'manifest',
  'cold generate',
  'unchanged generate',
  'check',
  'serve → first 200',
  'serve again → first 200',
]
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)))
const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`
if (rows.length > 0) {
  console.log(line(header))
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`)
  for (const row of rows) console.log(line(row))
  console.log(
    '\nTargets (issue 7): cold ≤ 3000 ms, unchanged ≤ 500 ms, first response ≤ 500 ms (times include Node start-up).',
  )
}
if (devSaves !== undefined) {
  console.log(
    `\nrestmint dev, example: a manifest save (a new field, migrated) → first 200 ${ms(devSaves.manifest)}; ` +
      `an app module save → first 200 ${ms(devSaves.module)} (goal, issue 16: ≤ 1000 ms).`,
  )
}
