import type { FastifyRequest } from 'fastify'
import ipaddr from 'ipaddr.js'

/** The IPv6 prefix length rate limits count as one client when the manifest gives none (`limits.rate.ipv6_prefix`). */
export const DEFAULT_IPV6_PREFIX_LENGTH = 64

/**
 * The address rate limits count a request against, in one canonical form
 * (ipaddr.js): `203.0.113.7`, or an IPv6 network such as `2001:db8:1:2::/64`.
 *
 * - It is the address `trust_proxy` picks (`request.ip`), unless that is not an
 *   IP address (a proxy forwarded garbage): then the socket's, so a client
 *   cannot become a new one per request by writing nonsense.
 * - One IPv6 address written any way (upper case, zeros, `::` elsewhere, in
 *   brackets) is one client; an IPv4-mapped IPv6 address is its IPv4 one.
 * - IPv6 counts by network (`ipv6PrefixLength`, /64 by default): one host
 *   commonly holds a whole /64, and rotating through it would otherwise
 *   give it a fresh budget per address.
 */
export function clientAddressOf(request: FastifyRequest, ipv6PrefixLength: number): string {
  const address = parseAddress(request.ip) ?? parseAddress(request.socket.remoteAddress)
  if (address === null) return 'unknown'
  if (address.kind() === 'ipv4') return address.toString()
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${ipv6PrefixLength}`)
  return `${network.toRFC5952String()}/${ipv6PrefixLength}`
}

/** An IP address as proxies write them (`[v6]`, `[v6]:port`, `v4:port` too), or null; IPv4 in four-part decimal only. */
function parseAddress(text: string | undefined): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (text === undefined) return null
  const host = /^\[([^\]]+)\](?::\d+)?$/.exec(text)?.[1] ?? /^([\d.]+):\d+$/.exec(text)?.[1] ?? text
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return ipaddr.IPv4.parse(host)
  if (!ipaddr.IPv6.isValid(host)) return null
  const address = ipaddr.IPv6.parse(host)
  return address.isIPv4MappedAddress() ? address.toIPv4Address() : address
}
