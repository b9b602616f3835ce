import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { runGit, writeFileAtomicSync } from '../infra/index.js';
import { runInRepos, splitRecords } from '../workspace/index.js';

export interface CommitMeta {
  /** Committer date, ISO 8601. */
  at: string;
  subject: string;
  /** Subjects of the commits before it (newest first), at most two. */
  earlier: string[];
}

/**
 * Head-commit facts by object id. A commit never changes, so a cache keyed by its id is exact: a repository
 * whose HEAD did not move costs one git process per card instead of two.
 */
export interface CommitCache {
  get(sha: string): CommitMeta | undefined;
  set(sha: string, meta: CommitMeta): void;
  /** Writes new entries back (atomically); a no-op for a memory-only cache. */
  save(): void;
}

const MAX_ENTRIES = 50_000;
const VERSION = 2;

/** A cache stored in `file` (a JSON map), or memory-only when `file` is undefined. */
export function openCommitCache(file?: string): CommitCache {
  const entries = new Map<string, string[]>();
  if (file) {
    try {
      const doc = JSON.parse(readFileSync(file, 'utf8')) as { v?: number; e?: Record<string, string[]> };
      if (doc.v === VERSION && doc.e) for (const [k, v] of Object.entries(doc.e)) entries.set(k, v);
    } catch {
      // Missing or unreadable: start empty; a cache never fails a command.
    }
  }
  let dirty = false;
  return {
    get(sha) {
      const e = entries.get(sha);
      return e && e.length >= 2 ? { at: e[0]!, subject: e[1]!, earlier: e.slice(2) } : undefined;
    },
    set(sha, meta) {
      entries.set(sha, [meta.at, meta.subject, ...meta.earlier]);
      dirty = true;
    },
    save() {
      if (!file || !dirty) return;
      const all = [...entries];
      const kept = all.slice(Math.max(0, all.length - MAX_ENTRIES));
      try {
        mkdirSync(dirname(file), { recursive: true });
        writeFileAtomicSync(file, JSON.stringify({ v: VERSION, e: Object.fromEntries(kept) }));
        dirty = false;
      } catch {
        // A read-only cache dir costs speed, never correctness.
      }
    },
  };
}

/** Time and subject of HEAD and the subjects before it (one git process), through the cache when the id is known. */
export async function headCommit(
  root: string,
  head: string,
  cache: CommitCache,
): Promise<CommitMeta | undefined> {
  const hit = cache.get(head);
  if (hit) return hit;
  const r = await runGit(['log', '-3', '--format=%H%x09%cI%x09%s', head], { cwd: root });
  if (r.code !== 0) return undefined;
  const lines = r.stdout.split('\n').filter(Boolean);
  const [sha, at, ...rest] = (lines[0] ?? '').split('\t');
  if (!sha || !at) return undefined;
  const earlier = lines.slice(1).map((l) => l.split('\t').slice(2).join('\t'));
  const meta = { at, subject: rest.join('\t'), earlier };
  cache.set(sha, meta);
  return meta;
}

const LOG_ARGS = ['log', '-3', '--format=%H%x09%cI%x09%D%x09%s'];

/** The HEAD line of `git log --format=%H%x09%cI%x09%D%x09%s`: its decorations name HEAD. */
function isHeadLine(line: string): boolean {
  const deco = line.split('\t')[2];
  return Boolean(deco?.split(', ').some((d) => d === 'HEAD' || d.startsWith('HEAD -> ')));
}

function parseLog(record: string): (CommitMeta & { sha: string }) | undefined {
  const lines = record.split('\n').filter(Boolean);
  const [sha, at, , ...rest] = (lines[0] ?? '').split('\t');
  if (!sha || !at) return undefined;
  const earlier = lines.slice(1).map((l) => l.split('\t').slice(3).join('\t'));
  return { sha, at, subject: rest.join('\t'), earlier };
}

/**
 * Head-commit facts for many checkouts: cached ids cost nothing, the others are read in `git for-each-repo`
 * batches (split at each repository's HEAD line). Undefined where git could not say.
 */
export async function headCommits(
  items: ReadonlyArray<{ root: string; head: string }>,
  cache: CommitCache,
  opts: { parallel?: number } = {},
): Promise<Array<CommitMeta | undefined>> {
  const out: Array<CommitMeta | undefined> = items.map((i) => cache.get(i.head));
  const missing = items.flatMap((_, k) => (out[k] ? [] : [k]));
  const results = await runInRepos(
    missing.map((k) => items[k]!.root),
    LOG_ARGS,
    (stdout) => splitRecords(stdout, isHeadLine),
    opts,
  );
  results.forEach((r, j) => {
    const k = missing[j]!;
    const meta = r.code === 0 ? parseLog(r.stdout) : undefined;
    if (!meta || meta.sha !== items[k]!.head) return;
    const { sha, ...rest } = meta;
    cache.set(sha, rest);
    out[k] = rest;
  });
  return out;
}
