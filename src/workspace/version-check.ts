/** Compares the installed hub with the latest release on the npm registry and on the code host. */

export type FetchLike = (
  url: string,
  init?: { signal?: AbortSignal; headers?: Record<string, string> },
) => Promise<{
  ok: boolean;
  status: number;
  text(): Promise<string>;
}>;

export type VersionStatus = 'up_to_date' | 'update_available' | 'ahead' | 'unknown';

export interface VersionSource {
  source: 'npm' | 'code_host';
  url: string;
  status: 'ok' | 'error' | 'skipped';
  latest: string | null;
  error?: string;
  release_url?: string;
}

export interface VersionCheckResult {
  name: string;
  installed: string;
  latest: string | null;
  status: VersionStatus;
  /** Why the status is unknown (offline, every source failed). */
  reason?: string;
  sources: VersionSource[];
  /** Release notes of the latest code-host release (include_notes only; null when none were found). */
  notes?: string | null;
  checked_at: string;
}

export interface VersionCheckOptions {
  name: string;
  installed: string;
  /** Registry base URL; `<registry>/<name>/latest` is fetched. */
  npmRegistry: string;
  /** A GitHub-style "latest release" URL (`tag_name`, `html_url`, `body`); undefined skips the code host. */
  releasesUrl?: string;
  offline: boolean;
  timeoutMs: number;
  includeNotes: boolean;
  fetch: FetchLike;
  now: Date;
}

/** Longest response body read from a source; a release feed is a few KB. */
const MAX_BODY = 1_000_000;
const MAX_NOTES = 4000;

const VERSION_RE = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/** Parses `1.2.3`, `v1.2.3-rc.1`; undefined for anything else. */
export function parseVersion(v: string): { core: number[]; pre: string[] } | undefined {
  const m = VERSION_RE.exec(v.trim());
  if (!m) return undefined;
  return { core: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ? m[4].split('.') : [] };
}

/** Semantic-version order (prereleases sort before their release); NaN when either side does not parse. */
export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a);
  const y = parseVersion(b);
  if (!x || !y) return Number.NaN;
  for (let i = 0; i < 3; i++) if (x.core[i] !== y.core[i]) return x.core[i]! - y.core[i]!;
  if (x.pre.length === 0 || y.pre.length === 0) return y.pre.length - x.pre.length;
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i];
    const q = y.pre[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    if (p === q) continue;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn) return Number(p) - Number(q);
    if (pn !== qn) return pn ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return 0;
}

function describeFailure(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const cause = e?.cause?.code ?? e?.cause?.message;
  return `${e?.message ?? String(err)}${cause ? ` (${cause})` : ''}`;
}

async function fetchJson(opts: VersionCheckOptions, url: string, accept: string): Promise<unknown> {
  const res = await opts.fetch(url, {
    signal: AbortSignal.timeout(opts.timeoutMs),
    headers: { accept, 'user-agent': `${opts.name}/${opts.installed}` },
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const text = await res.text();
  if (text.length > MAX_BODY) throw new Error(`response larger than ${MAX_BODY} bytes`);
  return JSON.parse(text) as unknown;
}

async function fromNpm(opts: VersionCheckOptions): Promise<VersionSource> {
  const url = `${opts.npmRegistry.replace(/\/+$/, '')}/${opts.name}/latest`;
  try {
    const body = (await fetchJson(opts, url, 'application/json')) as { version?: unknown };
    const v = typeof body?.version === 'string' ? body.version : undefined;
    if (!v || !parseVersion(v)) throw new Error('the answer has no valid "version"');
    return { source: 'npm', url, status: 'ok', latest: v };
  } catch (err) {
    return { source: 'npm', url, status: 'error', latest: null, error: describeFailure(err, opts.timeoutMs) };
  }
}

async function fromCodeHost(
  opts: VersionCheckOptions,
  url: string,
): Promise<{ source: VersionSource; notes: string | null }> {
  try {
    const body = (await fetchJson(opts, url, 'application/vnd.github+json')) as {
      tag_name?: unknown;
      html_url?: unknown;
      body?: unknown;
    };
    const tag = typeof body?.tag_name === 'string' ? body.tag_name.replace(/^v/, '') : undefined;
    if (!tag || !parseVersion(tag)) throw new Error('the answer has no valid "tag_name"');
    const notes = typeof body.body === 'string' ? body.body.slice(0, MAX_NOTES) : null;
    return {
      source: {
        source: 'code_host',
        url,
        status: 'ok',
        latest: tag,
        ...(typeof body.html_url === 'string' ? { release_url: body.html_url } : {}),
      },
      notes,
    };
  } catch (err) {
    return {
      source: {
        source: 'code_host',
        url,
        status: 'error',
        latest: null,
        error: describeFailure(err, opts.timeoutMs),
      },
      notes: null,
    };
  }
}

/**
 * Asks both sources in parallel, each bounded by `timeoutMs`; never throws. Without an answer (offline, every
 * source failed) the status is `unknown` with the reason, so callers exit 0 and an agent never waits long.
 */
export async function checkVersion(opts: VersionCheckOptions): Promise<VersionCheckResult> {
  const base = { name: opts.name, installed: opts.installed, checked_at: opts.now.toISOString() };
  const npmUrl = `${opts.npmRegistry.replace(/\/+$/, '')}/${opts.name}/latest`;
  if (opts.offline) {
    const skipped = (source: 'npm' | 'code_host', url: string): VersionSource => ({
      source,
      url,
      status: 'skipped',
      latest: null,
    });
    return {
      ...base,
      latest: null,
      status: 'unknown',
      reason: 'offline: HUB_OFFLINE=1 skips the network',
      sources: [
        skipped('npm', npmUrl),
        ...(opts.releasesUrl ? [skipped('code_host', opts.releasesUrl)] : []),
      ],
      ...(opts.includeNotes ? { notes: null } : {}),
    };
  }
  const [npm, host] = await Promise.all([
    fromNpm(opts),
    opts.releasesUrl ? fromCodeHost(opts, opts.releasesUrl) : Promise.resolve(undefined),
  ]);
  const sources = [npm, ...(host ? [host.source] : [])];
  const found = sources.flatMap((s) => (s.latest ? [s.latest] : []));
  const notes = opts.includeNotes ? { notes: host?.notes ?? null } : {};
  if (found.length === 0) {
    const reason = sources.map((s) => `${s.source}: ${s.error ?? s.status}`).join('; ');
    return { ...base, latest: null, status: 'unknown', reason, sources, ...notes };
  }
  const latest = found.reduce((a, b) => (compareVersions(b, a) > 0 ? b : a));
  const cmp = compareVersions(opts.installed, latest);
  const status: VersionStatus = Number.isNaN(cmp)
    ? 'unknown'
    : cmp < 0
      ? 'update_available'
      : cmp > 0
        ? 'ahead'
        : 'up_to_date';
  return {
    ...base,
    latest,
    status,
    ...(status === 'unknown'
      ? { reason: `installed version '${opts.installed}' is not a semantic version` }
      : {}),
    sources,
    ...notes,
  };
}
