/**
 * `restmint init` (issue 16, section 1): what it writes, which restmint it
 * depends on, and that it refuses a directory that holds anything. Installing
 * and running the project it writes is test/package/init.test.ts.
 */
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { REPO } from '../support/copy-checkout.js'
import { runCli } from '../support/run-cli.js'

const FILES = [
  '.gitignore',
  'README.md',
  'package.json',
  'resources.yaml',
  'src/app.ts',
  'test/api.test.ts',
  'tsconfig.json',
]

describe('restmint init', () => {
  let cwd = ''
  beforeEach(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'restmint-init-'))
  })
  afterEach(async () => {
    await rm(cwd, { recursive: true, force: true })
  })
  const readJson = async (path: string) => JSON.parse(await readFile(join(cwd, path), 'utf8')) as Record<string, any>

  it('writes the project into a new directory, says what it wrote and what to run next', async () => {
    // Run from a checkout, init depends on that checkout (relative to the project, as npm writes a path).
    const checkout = `file:${relative(join(cwd, 'My API'), REPO)}`
    const run = await runCli(cwd, 'init', 'My API')
    expect(run.stderr).toBe('')
    expect(run.exitCode).toBe(0)
    expect(run.stdout).toBe(
      `Created a restmint project in My API/ (restmint ${checkout}):\n` +
        [...FILES]
          .sort()
          .map((file) => `  wrote    My API/${file}\n`)
          .join('') +
        'Next:\n  cd My API\n  npm install\n' +
        '  npm run dev      # serves the API at http://127.0.0.1:3000 and follows every save\n  npm test\n',
    )
    for (const file of FILES) expect(existsSync(join(cwd, 'My API', file)), file).toBe(true)
    const pkg = await readJson('My API/package.json')
    expect(pkg).toMatchObject({ name: 'my-api', type: 'module', dependencies: { restmint: checkout } })
    expect(Object.keys(pkg.scripts)).toEqual(['dev', 'start', 'test', 'check'])
    // exec: npm's SIGTERM reaches the server itself, not only the shell npm runs the script in.
    expect(pkg.scripts).toMatchObject({ dev: 'exec restmint dev', start: 'exec restmint serve --migrate' })
    expect(await readFile(join(cwd, 'My API/.gitignore'), 'utf8')).toMatch(/^data\/$/m)

    // The starter manifest is valid, app module included.
    const validate = await runCli(join(cwd, 'My API'), 'validate')
    expect(validate.stderr).toBe('')
    expect(validate.exitCode).toBe(0)
  })

  it('depends on --from: a tarball path as a file: spec relative to the project, a git URL as given', async () => {
    await writeFile(join(cwd, 'restmint-9.9.9.tgz'), '')
    expect((await runCli(cwd, 'init', 'a', '--from', 'restmint-9.9.9.tgz')).exitCode).toBe(0)
    expect((await readJson('a/package.json')).dependencies).toEqual({ restmint: 'file:../restmint-9.9.9.tgz' })
    // A tarball kept inside the project: the project installs wherever it is cloned.
    await mkdir(join(cwd, 'c/vendor'), { recursive: true })
    await writeFile(join(cwd, 'c/vendor/restmint-9.9.9.tgz'), '')
    expect((await runCli(cwd, 'init', 'c', '--force', '--from', 'c/vendor/restmint-9.9.9.tgz')).exitCode).toBe(0)
    expect((await readJson('c/package.json')).dependencies).toEqual({ restmint: 'file:./vendor/restmint-9.9.9.tgz' })
    const url = 'git+https://example.com/restmint.git#v0.1.0'
    expect((await runCli(cwd, 'init', 'b', '--from', url)).exitCode).toBe(0)
    expect((await readJson('b/package.json')).dependencies).toEqual({ restmint: url })
  })

  it('refuses a directory that is not empty, unless --force, which keeps other files', async () => {
    await mkdir(join(cwd, 'api'))
    await writeFile(join(cwd, 'api/notes.txt'), 'mine\n')
    const refused = await runCli(cwd, 'init', 'api')
    expect(refused.exitCode).toBe(1)
    expect(refused.stderr).toBe(
      'restmint: api is not empty (notes.txt); restmint init writes into a new or empty directory: give another ' +
        "one (restmint init my-api), or pass --force to write the project's files over what is there (other files " +
        'stay). Nothing was written.\n',
    )
    expect(existsSync(join(cwd, 'api/package.json'))).toBe(false)

    const forced = await runCli(cwd, 'init', 'api', '--force')
    expect(forced.exitCode).toBe(0)
    expect(existsSync(join(cwd, 'api/package.json'))).toBe(true)
    expect(await readFile(join(cwd, 'api/notes.txt'), 'utf8')).toBe('mine\n')
  })

  it("--force over a package.json keeps what it says and adds the scaffold's scripts and dependencies", async () => {
    await mkdir(join(cwd, 'api'))
    const existing = {
      name: 'existing',
      version: '2.3.4',
      type: 'commonjs',
      scripts: { lint: 'eslint .', test: 'node --test' },
      dependencies: { lodash: '^4.17.21' },
      devDependencies: { restmint: 'file:../old.tgz', eslint: '^9' },
    }
    await writeFile(join(cwd, 'api/package.json'), JSON.stringify(existing))
    const forced = await runCli(cwd, 'init', 'api', '--force', '--from', 'git+https://example.com/restmint.git')
    expect(forced.stderr).toBe('')
    const pkg = await readJson('api/package.json')
    expect(pkg).toMatchObject({
      name: 'existing',
      version: '2.3.4',
      type: 'module',
      scripts: { lint: 'eslint .', dev: 'exec restmint dev', test: 'restmint generate && vitest run' },
      dependencies: { lodash: '^4.17.21', restmint: 'git+https://example.com/restmint.git' },
    })
    // One spec of restmint, where the scaffold puts it (npm would install the dependencies' one).
    expect(pkg.devDependencies.restmint).toBeUndefined()
    expect(pkg.devDependencies.eslint).toBe('^9')

    await writeFile(join(cwd, 'api/package.json'), 'null')
    const notObject = await runCli(cwd, 'init', 'api', '--force')
    expect(notObject.exitCode).toBe(1)
    expect(notObject.stderr).toMatch(/^restmint: package\.json holds no JSON object/)

    await writeFile(join(cwd, 'api/package.json'), '{ not json')
    const refused = await runCli(cwd, 'init', 'api', '--force')
    expect(refused.exitCode).toBe(1)
    expect(refused.stderr).toMatch(/^restmint: package\.json is not valid JSON \(.*\); fix it or move it away/)
    expect(await readFile(join(cwd, 'api/package.json'), 'utf8')).toBe('{ not json')
  })
})
