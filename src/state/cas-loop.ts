import { StateConflictError } from '../infra/index.js';
import { EMPTY_ETAG } from './etag.js';
import { assertDocument, backoffMs } from './store.js';

const timer = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** How a backend with conditional writes reads, encodes and writes one document for `casLoop`. */
export interface CasPort<E extends { etag: string }> {
  maxAttempts: number;
  read(name: string): Promise<{ value: unknown; etag: string } | undefined>;
  /** The stored form of `value`, with its ETag (computed once, reused by `write`). */
  encode(name: string, value: unknown): E;
  /** Conditional write on `ifMatch` (EMPTY_ETAG: must not exist); throws StateConflictError when it lost. */
  write(name: string, value: unknown, ifMatch: string, encoded: E): Promise<string>;
}

/**
 * Read, apply, conditional write; again after a jittered wait when another writer got in between, so writers on
 * many machines queue instead of failing. An unchanged document is not written.
 */
export async function casLoop<R, E extends { etag: string }>(
  port: CasPort<E>,
  name: string,
  step: (current: unknown) => Promise<{ value: unknown; result: R }>,
): Promise<{ value: unknown; result: R; etag: string }> {
  let last: unknown;
  for (let attempt = 0; attempt < port.maxAttempts; attempt++) {
    if (attempt > 0) await timer(backoffMs(Math.min(attempt, 6)));
    const cur = await port.read(name);
    const { value, result } = await step(cur?.value);
    assertDocument(name, value);
    const next = port.encode(name, value);
    if (cur && next.etag === cur.etag) return { value, result, etag: cur.etag };
    try {
      return { value, result, etag: await port.write(name, value, cur?.etag ?? EMPTY_ETAG, next) };
    } catch (err) {
      if (!(err instanceof StateConflictError)) throw err;
      last = err;
    }
  }
  throw last;
}
