/** The part of autocannon's API the query benchmark uses (the package ships no types). */
declare module 'autocannon' {
  interface Histogram {
    readonly average: number
    readonly mean: number
    readonly p50: number
    readonly p90: number
    readonly p99: number
    readonly max: number
    readonly total: number
  }

  interface Options {
    readonly url: string
    readonly connections?: number
    readonly duration?: number
    readonly pipelining?: number
    readonly headers?: Record<string, string>
  }

  interface Result {
    readonly requests: Histogram
    readonly latency: Histogram
    readonly duration: number
    readonly errors: number
    readonly timeouts: number
    readonly non2xx: number
  }

  function autocannon(options: Options): Promise<Result>
  export default autocannon
}
