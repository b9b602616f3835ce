// The live coordination events feed shared by the Agents page and the Workspace Console: the history once
// (GET /v3/ops/events), then the server's push (Server-Sent Events on GET /v3/ops/events/stream), resumed after the
// last event id it sent. The stream is read with fetch, not EventSource, because EventSource cannot send the
// Bearer header a token-protected server needs. When the stream fails the feed polls GET /v3/ops/events?since= at
// the pages' polling frequency and tries the stream again with backoff (never again after a 404/405: the server
// has no stream route). Module-level, so switching pages keeps the history and the position.
import { notifyUnauthorized } from './auth-events';
import { ApiError, api, apiUrl, authHeaders } from './client';

/** One row of the events feed (docs/coordination.md, Events feed). */
export interface CoordEvent {
  id: string;
  timestamp: string;
  source: string;
  kind: string;
  subject?: string;
  data?: Record<string, unknown>;
}

export interface EventsPage {
  ok: boolean;
  since: string | null;
  next_cursor: string | null;
  events: CoordEvent[];
}

/** off: nobody wants live updates; connecting: opening the stream; streaming: pushed; polling: the fallback. */
export type LiveMode = 'off' | 'connecting' | 'streaming' | 'polling';

export interface LiveSnapshot {
  mode: LiveMode;
  /** Events held, oldest first (the newest MAX_EVENTS). */
  events: readonly CoordEvent[];
  /** The history has been read once. */
  loaded: boolean;
  /** The last failure of a history read or a poll (cleared by the next success). */
  error?: Error;
  /** Why the stream is not used, when polling. */
  streamProblem?: string;
  /** When the feed last heard from the server (ms since epoch). */
  updatedAt?: number;
}

export interface LiveSubscriber {
  /** This subscriber wants live updates (stream, else polling). */
  live: boolean;
  /** Polling period of the fallback, in ms. */
  intervalMs: number;
  /** New events (never the history), in arrival order. */
  onEvents?: (events: CoordEvent[]) => void;
}

export const STREAM_PATH = '/v3/ops/events/stream';
export const EVENTS_PATH = '/v3/ops/events';
/** Events kept in the browser; older ones drop off the feed (the CLI and the route still have them all). */
export const MAX_EVENTS = 5000;
const RETRY_MIN_MS = 2000;
const RETRY_MAX_MS = 60_000;

interface SseMessage {
  id?: string;
  event: string;
  data: string;
}

/** Splits Server-Sent Events text into messages (WHATWG rules: fields id, event, data; `:` comments ignored). */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | undefined;

  push(chunk: string): SseMessage[] {
    this.buffer += chunk;
    const out: SseMessage[] = [];
    let nl = this.buffer.search(/\r\n|\r|\n/);
    while (nl >= 0) {
      const line = this.buffer.slice(0, nl);
      const len = this.buffer.startsWith('\r\n', nl) ? 2 : 1;
      this.buffer = this.buffer.slice(nl + len);
      if (line === '') {
        if (this.data.length > 0)
          out.push({ id: this.id, event: this.event || 'message', data: this.data.join('\n') });
        this.data = [];
        this.event = '';
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'data') this.data.push(value);
        else if (field === 'event') this.event = value;
        else if (field === 'id' && !value.includes('\0')) this.id = value;
      }
      nl = this.buffer.search(/\r\n|\r|\n/);
    }
    return out;
  }
}

function isEvent(v: unknown): v is CoordEvent {
  const e = v as CoordEvent | null;
  return typeof e === 'object' && e !== null && typeof e.id === 'string' && typeof e.kind === 'string';
}

class LiveFeed {
  private subs = new Set<LiveSubscriber>();
  private listeners = new Set<() => void>();
  private snap: LiveSnapshot = { mode: 'off', events: [], loaded: false };
  private seen = new Set<string>();
  /** Newest timestamp seen: `since` of the next poll. */
  private since: string | undefined;
  /** The id of the last event the stream sent: Last-Event-ID of the next connection. */
  private lastId: string | undefined;
  private loading = false;
  private stream: AbortController | undefined;
  private pollTimer: ReturnType<typeof setInterval> | undefined;
  private pollEvery = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private retryDelay = RETRY_MIN_MS;
  private streamMissing = false;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): LiveSnapshot => this.snap;

  register(sub: LiveSubscriber): () => void {
    this.subs.add(sub);
    this.reconcile();
    return () => {
      this.subs.delete(sub);
      this.reconcile();
    };
  }

  /** A subscriber changed `live` or `intervalMs`. */
  changed(): void {
    this.reconcile();
  }

  /** One incremental read now (Refresh now), whatever the mode. */
  async refresh(): Promise<void> {
    if (!this.snap.loaded) return this.loadHistory();
    await this.poll();
  }

  private set(patch: Partial<LiveSnapshot>): void {
    this.snap = { ...this.snap, ...patch };
    for (const l of this.listeners) l();
  }

  private wanted(): boolean {
    for (const s of this.subs) if (s.live) return true;
    return false;
  }

  private interval(): number {
    let ms = Number.POSITIVE_INFINITY;
    for (const s of this.subs) if (s.live) ms = Math.min(ms, s.intervalMs);
    return Number.isFinite(ms) ? ms : 90_000;
  }

  /** Brings connections and timers in line with what the subscribers want. */
  private reconcile(): void {
    if (this.subs.size > 0 && !this.snap.loaded && !this.loading) {
      void this.loadHistory();
      return;
    }
    if (!this.wanted()) {
      this.closeStream();
      this.stopPolling();
      this.clearRetry();
      if (this.snap.mode !== 'off') this.set({ mode: 'off' });
      return;
    }
    if (!this.snap.loaded) return;
    if (this.snap.mode === 'off') {
      if (this.streamMissing) this.startPolling();
      else void this.openStream();
    } else if (this.snap.mode === 'polling') {
      this.startPolling();
    }
  }

  private async loadHistory(): Promise<void> {
    this.loading = true;
    try {
      const page = await api<EventsPage>(EVENTS_PATH);
      this.add(page.events, false);
      if (page.next_cursor && (!this.since || page.next_cursor > this.since)) this.since = page.next_cursor;
      this.set({ loaded: true, error: undefined, updatedAt: Date.now() });
    } catch (err) {
      this.set({ error: err as Error });
      this.loading = false;
      if (err instanceof ApiError && err.status === 401) notifyUnauthorized();
      return;
    }
    this.loading = false;
    this.reconcile();
  }

  private add(events: readonly CoordEvent[], notify: boolean): void {
    const fresh: CoordEvent[] = [];
    for (const e of events) {
      if (!isEvent(e) || this.seen.has(e.id)) continue;
      this.seen.add(e.id);
      fresh.push(e);
      if (!this.since || e.timestamp > this.since) this.since = e.timestamp;
    }
    if (fresh.length === 0) return;
    let all = [...this.snap.events, ...fresh];
    if (all.length > MAX_EVENTS) {
      const dropped = all.slice(0, all.length - MAX_EVENTS);
      for (const e of dropped) this.seen.delete(e.id);
      all = all.slice(all.length - MAX_EVENTS);
    }
    this.set({ events: all, updatedAt: Date.now() });
    if (notify) for (const s of this.subs) s.onEvents?.(fresh);
  }

  private async openStream(): Promise<void> {
    this.clearRetry();
    const ctrl = new AbortController();
    this.stream = ctrl;
    this.set({ mode: 'connecting' });
    const headers = authHeaders({ accept: 'text/event-stream' });
    if (this.lastId) headers['last-event-id'] = this.lastId;
    const query = this.lastId ? undefined : { since: this.since };
    let res: Response;
    try {
      res = await fetch(apiUrl(STREAM_PATH, query), { headers, signal: ctrl.signal, cache: 'no-store' });
    } catch (err) {
      if (ctrl.signal.aborted) return;
      return this.fallBack(`the event stream is not reachable (${(err as Error).message})`);
    }
    if (ctrl.signal.aborted) return;
    if (res.status === 401) {
      ctrl.abort();
      notifyUnauthorized();
      return this.fallBack('the server asks for a token');
    }
    if (!res.ok || !res.body || !(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
      ctrl.abort();
      if (res.status === 404 || res.status === 405 || res.status === 501) this.streamMissing = true;
      return this.fallBack(`the event stream answered ${res.status}`);
    }
    this.stopPolling();
    this.retryDelay = RETRY_MIN_MS;
    this.set({ mode: 'streaming', streamProblem: undefined, error: undefined, updatedAt: Date.now() });
    const parser = new SseParser();
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const batch: CoordEvent[] = [];
        for (const m of parser.push(value)) {
          if (m.id !== undefined) this.lastId = m.id;
          if (m.event === 'error') continue;
          try {
            const parsed: unknown = JSON.parse(m.data);
            if (isEvent(parsed)) batch.push(parsed);
          } catch {
            // A message that is not an event (a heartbeat with data) carries nothing to show.
          }
        }
        if (batch.length > 0) this.add(batch, true);
        else this.set({ updatedAt: Date.now() });
      }
    } catch {
      // Read failure: handled below like an end of stream.
    }
    if (ctrl.signal.aborted) return;
    this.fallBack('the event stream closed');
  }

  private fallBack(problem: string): void {
    this.stream = undefined;
    if (!this.wanted()) {
      this.set({ mode: 'off' });
      return;
    }
    this.set({ mode: 'polling', streamProblem: problem });
    this.startPolling();
    // Poll once now so nothing waits a whole period, then try the stream again later (unless it does not exist).
    void this.poll();
    if (!this.streamMissing) {
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        if (this.wanted()) void this.openStream();
      }, this.retryDelay);
      this.retryDelay = Math.min(this.retryDelay * 2, RETRY_MAX_MS);
    }
  }

  private async poll(): Promise<void> {
    try {
      const page = await api<EventsPage>(EVENTS_PATH, { query: { since: this.since } });
      this.add(page.events, true);
      if (page.next_cursor && (!this.since || page.next_cursor > this.since)) this.since = page.next_cursor;
      this.set({ error: undefined, updatedAt: Date.now() });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) notifyUnauthorized();
      this.set({ error: err as Error });
    }
  }

  private startPolling(): void {
    const every = this.interval();
    if (this.pollTimer && this.pollEvery === every) return;
    this.stopPolling();
    this.pollEvery = every;
    this.pollTimer = setInterval(() => void this.poll(), every);
  }

  private stopPolling(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  private closeStream(): void {
    this.stream?.abort();
    this.stream = undefined;
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }
}

/** The one feed of this tab. */
export const liveFeed = new LiveFeed();
