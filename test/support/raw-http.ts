/**
 * HTTP/1.1 over raw sockets, for tests about connections themselves: what a
 * server does with requests in flight, and whether it still accepts
 * connections, while it shuts down.
 */
import { connect, type Socket } from 'node:net'

/** An open connection: what it has received so far, and a promise of everything once the server closes it. */
export interface Connection {
  readonly socket: Socket
  received(): string
  closed: Promise<string>
}

export async function open(port: number): Promise<Connection> {
  const socket = connect(port, '127.0.0.1')
  await new Promise<void>((connected, fail) => socket.once('connect', connected).once('error', fail))
  let text = ''
  socket.on('data', (chunk: Buffer) => void (text += chunk.toString()))
  const closed = new Promise<string>((done) => socket.on('close', () => done(text)))
  return { socket, received: () => text, closed }
}

export async function waitFor(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((next) => setTimeout(next, 20))
}

/**
 * A POST the server has begun (it answered 100 Continue) and whose body the
 * test holds back: a request in flight, without timing.
 */
export async function beginPost(
  port: number,
  path: string,
  payload: object,
): Promise<{ connection: Connection; sendBody(): void }> {
  const connection = await open(port)
  const body = JSON.stringify(payload)
  connection.socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
  )
  await waitFor(() => connection.received().startsWith('HTTP/1.1 100 Continue\r\n\r\n'))
  return { connection, sendBody: () => void connection.socket.write(body) }
}

/** Whether connecting to `port` is refused: the server no longer accepts connections. */
export function refuses(port: number): Promise<boolean> {
  return new Promise((answer) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      answer(false)
    })
    socket.once('error', (error: NodeJS.ErrnoException) => answer(error.code === 'ECONNREFUSED'))
  })
}

/** The final responses in `text` (interim 100 Continue left out): status, headers, body. */
export function responses(text: string): { status: number; headers: Record<string, string>; body: string }[] {
  const found = []
  let rest = text
  while (rest.length > 0) {
    const headEnd = rest.indexOf('\r\n\r\n')
    const [statusLine = '', ...lines] = rest.slice(0, headEnd).split('\r\n')
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    )
    const length = Number(headers['content-length'] ?? 0)
    const status = Number(statusLine.split(' ')[1])
    if (status !== 100) found.push({ status, headers, body: rest.slice(headEnd + 4, headEnd + 4 + length) })
    rest = rest.slice(headEnd + 4 + length)
  }
  return found
}
