export interface PageLinks {
  self: string
  first: string
  prev: string | null
  next: string | null
  last: string | null
}

/**
 * Links of an offset page as absolute-path references (`/v1/authors?page=2`)
 * to `path` (the route's, see routePath), keeping every other query parameter
 * of the request's `search`, so they work behind any host or proxy. With the
 * number of pages, `last` leads to the last one; without (no exact count),
 * `last` is null and `next` is there when the page found a row past its end.
 */
export function buildPageLinks(
  path: string,
  search: string,
  page: number,
  perPage: number,
  pages: number | { readonly hasNext: boolean },
): PageLinks {
  // Parsed once: `set` replaces `page` where it stands, so every link keeps the parameters' order.
  const params = new URLSearchParams(search)
  params.set('page', String(page))
  params.set('per_page', String(perPage))
  const at = (target: number): string => {
    params.set('page', String(target))
    return `${path}?${params.toString()}`
  }
  if (typeof pages !== 'number') {
    return {
      self: at(page),
      first: at(1),
      prev: page > 1 ? at(page - 1) : null,
      next: pages.hasNext ? at(page + 1) : null,
      last: null,
    }
  }
  const lastPage = Math.max(pages, 1)
  return {
    self: at(page),
    first: at(1),
    prev: page > 1 ? at(Math.min(page - 1, lastPage)) : null,
    next: page < lastPage ? at(page + 1) : null,
    last: at(lastPage),
  }
}

/** Links of a cursor page: `next` continues from `next_cursor`; cursor pages have no `prev` or `last`. */
export function buildCursorLinks(path: string, search: string, nextCursor: string | null): PageLinks {
  const withCursor = (cursor: string | null): string => {
    const params = new URLSearchParams(search)
    if (cursor === null) params.delete('cursor')
    else params.set('cursor', cursor)
    const query = params.toString()
    return query ? `${path}?${query}` : path
  }
  return {
    self: search ? `${path}?${search}` : path,
    first: withCursor(null),
    prev: null,
    next: nextCursor === null ? null : withCursor(nextCursor),
    last: null,
  }
}
