import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tryReadFileBounded } from '../infra/index.js';
import { EXCLUDED_DIRS } from '../workspace/index.js';

/** Marker file -> stack it hints at. */
const MARKERS: Record<string, string> = {
  'package.json': 'node',
  'tsconfig.json': 'typescript',
  'deno.json': 'deno',
  'pyproject.toml': 'python',
  'requirements.txt': 'python',
  'setup.py': 'python',
  Pipfile: 'python',
  'go.mod': 'go',
  'Cargo.toml': 'rust',
  'pom.xml': 'java-maven',
  'build.gradle': 'java-gradle',
  'build.gradle.kts': 'kotlin-gradle',
  Gemfile: 'ruby',
  'composer.json': 'php',
  'mix.exs': 'elixir',
  'Package.swift': 'swift',
  'CMakeLists.txt': 'cmake',
  'Chart.yaml': 'helm',
  Dockerfile: 'docker',
  'docker-compose.yml': 'docker-compose',
  'compose.yaml': 'docker-compose',
  Makefile: 'make',
};
const EXT_MARKERS: Array<[RegExp, string]> = [
  [/\.csproj$/, 'dotnet'],
  [/\.tf$/, 'terraform'],
];

/** CI configuration files at the repository root -> provider. */
const CI_FILES: Array<[string, string]> = [
  ['.gitlab-ci.yml', 'gitlab_ci'],
  ['Jenkinsfile', 'jenkins'],
  ['.circleci/config.yml', 'circleci'],
  ['azure-pipelines.yml', 'azure_pipelines'],
  ['bitbucket-pipelines.yml', 'bitbucket_pipelines'],
  ['.travis.yml', 'travis'],
  ['.buildkite/pipeline.yml', 'buildkite'],
];

/** Files agents read as instructions; the readiness score counts AGENTS.md and llms.txt. */
export const AGENT_FILES = [
  'AGENTS.md',
  'CLAUDE.md',
  'llms.txt',
  '.cursorrules',
  '.github/copilot-instructions.md',
];

/** Hidden folders worth entering for hints (CI lives there). */
const HIDDEN_ALLOWED = new Set(['.github', '.circleci', '.buildkite']);

export interface StackHint {
  stack: string;
  /** First file that suggested it, relative to the repository root. */
  file: string;
}

export interface RepoScan {
  stack_hints: StackHint[];
  /** Detected CI configurations: provider and config path. */
  ci: Array<{ provider: string; config: string }>;
  workflows: string[];
  readme: string | null;
  /** First paragraph of the README (plain text, shortened). */
  readme_excerpt: string | null;
  /** Entries at the repository root, folders with a trailing slash (hidden ones left out). */
  top_level: string[];
  agent_files: string[];
  /** Every relative path seen (files and folders), for existence checks of declared paths. */
  seen: Set<string>;
}

/** Most root entries a card lists. */
export const TOP_LEVEL_MAX = 20;
const EXCERPT_MAX = 200;

/** The first paragraph of a README that is not a heading, badge or blank, shortened to a sentence or two. */
export function readmeExcerpt(text: string): string | null {
  for (const para of text.split(/\n\s*\n/)) {
    const lines = para
      .split('\n')
      .map((l) => l.trim())
      .filter(
        (l) =>
          l && !l.startsWith('#') && !l.startsWith('[![') && !l.startsWith('<') && !/^[-=*_]{3,}$/.test(l),
      );
    if (lines.length === 0) continue;
    const t = lines.join(' ').replace(/\s+/g, ' ');
    return t.length <= EXCERPT_MAX ? t : `${t.slice(0, EXCERPT_MAX - 1).trimEnd()}…`;
  }
  return null;
}

/**
 * The first bytes of a file of the checkout: a regular file under its root only (a README that is a symlink
 * out of the repository, a FIFO or a device is not read).
 */
function readHead(root: string, rel: string, bytes = 4096): string | undefined {
  const r = tryReadFileBounded(join(root, rel), { maxBytes: bytes, root, truncate: true });
  return r.ok ? r.bytes.toString('utf8') : undefined;
}

export interface ScanLimits {
  maxDepth: number;
  maxDirs: number;
}

const DEFAULT_LIMITS: ScanLimits = { maxDepth: 3, maxDirs: 300 };

/**
 * A bounded look at a checkout (a few levels, a few hundred folders): marker files for stack hints, CI
 * configuration, README and agent instruction files. Never runs git; an unreadable folder is skipped.
 */
export function scanRepo(root: string, limits: ScanLimits = DEFAULT_LIMITS): RepoScan {
  const hints = new Map<string, StackHint>();
  const top: string[] = [];
  const seen = new Set<string>();
  const excluded = new Set(EXCLUDED_DIRS);
  let dirs = 0;
  const queue: Array<{ abs: string; rel: string; depth: number }> = [{ abs: root, rel: '', depth: 0 }];
  while (queue.length > 0 && dirs < limits.maxDirs) {
    const { abs, rel, depth } = queue.shift()!;
    dirs++;
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const path = rel === '' ? e.name : `${rel}/${e.name}`;
      seen.add(path);
      if (depth === 0 && !e.name.startsWith('.') && !excluded.has(e.name) && (e.isDirectory() || e.isFile()))
        top.push(e.isDirectory() ? `${e.name}/` : e.name);
      if (e.isDirectory()) {
        if (excluded.has(e.name) || (e.name.startsWith('.') && !HIDDEN_ALLOWED.has(e.name))) continue;
        if (depth + 1 <= limits.maxDepth) queue.push({ abs: join(abs, e.name), rel: path, depth: depth + 1 });
        continue;
      }
      const stack = MARKERS[e.name] ?? EXT_MARKERS.find(([re]) => re.test(e.name))?.[1];
      if (stack && !hints.has(stack)) hints.set(stack, { stack, file: path });
    }
  }
  const workflows = [...seen]
    .filter((p) => /^\.github\/workflows\/[^/]+\.ya?ml$/.test(p))
    .map((p) => p.slice('.github/workflows/'.length))
    .sort();
  const ci = [
    ...(workflows.length ? [{ provider: 'github_actions', config: '.github/workflows' }] : []),
    ...CI_FILES.filter(([f]) => seen.has(f)).map(([config, provider]) => ({ provider, config })),
  ];
  const readme = [...seen].find((p) => /^readme(\.[a-z]+)?$/i.test(p)) ?? null;
  let excerpt: string | null = null;
  if (readme) {
    const head = readHead(root, readme);
    excerpt = head === undefined ? null : readmeExcerpt(head);
  }
  return {
    stack_hints: [...hints.values()],
    ci,
    workflows,
    readme,
    readme_excerpt: excerpt,
    top_level: top.slice(0, TOP_LEVEL_MAX),
    agent_files: AGENT_FILES.filter((f) => seen.has(f)),
    seen,
  };
}
