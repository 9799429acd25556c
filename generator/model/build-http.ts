import type { Manifest } from '../manifest/manifest.js'
import type { HttpModel } from './api-model.js'

/**
 * Request headers a browser may send cross-origin besides the CORS-safelisted
 * ones: credentials, JSON bodies, and conditional requests.
 */
const CORS_REQUEST_HEADERS = ['Authorization', 'Content-Type', 'If-Match', 'If-None-Match']

/** The manifest's `http:`, validated (HTTP_TRUST_PROXY, HTTP_CORS_ORIGIN). */
export function buildHttp(manifest: Manifest): HttpModel {
  const { trust_proxy: trustProxy, cors } = manifest.http ?? {}
  return {
    trustProxy: trustProxy ?? null,
    cors: cors
      ? { origins: cors.origins, maxAgeSeconds: cors.max_age ?? null, allowedHeaders: CORS_REQUEST_HEADERS }
      : null,
  }
}
