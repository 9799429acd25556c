import { createServer } from 'node:net'

/**
 * A port that nothing listens on at `host` now: `port` itself when it is
 * free (rejects with the listen error otherwise), or one the system picks for 0.
 */
export function findFreePort(host: string, port = 0): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer()
    server.once('error', fail)
    server.listen(port, host, () => {
      const address = server.address()
      server.close(() => done(typeof address === 'object' && address !== null ? address.port : port))
    })
  })
}
