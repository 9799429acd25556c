// The CLI as a process of its own: compiled by build-test-cli.ts, started by spawn-cli.ts.
import { main } from '../../generator/cli/main.js'

process.exitCode = await main(process.argv)
