import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorBanner } from './error-banner';
import { Loading } from './loading';

/** Renders a query's loading state, its error (with Retry), or `children(data)`. */
export function QueryState<T>({
  query,
  children,
  label,
}: {
  query: UseQueryResult<T, Error>;
  children: (data: T) => ReactNode;
  label?: string;
}) {
  if (query.isPending) return <Loading label={label} />;
  if (query.isError) return <ErrorBanner error={query.error} onRetry={() => void query.refetch()} />;
  return <>{children(query.data)}</>;
}
