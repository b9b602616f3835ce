// The live coordination events feed shared by the Agents page and the Workspace Console: the history once
// (GET /v3/ops/events), then the server's push (Server-Sent Events on GET /v3/ops/events/stream, read by the
// shell's openEventStream: fetch with the Bearer header, resumed after the last event id with Last-Event-ID,
// backoff). While the stream is not open the feed polls GET /v3/ops/events?since= at the pages' polling frequency;
// a stream refused for good (a 4xx other than 401) leaves it polling. Module-level, so switching pages keeps the
// history and the position.
import { notifyUnauthorized } from './auth-events';
import { ApiError, api } from './client';
import { openEventStream, type StreamStatus } from './event-stream';

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
/** New events are handed to subscribers in batches, so a burst invalidates each route once. */
const BATCH_MS = 100;

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
  private loading = false;
  private closeStream: (() => void) | undefined;
  private pollTimer: ReturnType<typeof setInterval> | undefined;
  private pollEvery = 0;
  /** The server refused the stream for good (no such route, or a 4xx): polling only. */
  private streamRefused = false;
  private pending: CoordEvent[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | undefined;

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
      this.stopStream();
      this.stopPolling();
      if (this.snap.mode !== 'off') this.set({ mode: 'off' });
      return;
    }
    if (!this.snap.loaded) return;
    if (this.snap.mode === 'off') {
      if (this.streamRefused) {
        this.set({ mode: 'polling' });
        this.startPolling();
      } else this.openStream();
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
    if (!notify) return;
    this.pending.push(...fresh);
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      const batch = this.pending;
      this.pending = [];
      for (const s of this.subs) s.onEvents?.(batch);
    }, BATCH_MS);
  }

  private openStream(): void {
    this.set({ mode: 'connecting' });
    // Starts after the history (since is exclusive); a reconnection resumes after the last id it received.
    this.closeStream = openEventStream(STREAM_PATH, this.since ? { since: this.since } : undefined, {
      onEvent: (data) => {
        if (isEvent(data)) this.add([data], true);
      },
      onStatus: (status, error) => this.onStreamStatus(status, error),
    });
  }

  private onStreamStatus(status: StreamStatus, error?: ApiError): void {
    if (!this.closeStream) return; // our own close
    if (status === 'open') {
      this.stopPolling();
      this.set({ mode: 'streaming', streamProblem: undefined, updatedAt: Date.now() });
      return;
    }
    if (status === 'connecting') return;
    const wasPolling = this.snap.mode === 'polling';
    // A reconnection attempt after a failure already reported: nothing new to say.
    if (status === 'retrying' && !error && wasPolling) return;
    if (status === 'closed') {
      // Refused for good (a 4xx): the stream is not tried again in this tab.
      this.streamRefused = true;
      this.closeStream = undefined;
    }
    const problem = error
      ? `event stream: ${error.status ? `${error.status} ` : ''}${error.message}`
      : 'event stream closed';
    this.set({ mode: 'polling', streamProblem: problem });
    this.startPolling();
    // Poll once now so nothing waits a whole period for what happened while the stream was down.
    if (!wasPolling) void this.poll();
  }

  private stopStream(): void {
    const close = this.closeStream;
    this.closeStream = undefined;
    close?.();
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
}

/** The one feed of this tab. */
export const liveFeed = new LiveFeed();
