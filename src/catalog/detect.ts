import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog, CatalogRepo } from './catalog.js';
import { realpathOrUndefined, tryReadFileBounded } from './deps.js';
import { type FolderView, folderFacts, type MarkerFacts } from './package-facts.js';

/** Marker files that make a directory a high-confidence component. */
export const HIGH_CONFIDENCE_MARKERS = [
  'package.json',
  'pyproject.toml',
  'go.mod',
  'Cargo.toml',
  'pom.xml',
  'build.gradle',
];
const CSPROJ_RE = /\.csproj$/;

/** The language a marker file says a component is written in (`package.json`: see `languageOf`). */
export const MARKER_LANGUAGES: Record<string, string> = {
  'package.json': 'javascript',
  'pyproject.toml': 'python',
  'go.mod': 'go',
  'Cargo.toml': 'rust',
  'pom.xml': 'java',
  'build.gradle': 'java',
  '*.csproj': 'csharp',
};

/** Kind hints from a directory name on the candidate's path (`cmd/<name>`: a Go command). */
export const KIND_HINTS: Record<string, string> = {
  apps: 'application',
  cmd: 'application',
  packages: 'package',
  services: 'service',
  libs: 'library',
  internal: 'library',
  infra: 'infrastructure',
  terraform: 'infrastructure',
  helm: 'infrastructure',
  charts: 'infrastructure',
};

/** Directories never scanned: VCS data, dependencies, build output, virtual environments. */
export const SKIP_DIRS = new Set([
  '.git',
  'node_modules',
  'vendor',
  'dist',
  'build',
  'target',
  '.venv',
  'venv',
  '__pycache__',
  '.hub',
  '.worktrees',
  'coverage',
  'out',
]);

/** Folders whose direct subfolders holding a `Chart.yaml` are Helm charts: `helm/<name>/Chart.yaml` and so on. */
export const CHART_PARENTS = ['helm', 'charts', 'deploy'];

const MAX_DEPTH = 6;
const MAX_DIRS = 20_000;
/** Bytes of one marker (or Go source head) read to tell what it declares. */
const MAX_MARKER_BYTES = 1024 * 1024;
const GO_HEAD_BYTES = 16 * 1024;

/**
 * Folders whose packages are not what the repository ships: examples, benchmarks, fuzz targets, tests and their
 * fixtures. A candidate at or below one carries the role (written as the tag `role`), whatever its kind.
 */
export const ROLE_DIRS: Record<string, CandidateRole> = {
  examples: 'example',
  example: 'example',
  _examples: 'example',
  samples: 'example',
  sample: 'example',
  demo: 'example',
  demos: 'example',
  tutorial: 'example',
  tutorials: 'example',
  playground: 'example',
  bench: 'benchmark',
  benches: 'benchmark',
  benchmark: 'benchmark',
  benchmarks: 'benchmark',
  fuzz: 'fuzz',
  fuzzing: 'fuzz',
  test: 'test',
  tests: 'test',
  testdata: 'test',
  __tests__: 'test',
  fixtures: 'test',
  fixture: 'test',
  __fixtures__: 'test',
  e2e: 'test',
};

export const CANDIDATE_ROLES = ['example', 'benchmark', 'fuzz', 'test'] as const;
export type CandidateRole = (typeof CANDIDATE_ROLES)[number];

export interface Candidate {
  project: string;
  repo: string;
  name: string;
  path: string;
  kind: string;
  markers: string[];
  /** What the markers say it is written in: one language, or several when its markers disagree. */
  language?: string | string[];
  /** The package its markers name (npm name, Go module, crate, distribution, artifact, chart). */
  package?: string;
  /** Set below examples/, benchmarks/, fuzz/, tests/ and the like: not what the repository ships. */
  role?: CandidateRole;
  confidence: 'high';
  already_catalogued: boolean;
}

/** Kind from the closest hinting directory on the path (`services/api/plugins/x` -> service). */
export function kindHint(relPath: string): string | undefined {
  const segs = relPath.split('/');
  for (let i = segs.length - 2; i >= 0; i--) {
    const hint = KIND_HINTS[segs[i]!];
    if (hint) return hint;
  }
  return undefined;
}

/** The role of a folder from its own name or a parent's (`benchmarks`, `examples/basic`, `fuzz`). */
export function roleOf(relPath: string): CandidateRole | undefined {
  if (relPath === '.') return undefined;
  const segs = relPath.split('/');
  for (let i = segs.length - 1; i >= 0; i--) {
    const role = ROLE_DIRS[segs[i]!.toLowerCase()];
    if (role) return role;
  }
  return undefined;
}

function markersIn(entries: Dirent[], relPath: string): string[] {
  const files = entries.filter((e) => e.isFile()).map((e) => e.name);
  const found = files.filter((f) => HIGH_CONFIDENCE_MARKERS.includes(f) || CSPROJ_RE.test(f));
  const segs = relPath.split('/');
  // helm/<name>/Chart.yaml, charts/<name>/Chart.yaml and deploy/<name>/Chart.yaml anywhere in the repo.
  if (files.includes('Chart.yaml') && segs.length >= 2 && CHART_PARENTS.includes(segs[segs.length - 2]!)) {
    found.push('Chart.yaml');
  }
  return found.sort();
}

/**
 * The language of a candidate from its markers: `package.json` is TypeScript when a `tsconfig.json` sits beside
 * it, else JavaScript; a chart says none. Several languages (a `package.json` beside a `go.mod`) give a list.
 */
export function languageOf(
  markers: readonly string[],
  entries: readonly Dirent[],
): string | string[] | undefined {
  const ts = entries.some((e) => e.isFile() && e.name === 'tsconfig.json');
  const langs = new Set<string>();
  for (const m of markers) {
    const lang = MARKER_LANGUAGES[CSPROJ_RE.test(m) ? '*.csproj' : m];
    if (lang) langs.add(lang === 'javascript' && ts ? 'typescript' : lang);
  }
  const list = [...langs];
  return list.length === 0 ? undefined : list.length === 1 ? list[0] : list;
}

/** The folder a marker reader sees: its listing, and bounded reads that never follow a symlink. */
function folderView(realRoot: string, abs: string, entries: Dirent[]): FolderView {
  const names = entries.map((e) => e.name);
  const files = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
  return {
    names,
    has: (name) => names.includes(name),
    read: (name) => {
      if (!files.has(name)) return undefined;
      const go = name.endsWith('.go');
      const r = tryReadFileBounded(join(abs, name), {
        maxBytes: go ? GO_HEAD_BYTES : MAX_MARKER_BYTES,
        truncate: go,
        root: realRoot,
        walked: true,
      });
      return r.ok ? r.bytes.toString('utf8') : undefined;
    },
    hasFile: (rel) => {
      let at = abs;
      for (const seg of rel.split('/')) {
        at = join(at, seg);
        const st = lstatSync(at, { throwIfNoEntry: false });
        if (!st || st.isSymbolicLink()) return false;
      }
      return lstatSync(at, { throwIfNoEntry: false })?.isFile() ?? false;
    },
  };
}

/**
 * Kind of a candidate: a chart is infrastructure; else the nearest hinting folder on the path (the spec's
 * `apps/`, `services/`, ...); else what the markers say (a `bin` field, a `main` package, a library crate); else
 * unknown.
 */
function kindOf(rel: string, markers: readonly string[], facts: MarkerFacts): string {
  if (markers.includes('Chart.yaml')) return 'infrastructure';
  return (rel === '.' ? undefined : kindHint(rel)) ?? facts.kind ?? 'unknown';
}

/**
 * Scans one checkout for marker files and reads what they declare; never writes. `dir` is the checkout's real
 * directory (the caller has judged it: see Checkouts); folders are entered only as folders, never through a
 * symlink. The root is a candidate when its markers name a package that is not only a workspace root (a private
 * npm workspace root, a virtual Cargo manifest, a Maven aggregator); else only when nothing inside is one.
 * Below the root a marker that declares nothing (a `{"type": "module"}` package.json) or only a workspace is no
 * candidate. Examples, benchmarks, fuzz targets and tests carry their `role`.
 */
export function detectInRepo(catalog: Catalog, repo: CatalogRepo, dir = repo.root): Candidate[] {
  const nested: Candidate[] = [];
  let root: { candidate: Candidate; named: boolean } | undefined;
  const known = catalog.componentsByRepoPath.get(repo.id) ?? new Map();
  const names = new Set((catalog.componentsByRepo.get(repo.id) ?? []).map((c) => c.name));
  const realRoot = realpathOrUndefined(dir) ?? dir;
  let budget = MAX_DIRS;
  const walk = (abs: string, rel: string, depth: number) => {
    if (budget-- <= 0) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    const markers = markersIn(entries, rel);
    if (markers.length > 0) {
      const facts = folderFacts(markers, folderView(realRoot, abs, entries));
      const language = languageOf(markers, entries);
      const role = roleOf(rel);
      const candidate: Candidate = {
        project: repo.project,
        repo: repo.name,
        name: rel === '.' ? repo.name : rel.split('/').pop()!,
        path: rel,
        kind: kindOf(rel, markers, facts),
        markers,
        ...(language === undefined ? {} : { language }),
        ...(facts.name ? { package: facts.name } : {}),
        ...(role ? { role } : {}),
        confidence: 'high',
        already_catalogued: known.has(rel),
      };
      if (rel === '.') {
        if (facts.state === 'package' || facts.state === 'unknown')
          root = { candidate, named: facts.state === 'package' && facts.name !== undefined };
      } else if (facts.state === 'package' || facts.state === 'unknown') nested.push(candidate);
    }
    if (depth >= MAX_DEPTH) return;
    for (const e of entries) {
      if (!e.isDirectory() || SKIP_DIRS.has(e.name) || e.name.startsWith('.')) continue;
      walk(join(abs, e.name), rel === '.' ? e.name : `${rel}/${e.name}`, depth + 1);
    }
  };
  walk(dir, '.', 0);
  // A root that names a package is the repository's own package; an unnamed one only in a single-package repo.
  const out = root && (root.named || nested.length === 0) ? [root.candidate, ...nested] : nested;
  out.sort((a, b) => (a.path === '.' ? -1 : b.path === '.' ? 1 : a.path.localeCompare(b.path)));
  // Unique names within the repo, the root first: a basename already taken becomes the dashed path.
  for (const c of out) {
    if (c.already_catalogued) {
      c.name = known.get(c.path)?.name ?? c.name;
      continue;
    }
    if (names.has(c.name)) c.name = c.path === '.' ? `${repo.name}-root` : c.path.replace(/\//g, '-');
    // Still taken (a top-level folder named like the repository): number it.
    for (let n = 2, base = c.name; names.has(c.name); n++) c.name = `${base}-${n}`;
    names.add(c.name);
  }
  return out;
}
