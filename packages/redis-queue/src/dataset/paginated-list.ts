/** Crawlee's `PaginatedList` shape. */
export interface Page<T> {
  total: number;
  count: number;
  offset: number;
  limit: number;
  desc?: boolean;
  items: T[];
}

/**
 * A promise of the first page that is also an async iterable over every item from `offset` up to `limit` (or the
 * end), fetched page by page: the hybrid Crawlee 3.18's MemoryStorage `listItems` returns.
 *
 * @param getPage - reads `limit` items from `offset`
 * @param options - offset (default 0) and limit (default: all)
 * @returns the hybrid
 */
export function paginatedList<T>(
  getPage: (offset: number, limit: number) => Promise<Page<T>>,
  options: { offset?: number; limit?: number },
): AsyncIterable<T> & Promise<Page<T>> {
  const offset = options.offset ?? 0;
  const first = getPage(offset, options.limit ?? Infinity);
  async function* iterate(): AsyncGenerator<T> {
    let page = await first;
    yield* page.items;
    let next = offset + page.items.length;
    let remaining = Math.min(page.total - offset, options.limit ?? page.total) - page.items.length;
    while (page.items.length > 0 && remaining > 0) {
      page = await getPage(next, remaining);
      yield* page.items;
      next += page.items.length;
      remaining -= page.items.length;
    }
  }
  return Object.defineProperty(first, Symbol.asyncIterator, { value: iterate }) as AsyncIterable<T> & Promise<Page<T>>;
}
