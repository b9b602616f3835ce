// Server-Sent Events over fetch: EventSource cannot send an Authorization header, so a token-protected server's
// streams are read with fetch, parsed as the EventSource spec says, and resumed after a drop with Last-Event-ID
// (the cursor of the last event received), with backoff. A 401 asks for the token; another 4xx stops for good.
import { useEffect, useRef, useState } from 'react';
import { notifyUnauthorized } from './auth-events';
import { ApiError, apiUrl, authHeaders, type Query } from './client';

export type StreamStatus = 'connecting' | 'open' | 'retrying' | 'closed';

export interface StreamHandlers {
  /** One message: its `id` (the cursor) and its parsed JSON data. */
  onEvent: (data: unknown, id: string | undefined) => void;
  onStatus?: (status: StreamStatus, error?: ApiError) => void;
}

const MAX_BACKOFF_MS = 30_000;

/** Reads one response body as SSE messages until it ends. */
async function readMessages(
  body: ReadableStream<Uint8Array>,
  onMessage: (m: { id?: string; event?: string; data: string }) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  let cur: { id?: string; event?: string; data: string[] } = { data: [] };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += decoder.decode(value, { stream: true });
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl).replace(/\r$/, '');
      buf = buf.slice(nl + 1);
      if (line === '') {
        if (cur.data.length > 0) onMessage({ id: cur.id, event: cur.event, data: cur.data.join('\n') });
        cur = { data: [] };
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const v = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') cur.id = v;
      else if (field === 'event') cur.event = v;
      else if (field === 'data') cur.data.push(v);
    }
  }
}

/**
 * Opens a stream route (e.g. `/v3/ops/events/stream`) and keeps it open: reconnects after a drop or a 5xx with
 * backoff (1 s, 2 s, 4 s ... 30 s), resuming after the last cursor. Returns a function that closes it.
 */
export function openEventStream(
  path: string,
  query: Query | undefined,
  handlers: StreamHandlers,
): () => void {
  const stop = new AbortController();
  let lastId: string | undefined;
  let failures = 0;
  const run = async () => {
    while (!stop.signal.aborted) {
      handlers.onStatus?.(failures === 0 ? 'connecting' : 'retrying');
      let error: ApiError | undefined;
      try {
        const headers = authHeaders({ accept: 'text/event-stream' });
        if (lastId) headers['last-event-id'] = lastId;
        const res = await fetch(apiUrl(path, query), { headers, signal: stop.signal });
        if (!res.ok || !res.body) {
          let body: { error?: { code: string; message: string; details?: Record<string, unknown> } } = {};
          try {
            body = await res.json();
          } catch {
            // Not hub's error body: the status says enough.
          }
          error = new ApiError(res.status, body.error ?? { code: 'http', message: `${res.status}` });
          if (res.status === 401) notifyUnauthorized();
          if (!error.retryable) {
            handlers.onStatus?.('closed', error);
            return;
          }
        } else {
          failures = 0;
          handlers.onStatus?.('open');
          await readMessages(res.body, (m) => {
            if (m.id) lastId = m.id;
            if (m.event && m.event !== 'message') return;
            let data: unknown = m.data;
            try {
              data = JSON.parse(m.data);
            } catch {
              // Kept as text.
            }
            handlers.onEvent(data, m.id);
          });
        }
      } catch (err) {
        if (stop.signal.aborted) return;
        error = new ApiError(0, { code: 'network', message: (err as Error).message });
      }
      if (stop.signal.aborted) return;
      failures++;
      handlers.onStatus?.('retrying', error);
      const wait = Math.min(1000 * 2 ** (failures - 1), MAX_BACKOFF_MS);
      await new Promise((r) => setTimeout(r, wait));
    }
  };
  void run();
  return () => {
    stop.abort();
    handlers.onStatus?.('closed');
  };
}

/**
 * A stream for a component's lifetime (while `enabled`); `onEvent` may change between renders without
 * reopening the stream. Returns the stream's status, so a page can fall back to polling when it is not `open`.
 */
export function useEventStream(
  path: string,
  opts: { query?: Query; enabled?: boolean; onEvent: (data: unknown, id: string | undefined) => void },
): { status: StreamStatus; error?: ApiError } {
  const [state, setState] = useState<{ status: StreamStatus; error?: ApiError }>({ status: 'closed' });
  const onEvent = useRef(opts.onEvent);
  onEvent.current = opts.onEvent;
  const enabled = opts.enabled ?? true;
  const queryKey = JSON.stringify(opts.query ?? {});
  useEffect(() => {
    if (!enabled) return;
    const close = openEventStream(path, JSON.parse(queryKey) as Query, {
      onEvent: (d, id) => onEvent.current(d, id),
      onStatus: (status, error) => setState({ status, error }),
    });
    return close;
  }, [path, queryKey, enabled]);
  return state;
}
