import { normalizeUrl } from './normalize-url.js';
import type { IndexedRepo, OrgIndexFile } from './org-store.js';

export const ORG_SEARCH_DEFAULT_LIMIT = 50;
export const ORG_SEARCH_MAX_LIMIT = 1000;

/** known (named, never indexed), indexed (observed on its host), materialized (cloned and in the manifest). */
export type Presence = 'known' | 'indexed' | 'materialized';

/** A manifest repository as presence sees it. */
export interface LocalRepo {
  id: string;
  url?: string;
  /** `<provider>://<namespace>/<repo>` from its `source` provenance. */
  identity?: string;
}

export interface OrgSearchInput {
  q?: string;
  organization?: string;
  language?: string;
  topic?: string;
  /** Features every hit has (comma-separated: `issues,pages`). */
  has?: string;
  /** Only repositories whose last push is at least this many days old (none recorded counts as stale). */
  stale_days?: number;
  limit?: number;
  /** Hits to skip (next_offset of the previous page). */
  offset?: number;
}

export interface OrgHit {
  identity: string;
  provider: string;
  namespace: string;
  name: string;
  full_name: string;
  description: string | null;
  language: string | null;
  topics: string[];
  archived: boolean;
  fork: boolean;
  pushed_at: string | null;
  /** Whole days since the last push (null when the host reported none). */
  days_since_push: number | null;
  has: string[];
  presence: Presence;
  /** The manifest repository (`<project>/<repo>`) once materialized. */
  local: string | null;
  clone_url: string | null;
  web_url: string | null;
}

export interface OrgSearchResult {
  ok: true;
  total: number;
  count: number;
  limit: number;
  offset: number;
  /** Offset of the next page; null on the last. */
  next_offset: number | null;
  /** True when hits after this page exist (the paging convention's flag). */
  truncated: boolean;
  repos: OrgHit[];
  indexes: Array<{ provider: string; namespace: string; indexed_at: string; repo_count: number }>;
}

/** Finds the manifest repository that holds an indexed one: by provenance identity, else by clone URL. */
export function localMatcher(locals: readonly LocalRepo[]): (r: IndexedRepo) => string | null {
  const byIdentity = new Map<string, string>();
  const byUrl = new Map<string, string>();
  for (const l of locals) {
    if (l.identity) byIdentity.set(l.identity, l.id);
    if (l.url) byUrl.set(normalizeUrl(l.url), l.id);
  }
  return (r) =>
    byIdentity.get(r.identity) ??
    (r.clone_url ? byUrl.get(normalizeUrl(r.clone_url)) : undefined) ??
    (r.ssh_url ? byUrl.get(normalizeUrl(r.ssh_url)) : undefined) ??
    null;
}

const DAY = 86_400_000;

/**
 * Searches the stored org indexes: every word of `q` must appear in the name, full name, description or
 * topics; filters narrow by organization (a GitLab group includes its subgroups), language, topic, features
 * and staleness. Best name matches first, then the most recently pushed; `limit` and `offset` page the hits.
 */
export function searchOrgIndexes(
  files: readonly OrgIndexFile[],
  locals: readonly LocalRepo[],
  input: OrgSearchInput,
  now: Date,
): OrgSearchResult {
  const limit = Math.min(ORG_SEARCH_MAX_LIMIT, input.limit ?? ORG_SEARCH_DEFAULT_LIMIT);
  const words = (input.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const org = input.organization?.toLowerCase().replace(/\/+$/, '');
  const lang = input.language?.toLowerCase();
  const topic = input.topic?.toLowerCase();
  const has = (input.has ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const local = localMatcher(locals);
  const scored: Array<{ hit: OrgHit; score: number }> = [];
  for (const f of files) {
    for (const r of f.repos) {
      const ns = r.namespace.toLowerCase();
      if (org && ns !== org && !ns.startsWith(`${org}/`)) continue;
      if (lang && r.language?.toLowerCase() !== lang) continue;
      const topics = r.topics.map((t) => t.toLowerCase());
      if (topic && !topics.includes(topic)) continue;
      if (has.some((h) => !r.has.includes(h))) continue;
      const pushed = r.pushed_at ? Date.parse(r.pushed_at) : Number.NaN;
      const days = Number.isNaN(pushed) ? null : Math.floor((now.getTime() - pushed) / DAY);
      if (input.stale_days !== undefined && days !== null && days < input.stale_days) continue;
      let score = 0;
      const name = r.name.toLowerCase();
      const text = [r.full_name.toLowerCase(), (r.description ?? '').toLowerCase(), ...topics];
      if (words.some((w) => !name.includes(w) && !text.some((t) => t.includes(w)))) continue;
      for (const w of words) score += name === w ? 4 : name.includes(w) ? 2 : topics.includes(w) ? 2 : 1;
      const at = local(r);
      scored.push({
        score,
        hit: {
          identity: r.identity,
          provider: r.provider,
          namespace: r.namespace,
          name: r.name,
          full_name: r.full_name,
          description: r.description,
          language: r.language,
          topics: r.topics,
          archived: r.archived,
          fork: r.fork,
          pushed_at: r.pushed_at,
          days_since_push: days,
          has: r.has,
          presence: at ? 'materialized' : 'indexed',
          local: at,
          clone_url: r.clone_url,
          web_url: r.web_url,
        },
      });
    }
  }
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      (b.hit.pushed_at ?? '').localeCompare(a.hit.pushed_at ?? '') ||
      a.hit.identity.localeCompare(b.hit.identity),
  );
  const offset = input.offset ?? 0;
  const page = scored.slice(offset, offset + limit);
  const end = offset + page.length;
  return {
    ok: true,
    total: scored.length,
    count: page.length,
    limit,
    offset,
    next_offset: page.length > 0 && end < scored.length ? end : null,
    truncated: page.length > 0 && end < scored.length,
    repos: page.map((s) => s.hit),
    indexes: files.map((f) => ({
      provider: f.provider,
      namespace: f.namespace,
      indexed_at: f.indexed_at,
      repo_count: f.repos.length,
    })),
  };
}
