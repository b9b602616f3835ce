import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog, CatalogRepo } from './catalog.js';

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

export interface Candidate {
  project: string;
  repo: string;
  name: string;
  path: string;
  kind: string;
  markers: string[];
  /** What the markers say it is written in: one language, or several when its markers disagree. */
  language?: string | string[];
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

/**
 * Scans one checkout for marker files; never writes. `dir` is the checkout's real directory (the caller has
 * judged it: see Checkouts); folders are entered only as folders, never through a symlink.
 */
export function detectInRepo(catalog: Catalog, repo: CatalogRepo, dir = repo.root): Candidate[] {
  const out: Candidate[] = [];
  const known = catalog.componentsByRepoPath.get(repo.id) ?? new Map();
  const names = new Set((catalog.componentsByRepo.get(repo.id) ?? []).map((c) => c.name));
  let budget = MAX_DIRS;
  const walk = (abs: string, rel: string, depth: number) => {
    if (budget-- <= 0) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    if (rel !== '.') {
      const markers = markersIn(entries, rel);
      if (markers.length > 0) {
        const kind = markers.includes('Chart.yaml') ? 'infrastructure' : (kindHint(rel) ?? 'unknown');
        const language = languageOf(markers, entries);
        out.push({
          project: repo.project,
          repo: repo.name,
          name: rel.split('/').pop()!,
          path: rel,
          kind,
          markers,
          ...(language === undefined ? {} : { language }),
          confidence: 'high',
          already_catalogued: known.has(rel),
        });
      }
    }
    if (depth >= MAX_DEPTH) return;
    for (const e of entries) {
      if (!e.isDirectory() || SKIP_DIRS.has(e.name) || e.name.startsWith('.')) continue;
      walk(join(abs, e.name), rel === '.' ? e.name : `${rel}/${e.name}`, depth + 1);
    }
  };
  walk(dir, '.', 0);
  // The repo root is a candidate only when nothing inside is one (a single-package repo).
  if (out.length === 0) {
    let entries: Dirent[] = [];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      // not cloned
    }
    const markers = markersIn(entries, '.');
    if (markers.length > 0) {
      const language = languageOf(markers, entries);
      out.push({
        project: repo.project,
        repo: repo.name,
        name: repo.name,
        path: '.',
        kind: 'unknown',
        markers,
        ...(language === undefined ? {} : { language }),
        confidence: 'high',
        already_catalogued: known.has('.'),
      });
    }
  }
  // Unique names within the repo: a basename already taken becomes the dashed path.
  for (const c of out) {
    if (c.already_catalogued) {
      c.name = known.get(c.path)?.name ?? c.name;
      continue;
    }
    if (names.has(c.name)) c.name = c.path.replace(/\//g, '-');
    names.add(c.name);
  }
  return out.sort((a, b) => a.repo.localeCompare(b.repo) || a.path.localeCompare(b.path));
}
