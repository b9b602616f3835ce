import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomicSync } from '../infra/index.js';
import { runInRepos, splitRecords } from '../workspace/index.js';
import type { ActivityLevel, TerrainActivity } from './types.js';

/** Commits read per repository: counts above this in 30 days are floors (`capped`). */
export const ACTIVITY_MAX_COMMITS = 100;
const DAY_S = 86_400;
const WINDOW_S = 30 * DAY_S;

/**
 * Commit times (unix seconds) below one head commit: the head's own, then those of the newest commits no older
 * than 30 days before the moment they were read. History below a commit never changes, so an entry keyed by the
 * head's id stays exact: as time passes commits only fall out of the windows, none can enter.
 */
export interface ActivityEntry {
  head: number;
  recent: number[];
  capped: boolean;
}

export interface ActivityCache {
  get(sha: string): ActivityEntry | undefined;
  set(sha: string, e: ActivityEntry): void;
  save(): void;
}

const MAX_ENTRIES = 20_000;
const VERSION = 1;

/** The cache in `file` (JSON), or memory-only when undefined. Unreadable or foreign files start it empty. */
export function openActivityCache(file?: string): ActivityCache {
  const entries = new Map<string, number[]>();
  if (file) {
    try {
      const doc = JSON.parse(readFileSync(file, 'utf8')) as { v?: number; e?: Record<string, unknown> };
      if (doc.v === VERSION && doc.e)
        for (const [k, v] of Object.entries(doc.e))
          if (Array.isArray(v) && v.length >= 2 && v.every((n) => Number.isInteger(n)))
            entries.set(k, v as number[]);
    } catch {
      // A cache never fails a command.
    }
  }
  let dirty = false;
  return {
    get(sha) {
      const e = entries.get(sha);
      return e ? { head: e[0]!, capped: e[1] === 1, recent: e.slice(2) } : undefined;
    },
    set(sha, e) {
      entries.set(sha, [e.head, e.capped ? 1 : 0, ...e.recent]);
      dirty = true;
    },
    save() {
      if (!file || !dirty) return;
      const all = [...entries];
      try {
        mkdirSync(dirname(file), { recursive: true });
        writeFileAtomicSync(
          file,
          JSON.stringify({ v: VERSION, e: Object.fromEntries(all.slice(-MAX_ENTRIES)) }),
        );
        dirty = false;
      } catch {
        // A read-only cache folder costs speed, never correctness.
      }
    },
  };
}

const LOG_ARGS = ['log', `-n${ACTIVITY_MAX_COMMITS}`, '--format=%H%x09%ct%x09%D'];

/** The first line of each repository's log names HEAD in its decorations (how a batch's output is split). */
function isHeadLine(line: string): boolean {
  const deco = line.split('\t')[2];
  return Boolean(deco?.split(', ').some((d) => d === 'HEAD' || d.startsWith('HEAD -> ')));
}

function parseLog(record: string, nowS: number): { sha: string; entry: ActivityEntry } | undefined {
  const lines = record.split('\n').filter(Boolean);
  const first = lines[0]?.split('\t');
  if (!first?.[0] || !first[1]) return undefined;
  const times = lines.map((l) => Number(l.split('\t')[1]));
  if (times.some((t) => !Number.isFinite(t))) return undefined;
  const recent = times.filter((t) => t > nowS - WINDOW_S);
  return {
    sha: first[0],
    entry: {
      head: times[0]!,
      recent,
      capped: lines.length >= ACTIVITY_MAX_COMMITS && recent.length === lines.length,
    },
  };
}

/**
 * Activity entries for many checkouts by head id: cached ids cost nothing, the rest come from one `git log` per
 * repository, run in `git for-each-repo` batches. Undefined where git could not say.
 */
export async function activityEntries(
  items: ReadonlyArray<{ root: string; head: string }>,
  cache: ActivityCache,
  now: Date,
  opts: { parallel?: number; batchSize?: number } = {},
): Promise<{ entries: Array<ActivityEntry | undefined>; read: number }> {
  const out = items.map((i) => cache.get(i.head));
  const missing = items.flatMap((_, k) => (out[k] ? [] : [k]));
  const nowS = Math.floor(now.getTime() / 1000);
  const results = await runInRepos(
    missing.map((k) => items[k]!.root),
    LOG_ARGS,
    (stdout) => splitRecords(stdout, isHeadLine),
    opts,
  );
  results.forEach((r, j) => {
    const k = missing[j]!;
    const parsed = r.code === 0 ? parseLog(r.stdout, nowS) : undefined;
    if (!parsed || parsed.sha !== items[k]!.head) return;
    cache.set(parsed.sha, parsed.entry);
    out[k] = parsed.entry;
  });
  return { entries: out, read: missing.length };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Windows and level at `now` (the earlier product's pulse: active .35 + .08/commit up to 1, recent .15 + .03 up to .6). */
export function activityOf(e: ActivityEntry | undefined, now: Date): TerrainActivity {
  const nowS = Math.floor(now.getTime() / 1000);
  const within = (s: number) => (e?.recent ?? []).filter((t) => t > nowS - s).length;
  const c24 = within(DAY_S);
  const c7 = within(7 * DAY_S);
  const c30 = within(WINDOW_S);
  const level: ActivityLevel = c24 > 0 ? 'active' : c7 > 0 ? 'recent' : c30 > 0 ? 'inactive' : 'abandoned';
  const pulse =
    level === 'active'
      ? Math.min(1, 0.35 + 0.08 * c24)
      : level === 'recent'
        ? Math.min(0.6, 0.15 + 0.03 * c7)
        : 0;
  return {
    last_commit_at: e ? new Date(e.head * 1000).toISOString() : null,
    commits_24h: c24,
    commits_7d: c7,
    commits_30d: c30,
    capped: Boolean(e?.capped) && c30 === (e?.recent.length ?? 0),
    level,
    pulse: round2(pulse),
  };
}
