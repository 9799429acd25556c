import { parentPort } from 'node:worker_threads'
import { formatSource } from './format-source.js'

/** One prettier job: answers `{ id, output }` or `{ id, error }`. */
export interface FormatJob {
  readonly id: number
  readonly source: string
  readonly parser: string
}

// One job at a time, in order: jobs arrive faster than they are formatted, and prettier
// working on all of them at once would hold every syntax tree in memory together.
let queue = Promise.resolve()

parentPort?.on('message', (job: FormatJob) => {
  queue = queue.then(() =>
    formatSource(job.source, job.parser).then(
      (output) => parentPort?.postMessage({ id: job.id, output }),
      (error: unknown) => parentPort?.postMessage({ id: job.id, error: String(error) }),
    ),
  )
})
