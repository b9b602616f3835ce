import { statSync } from 'node:fs';
import { delimiter, join, sep } from 'node:path';
import { createInterface } from 'node:readline';
import { childProcess, tryReadFileBounded, ValidationError } from '../infra/index.js';
import { EXCLUDED_DIRS, walkFiles } from './walk.js';

export const GREP_BACKENDS = ['auto', 'ripgrep', 'builtin'] as const;
export type GrepBackendChoice = (typeof GREP_BACKENDS)[number];
export type GrepBackend = 'ripgrep' | 'builtin';

export const GREP_DEFAULT_LIMIT = 200;
export const GREP_MAX_LIMIT = 5000;
/** Files larger than this are skipped by both backends (ripgrep's `--max-filesize 1M`). */
export const GREP_MAX_FILESIZE = 1024 * 1024;
/** Longest line text returned per match. */
export const GREP_MAX_LINE = 300;
/** Repositories handed to one ripgrep process (keeps the argument list short). */
const RG_BATCH = 400;

export interface GrepTarget {
  id: string;
  root: string;
}

export interface GrepOptions {
  query: string;
  regex?: boolean;
  ignoreCase?: boolean;
  limit?: number;
  /** From HUB_GREP_BACKEND; `auto` (default) uses ripgrep when it is on PATH. */
  backend?: string;
  /** PATH to look for `rg` in. */
  path?: string;
}

export interface GrepMatch {
  repository: string;
  /** Path relative to the repository root (POSIX). */
  path: string;
  line: number;
  text: string;
}

export interface GrepResult {
  query: string;
  backend: GrepBackend;
  matches: GrepMatch[];
  /** True when more matches exist than `limit`. */
  truncated: boolean;
  limit: number;
  repos_searched: number;
  /** Repositories in scope without a checkout (not searched). */
  repos_missing: string[];
}

export interface GrepInfo {
  backend: GrepBackend;
  requested: GrepBackendChoice;
  ripgrep: { available: boolean; path: string | null; version: string | null };
  excluded_dirs: string[];
  respects_gitignore: true;
  hidden_files: true;
  max_filesize_bytes: number;
  default_limit: number;
  max_limit: number;
}

/** Parses HUB_GREP_BACKEND (`rg` is accepted for ripgrep); anything else is a ValidationError naming it. */
export function parseBackendChoice(value: string | undefined): GrepBackendChoice {
  const v = value?.trim().toLowerCase();
  if (!v || v === 'auto') return 'auto';
  if (v === 'ripgrep' || v === 'rg') return 'ripgrep';
  if (v === 'builtin') return 'builtin';
  throw new ValidationError(`HUB_GREP_BACKEND must be auto, ripgrep or builtin; got '${value}'`, {
    field: 'HUB_GREP_BACKEND',
    value,
    allowed: [...GREP_BACKENDS],
  });
}

/** The `rg` executable on PATH, or null. */
export function findRipgrep(pathEnv: string | undefined): string | null {
  for (const dir of (pathEnv ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const name of process.platform === 'win32' ? ['rg.exe'] : ['rg']) {
      const p = join(dir, name);
      try {
        if (statSync(p).isFile()) return p;
      } catch {
        // not here
      }
    }
  }
  return null;
}

function chooseBackend(opts: { backend?: string; path?: string }): {
  backend: GrepBackend;
  rg: string | null;
} {
  const choice = parseBackendChoice(opts.backend);
  const rg = choice === 'builtin' ? null : findRipgrep(opts.path);
  if (choice === 'ripgrep' && !rg)
    throw new ValidationError('HUB_GREP_BACKEND=ripgrep but `rg` is not on PATH', {
      field: 'HUB_GREP_BACKEND',
      value: opts.backend,
      rule: 'ripgrep_missing',
    });
  return { backend: rg ? 'ripgrep' : 'builtin', rg };
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const clip = (line: string) => {
  const t = line.replace(/\r?\n$/, '');
  return t.length > GREP_MAX_LINE ? `${t.slice(0, GREP_MAX_LINE)}…` : t;
};

/** Content search over repositories with ripgrep or the built-in search; results sorted and bounded. */
export async function grepRepos(targets: readonly GrepTarget[], opts: GrepOptions): Promise<GrepResult> {
  if (!opts.query) throw new ValidationError('query is required', { field: 'query', rule: 'required' });
  const limit = Math.min(Math.max(1, opts.limit ?? GREP_DEFAULT_LIMIT), GREP_MAX_LIMIT);
  let re: RegExp | undefined;
  if (opts.regex || opts.ignoreCase) {
    try {
      re = new RegExp(opts.regex ? opts.query : escapeRegex(opts.query), opts.ignoreCase ? 'i' : '');
    } catch (err) {
      throw new ValidationError(`query is not a valid regular expression: ${(err as Error).message}`, {
        field: 'query',
        value: opts.query,
        rule: 'regex',
      });
    }
  }
  const { backend, rg } = chooseBackend(opts);
  const present: GrepTarget[] = [];
  const missing: string[] = [];
  for (const t of targets) {
    try {
      if (statSync(t.root).isDirectory()) {
        present.push(t);
        continue;
      }
    } catch {
      // missing
    }
    missing.push(t.id);
  }
  const found =
    backend === 'ripgrep'
      ? await ripgrep(rg!, present, opts, limit)
      : builtin(present, opts.query, re, limit);
  const order = new Map(present.map((t, i) => [t.id, i]));
  found.matches.sort(
    (a, b) =>
      order.get(a.repository)! - order.get(b.repository)! ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      a.line - b.line,
  );
  return {
    query: opts.query,
    backend,
    matches: found.matches,
    truncated: found.truncated,
    limit,
    repos_searched: present.length,
    repos_missing: missing,
  };
}

function builtin(
  targets: readonly GrepTarget[],
  query: string,
  re: RegExp | undefined,
  limit: number,
): { matches: GrepMatch[]; truncated: boolean } {
  const matches: GrepMatch[] = [];
  const needle = Buffer.from(query, 'utf8');
  for (const t of targets) {
    for (const f of walkFiles(t.root)) {
      // A regular file under the repository's root only, at most GREP_MAX_FILESIZE bytes actually read.
      const read = tryReadFileBounded(f.abs, { maxBytes: GREP_MAX_FILESIZE, root: t.root, walked: true });
      if (!read.ok) continue;
      const buf = read.bytes;
      // Fast reject on the bytes before decoding; the regex path has no byte form.
      if (!re && buf.indexOf(needle) === -1) continue;
      if (buf.includes(0)) continue;
      const lines = buf.toString('utf8').split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i]!;
        if (re ? !re.test(line) : !line.includes(query)) continue;
        if (matches.length >= limit) return { matches, truncated: true };
        matches.push({ repository: t.id, path: f.rel, line: i + 1, text: clip(line) });
      }
    }
  }
  return { matches, truncated: false };
}

interface RgMessage {
  type: string;
  data?: { path?: { text?: string }; lines?: { text?: string }; line_number?: number };
}

function rgArgs(opts: GrepOptions): string[] {
  const args = [
    '--json',
    '--hidden',
    '--no-require-git',
    '--no-ignore-dot',
    '--no-ignore-global',
    '--no-ignore-parent',
    '--no-messages',
    '--max-filesize',
    String(GREP_MAX_FILESIZE),
  ];
  for (const d of EXCLUDED_DIRS) args.push('--glob', `!${d}`);
  if (!opts.regex) args.push('--fixed-strings');
  if (opts.ignoreCase) args.push('--ignore-case');
  else args.push('--case-sensitive');
  args.push('--regexp', opts.query, '--');
  return args;
}

async function ripgrep(
  rg: string,
  targets: readonly GrepTarget[],
  opts: GrepOptions,
  limit: number,
): Promise<{ matches: GrepMatch[]; truncated: boolean }> {
  const matches: GrepMatch[] = [];
  // Repositories that share one real folder are searched once and each reports the match, as the built-in
  // backend (which walks every repository) does.
  const byRoot = new Map<string, GrepTarget[]>();
  for (const t of targets) byRoot.set(t.root, [...(byRoot.get(t.root) ?? []), t]);
  // Longest root first, so a repository nested in another maps to the inner one.
  const roots = [...byRoot.keys()].sort((a, b) => b.length - a.length);
  const owner = (p: string) => roots.find((r) => p === r || p.startsWith(r + sep));
  const distinct = [...byRoot.keys()];
  for (let i = 0; i < distinct.length; i += RG_BATCH) {
    const batch = distinct.slice(i, i + RG_BATCH);
    const child = childProcess().spawn(rg, [...rgArgs(opts), ...batch], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 4000) stderr += d.toString();
    });
    const exited = new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve(code));
    });
    let truncated = false;
    for await (const line of createInterface({ input: child.stdout })) {
      if (!line.startsWith('{"type":"match"')) continue;
      const msg = JSON.parse(line) as RgMessage;
      const abs = msg.data?.path?.text;
      const root = abs ? owner(abs) : undefined;
      if (!abs || !root) continue;
      const path = abs
        .slice(root.length + 1)
        .split(sep)
        .join('/');
      for (const t of byRoot.get(root)!) {
        if (matches.length >= limit) {
          truncated = true;
          break;
        }
        matches.push({
          repository: t.id,
          path,
          line: msg.data?.line_number ?? 0,
          text: clip(msg.data?.lines?.text ?? ''),
        });
      }
      if (truncated) {
        child.kill();
        break;
      }
    }
    const code = await exited;
    if (truncated) return { matches, truncated };
    // 0 = matches, 1 = none; 2 = an error (a regex ripgrep rejects, say).
    if (code === 2 && matches.length === 0 && stderr.trim()) {
      throw new ValidationError(`ripgrep: ${stderr.trim().split('\n')[0]}`, {
        field: 'query',
        value: opts.query,
        rule: 'ripgrep',
      });
    }
  }
  return { matches, truncated: false };
}

function rgVersion(rg: string): Promise<string | null> {
  return new Promise((resolve) => {
    childProcess().execFile(rg, ['--version'], { timeout: 5000 }, (err, stdout) =>
      resolve(err ? null : stdout.split('\n')[0]!.trim() || null),
    );
  });
}

/** Which backend a search would use, ripgrep's version, and what every search leaves out. */
export async function grepInfo(opts: { backend?: string; path?: string }): Promise<GrepInfo> {
  const requested = parseBackendChoice(opts.backend);
  const path = findRipgrep(opts.path);
  const version = path ? await rgVersion(path) : null;
  const backend: GrepBackend = requested === 'builtin' || !path ? 'builtin' : 'ripgrep';
  return {
    backend,
    requested,
    ripgrep: { available: Boolean(path), path, version },
    excluded_dirs: [...EXCLUDED_DIRS],
    respects_gitignore: true,
    hidden_files: true,
    max_filesize_bytes: GREP_MAX_FILESIZE,
    default_limit: GREP_DEFAULT_LIMIT,
    max_limit: GREP_MAX_LIMIT,
  };
}
