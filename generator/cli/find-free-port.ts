import { createServer } from 'node:net'

/** A port that nothing listens on at `host` now, as the system picks one for port 0. */
export function findFreePort(host: string): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer()
    server.once('error', fail)
    server.listen(0, host, () => {
      const address = server.address()
      server.close(() => done(typeof address === 'object' && address !== null ? address.port : 0))
    })
  })
}
