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
