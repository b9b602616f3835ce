import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { notifyUnauthorized } from './auth-events';
import { ApiError } from './client';

const MAX_RETRIES = 3;

/** Retry network errors and 5xx up to three times; a 4xx is the request's own fault and is never retried. */
export function shouldRetry(failures: number, error: unknown): boolean {
  if (error instanceof ApiError && !error.retryable) return false;
  return failures < MAX_RETRIES;
}

/** Exponential backoff: 0.5 s, 1 s, 2 s ... capped at 8 s. */
export function retryDelay(attempt: number): number {
  return Math.min(500 * 2 ** attempt, 8000);
}

/** A 401 from any call means the server wants a token: the shell then shows its prompt. */
function onError(error: unknown): void {
  if (error instanceof ApiError && error.status === 401) notifyUnauthorized();
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: { retry: shouldRetry, retryDelay, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
