import { Agent, setGlobalDispatcher } from 'undici'

/**
 * fetch in tests opens a connection per request and closes it after the
 * answer (undici's `pipelining: 0`), instead of keeping it alive: a served
 * CLI that is stopped then has no idle keep-alive connection to give its
 * one-second drain grace (runtime/ops/drain-on-close.ts), which every stop of
 * a server a test had fetched from otherwise waited out.
 */
setGlobalDispatcher(new Agent({ pipelining: 0 }))
