// The CLI as a process of its own, run from source by spawnCli.
import { main } from '../../generator/cli/main.js'

process.exitCode = await main(process.argv)
