import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { TYPESCRIPT_PARSER } from './format-source.js'
import type { FormatJob } from './format-worker.js'

const WORKER_URL = new URL('./format-worker.js', import.meta.url)
/** They start before anyone knows how much there is to format: a bound on what a small manifest wastes. */
const MAX_WORKERS = 4

/** The job each worker starts with, answered and ignored: it loads prettier and the parser's plugins. */
const WARM_UP: FormatJob = { id: -1, source: '', parser: TYPESCRIPT_PARSER }

/** Prettier worker threads, one per core (at most MAX_WORKERS). */
export interface FormatWorkers {
  /**
   * Sends `source` at once to the worker with the fewest bytes still to
   * format: workers start on it even while this thread is busy.
   */
  format(source: string, parser: string): Promise<string>
  stop(): Promise<void>
}

interface StartedWorker {
  readonly worker: Worker
  /** Source bytes sent and not yet answered: prettier's cost grows with them. */
  queuedBytes: number
  readonly pending: Map<number, { resolve: (output: string) => void; reject: (error: Error) => void; bytes: number }>
  failure: Error | undefined
}

interface FormatAnswer {
  readonly id: number
  readonly output?: string
  readonly error?: string
}

/**
 * Starts the workers before the pipeline's first stage, so that loading
 * prettier in them (~0.2 s of CPU each) and formatting the first rendered
 * files overlap validating and rendering on this thread rather than following
 * it. Stop them when done, used or not. Null with a single core (formatting in
 * this thread costs the same), and under vitest, where the generator runs from
 * .ts sources a worker cannot load.
 */
export function startFormatWorkers(): FormatWorkers | null {
  const count = Math.min(availableParallelism(), MAX_WORKERS)
  if (count < 2 || import.meta.url.endsWith('.ts')) return null
  const workers = Array.from({ length: count }, () => startWorker())
  let nextId = 0
  return {
    format: (source, parser) => {
      const target = workers.reduce((least, worker) => (worker.queuedBytes < least.queuedBytes ? worker : least))
      if (target.failure) return Promise.reject(target.failure)
      const id = nextId++
      target.queuedBytes += source.length
      return new Promise((resolve, reject) => {
        target.pending.set(id, { resolve, reject, bytes: source.length })
        target.worker.postMessage({ id, source, parser } satisfies FormatJob)
      })
    },
    stop: async () => {
      await Promise.all(workers.map(({ worker }) => worker.terminate()))
    },
  }
}

function startWorker(): StartedWorker {
  const started: StartedWorker = {
    worker: new Worker(WORKER_URL),
    queuedBytes: 0,
    pending: new Map(),
    failure: undefined,
  }
  started.worker.on('message', (answer: FormatAnswer) => {
    const job = started.pending.get(answer.id)
    if (!job) return
    started.pending.delete(answer.id)
    started.queuedBytes -= job.bytes
    if (answer.error !== undefined) job.reject(new Error(`internal error: prettier failed: ${answer.error}`))
    else job.resolve(answer.output!)
  })
  started.worker.on('error', (error) => {
    started.failure = error
    for (const { reject } of started.pending.values()) reject(error)
    started.pending.clear()
  })
  started.worker.postMessage(WARM_UP)
  return started
}
