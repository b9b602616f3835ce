// Helpers for per-route hooks: the query key of a GET is its path and query, so two pages asking the same route
// share one cache entry, and invalidating a path prefix refreshes every page that shows it.
import { type UseQueryOptions, useQuery } from '@tanstack/react-query';
import { api, type Query } from './client';

export function routeKey(path: string, query?: Query): readonly unknown[] {
  return query ? [path, query] : [path];
}

/** `useQuery` of one GET route. */
export function useRoute<T>(
  path: string,
  query?: Query,
  options?: Omit<UseQueryOptions<T, Error, T, readonly unknown[]>, 'queryKey' | 'queryFn'>,
) {
  return useQuery<T, Error, T, readonly unknown[]>({
    queryKey: routeKey(path, query),
    queryFn: ({ signal }) => api<T>(path, { query, signal }),
    ...options,
  });
}

/** The largest page a list route gives at once (PAGE_MAX of the server): the fewest requests for a whole list. */
export const LIST_PAGE = 1000;

/**
 * Every item of a paged list route, page after page (`limit`, `offset`, following `next_offset`), returned as one
 * answer of the route's own shape with `key` holding them all. The server's default page is small (100) because
 * agents read it; a page that shows the whole list asks for all of it here.
 */
export async function wholeList<T extends object>(
  path: string,
  key: keyof T & string,
  query: Query | undefined,
  signal?: AbortSignal,
): Promise<T> {
  const items: unknown[] = [];
  let first: T | undefined;
  let offset = 0;
  for (;;) {
    const page = await api<T & { next_offset?: number | null }>(path, {
      query: { ...query, limit: LIST_PAGE, offset },
      signal,
    });
    first ??= page;
    items.push(...((page[key] as unknown[] | undefined) ?? []));
    // A server older than paging answers without next_offset: that answer was the whole list.
    if (typeof page.next_offset !== 'number' || page.next_offset <= offset) break;
    offset = page.next_offset;
  }
  return { ...first, [key]: items, offset: 0, next_offset: null, truncated: false } as T;
}

/** `useQuery` of a whole paged list route, under the route's own query key (invalidating the path refreshes it). */
export function useWholeList<T extends object>(
  path: string,
  key: keyof T & string,
  query?: Query,
  options?: Omit<UseQueryOptions<T, Error, T, readonly unknown[]>, 'queryKey' | 'queryFn'>,
) {
  return useQuery<T, Error, T, readonly unknown[]>({
    queryKey: routeKey(path, query),
    queryFn: ({ signal }) => wholeList<T>(path, key, query, signal),
    ...options,
  });
}
