// A real Server-Sent Events client for tests: fetch with a streamed body, parsed as the EventSource spec says
// (id, event, data fields; comment lines; blank line ends a message). What a browser's EventSource does, minus
// the reconnect, which tests do by hand with Last-Event-ID.

export interface SseMessage {
  id?: string;
  event?: string;
  data: string;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** Resolves with the next message (comments skipped); rejects after `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseMessage>;
  /** Comment lines seen so far (`: heartbeat`). */
  comments: string[];
  /** The `retry:` value, once seen. */
  retry?: number;
  /** Aborts the request (the client goes away). */
  close(): void;
  /** The body of a non-SSE answer (an error). */
  text?: string;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const abort = new AbortController();
  const res = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const queue: SseMessage[] = [];
  const waiters: Array<(m: SseMessage) => void> = [];
  const stream: SseStream = {
    status: res.status,
    headers: res.headers,
    comments: [],
    close: () => abort.abort(),
    next(timeoutMs = 10_000) {
      const m = queue.shift();
      if (m) return Promise.resolve(m);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no SSE message within ${timeoutMs} ms`)), timeoutMs);
        waiters.push((msg) => {
          clearTimeout(timer);
          resolve(msg);
        });
      });
    },
  };
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    stream.text = await res.text();
    return stream;
  }
  const deliver = (m: SseMessage) => {
    const w = waiters.shift();
    if (w) w(m);
    else queue.push(m);
  };
  void (async () => {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    let cur: { id?: string; event?: string; data: string[] } = { data: [] };
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buf += value;
        let nl = buf.indexOf('\n');
        while (nl >= 0) {
          const line = buf.slice(0, nl).replace(/\r$/, '');
          buf = buf.slice(nl + 1);
          if (line === '') {
            if (cur.data.length > 0 || cur.id !== undefined)
              deliver({ id: cur.id, event: cur.event, data: cur.data.join('\n') });
            cur = { data: [] };
          } else if (line.startsWith(':')) stream.comments.push(line.slice(1).trim());
          else {
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'id') cur.id = value;
            else if (field === 'event') cur.event = value;
            else if (field === 'data') cur.data.push(value);
            else if (field === 'retry') stream.retry = Number(value);
          }
          nl = buf.indexOf('\n');
        }
      }
    } catch {
      // Aborted by close(): the stream simply ends.
    }
  })();
  return stream;
}
