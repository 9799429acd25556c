// The CLI as a process of its own, run from source by spawn-cli.ts.
import { main } from '../../generator/cli/main.js'

process.exitCode = await main(process.argv)
