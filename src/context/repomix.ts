import {
  allEdges,
  type Catalog,
  type CatalogRepo,
  type Checkouts,
  checkoutsOf,
  findComponent,
  scopeMiss,
} from '../catalog/index.js';
import { NotFoundError, runGit, tryReadFileBounded } from '../infra/index.js';
import { walkFiles } from '../workspace/index.js';
import { type PickContext, pickFile, type RepomixProfile } from './repomix-profiles.js';
import type { TokenCounter } from './tokens.js';

export const SNAPSHOT_DEFAULT_TOKENS = 20_000;
export const SNAPSHOT_MAX_TOKENS = 200_000;
/** Files above this size are listed as omitted, never read whole. */
export const SNAPSHOT_MAX_FILE_BYTES = 256 * 1024;
/** Files a snapshot looks at in one repository (walk order). */
const MAX_WALK = 20_000;
const OMITTED_LISTED = 50;

export interface SnapshotFile {
  path: string;
  bytes: number;
  tokens: number;
  reason: string;
  content: string;
}

export interface Snapshot {
  ok: true;
  profile: RepomixProfile;
  project: string;
  repo: string;
  root: string;
  component: string | null;
  max_tokens: number;
  /** Exact tokens of `text`, the packed snapshot (what the CLI prints without --json). */
  total_tokens: number;
  files: SnapshotFile[];
  omitted: Array<{ path: string; reason: string }>;
  omitted_count: number;
  relationships?: Array<{ from: string; to: string; type: string; origin: string }>;
  text: string;
}

export interface SnapshotInput {
  profile: RepomixProfile;
  project: string;
  repo: string;
  component?: string;
  maxTokens?: number;
}

/** Bytes looked at for a NUL, as git does to call a file binary. */
const BINARY_SNIFF = 8000;

async function gitContext(root: string): Promise<PickContext> {
  const [status, log] = await Promise.all([
    runGit(['status', '--porcelain', '-z', '--untracked-files=all'], { cwd: root }),
    runGit(['log', '-n', '20', '--name-only', '--format=', '--no-merges'], { cwd: root }),
  ]);
  const dirty = new Set<string>();
  if (status.code === 0) {
    // -z: `XY path\0`, renames add `\0orig`; the new path is the one that matters.
    const parts = status.stdout.split('\0');
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (p.length < 4) continue;
      dirty.add(p.slice(3));
      if (p[0] === 'R' || p[0] === 'C') i++;
    }
  }
  const recent = new Set(log.code === 0 ? log.stdout.split('\n').filter(Boolean) : []);
  return { dirty, recent };
}

function fenceFor(content: string): string {
  let longest = 0;
  for (const m of content.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

function header(repo: CatalogRepo, profile: string, component: string | null): string {
  return `# Snapshot of ${repo.id}${component ? ` (component ${component})` : ''}, profile ${profile}\n`;
}

function block(path: string, content: string): string {
  const fence = fenceFor(content);
  return `\n## ${path}\n${fence}\n${content}${content.endsWith('\n') ? '' : '\n'}${fence}\n`;
}

/**
 * A scoped snapshot of one repository: the files its profile picks (honouring .gitignore, never dependency
 * folders, lockfiles or binaries), in priority order, until the packed text reaches `maxTokens`. A repository
 * outside the workspace is refused (see Checkouts); files are read only as regular files under its real root.
 */
export async function buildSnapshot(
  catalog: Catalog,
  counter: Promise<TokenCounter>,
  input: SnapshotInput,
  checkouts: Checkouts = checkoutsOf(catalog),
): Promise<Snapshot> {
  const repo = catalog.repoById.get(`${input.project}/${input.repo}`);
  if (!repo) {
    const miss = scopeMiss(catalog, input.project, input.repo, {
      project: 'unknown_project',
      repo: 'unknown_repository',
    });
    throw new NotFoundError(miss.message, miss.details);
  }
  const dir = checkouts.require(repo);
  const comp = input.component
    ? findComponent(catalog, input.component, { project: input.project, repo: input.repo })
    : undefined;
  const prefix = comp && comp.path !== '.' ? `${comp.path}/` : '';
  const max = Math.min(input.maxTokens ?? SNAPSHOT_DEFAULT_TOKENS, SNAPSHOT_MAX_TOKENS);
  const ctx = await gitContext(dir);
  const picked: Array<{ path: string; abs: string; priority: number; reason: string; order: number }> = [];
  let order = 0;
  for (const f of walkFiles(dir, { maxFiles: MAX_WALK })) {
    if (prefix && !f.rel.startsWith(prefix)) continue;
    const pick = pickFile(input.profile, f.rel, ctx);
    if (pick) picked.push({ path: f.rel, abs: f.abs, ...pick, order: order++ });
  }
  picked.sort((a, b) => a.priority - b.priority || a.order - b.order);
  const tok = await counter;
  const head = header(repo, input.profile, comp?.id ?? null);
  const files: SnapshotFile[] = [];
  const omitted: Array<{ path: string; reason: string }> = [];
  let total = tok.count(head);
  for (const p of picked) {
    if (max - total < 16) {
      omitted.push({ path: p.path, reason: 'budget' });
      continue;
    }
    const read = tryReadFileBounded(p.abs, { maxBytes: SNAPSHOT_MAX_FILE_BYTES, root: dir });
    if (!read.ok) {
      omitted.push({ path: p.path, reason: read.rule === 'max_size' ? 'too_large' : 'unreadable' });
      continue;
    }
    if (read.bytes.subarray(0, BINARY_SNIFF).includes(0)) {
      omitted.push({ path: p.path, reason: 'binary' });
      continue;
    }
    const bytes = read.bytes.length;
    const content = read.bytes.toString('utf8');
    const tokens = tok.count(block(p.path, content));
    if (total + tokens > max) {
      omitted.push({ path: p.path, reason: 'budget' });
      continue;
    }
    total += tokens;
    files.push({ path: p.path, bytes, tokens, reason: p.reason, content });
  }
  // Block boundaries can tokenize a little differently when joined: count the real text and trim if needed.
  let text = head + files.map((f) => block(f.path, f.content)).join('');
  let exact = tok.count(text);
  while (exact > max && files.length > 0) {
    const dropped = files.pop()!;
    omitted.push({ path: dropped.path, reason: 'budget' });
    text = head + files.map((f) => block(f.path, f.content)).join('');
    exact = tok.count(text);
  }
  // Edges that cross this repository's boundary: what other repositories a change here may touch.
  const touches = (id: string) => id === `repo:${repo.id}` || id.startsWith(`component:${repo.id}/`);
  const relationships =
    input.profile === 'cross-repo-impact'
      ? allEdges(catalog)
          .filter((e) => touches(e.from) !== touches(e.to))
          .map((e) => ({ from: e.from, to: e.to, type: e.type, origin: e.origin }))
      : undefined;
  return {
    ok: true,
    profile: input.profile,
    project: repo.project,
    repo: repo.name,
    root: repo.root,
    component: comp?.id ?? null,
    max_tokens: max,
    total_tokens: exact,
    files,
    omitted: omitted.slice(0, OMITTED_LISTED),
    omitted_count: omitted.length,
    ...(relationships ? { relationships } : {}),
    text,
  };
}
