import { parentPort } from 'node:worker_threads'
import { formatSource } from './format-source.js'

/** One prettier job: answers `{ id, output }` or `{ id, error }`. */
export interface FormatJob {
  readonly id: number
  readonly source: string
  readonly parser: string
}

parentPort?.on('message', (job: FormatJob) => {
  formatSource(job.source, job.parser).then(
    (output) => parentPort?.postMessage({ id: job.id, output }),
    (error: unknown) => parentPort?.postMessage({ id: job.id, error: String(error) }),
  )
})
