/** What a command is for: the three an agent needs before it changes a repository. */
export const COMMAND_KINDS = ['build', 'test', 'lint'] as const;
export type CommandKind = (typeof COMMAND_KINDS)[number];

/** A command a repository declares (or its toolchain implies), with where that was read. */
export interface DeclaredCommand {
  /** build, test or lint; absent for a manifest command whose name says none of them. */
  kind?: CommandKind;
  /**
   * The manifest's name for it, when the name is not its kind (manifest commands only: elsewhere the command
   * line says it).
   */
  name?: string;
  /** The command line, run from `dir`. */
  command: string;
  /** Repository-relative folder to run it from; absent for the repository root. */
  dir?: string;
  /**
   * Where it came from: `manifest` (a component's `commands`), or a repository-relative file with its line when
   * known (`package.json:7`, `Makefile:12`, `.github/workflows/ci.yml:31`), or the marker file a toolchain's
   * convention rests on (`go.mod`, `Cargo.toml`).
   */
  source: string;
}

/** Words that say what a script, target, session or command line is for; the first word that says wins. */
const WORDS: Record<string, CommandKind> = {
  test: 'test',
  tests: 'test',
  spec: 'test',
  specs: 'test',
  unit: 'test',
  e2e: 'test',
  integration: 'test',
  coverage: 'test',
  cov: 'test',
  pytest: 'test',
  jest: 'test',
  vitest: 'test',
  mocha: 'test',
  ava: 'test',
  tap: 'test',
  ctest: 'test',
  phpunit: 'test',
  rspec: 'test',
  tox: 'test',
  nox: 'test',
  lint: 'lint',
  linter: 'lint',
  eslint: 'lint',
  stylelint: 'lint',
  ruff: 'lint',
  flake8: 'lint',
  pylint: 'lint',
  mypy: 'lint',
  pyright: 'lint',
  black: 'lint',
  isort: 'lint',
  clippy: 'lint',
  golangci: 'lint',
  vet: 'lint',
  fmt: 'lint',
  format: 'lint',
  prettier: 'lint',
  biome: 'lint',
  typecheck: 'lint',
  types: 'lint',
  type: 'lint',
  typing: 'lint',
  shellcheck: 'lint',
  check: 'lint',
  style: 'lint',
  build: 'build',
  compile: 'build',
  bundle: 'build',
  dist: 'build',
  package: 'build',
  webpack: 'build',
  rollup: 'build',
  esbuild: 'build',
  tsc: 'build',
};

/** Splits a name or command line into lower-case words (`test:unit` -> test, unit; `golangci-lint` -> golangci, lint). */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** What a name (script, target, environment, session) or a command line is for, or undefined. */
export function kindOf(text: string): CommandKind | undefined {
  const ws = words(text);
  // `tsc --noEmit` checks types, it builds nothing.
  if (ws[0] === 'tsc' && ws.includes('noemit')) return 'lint';
  for (const w of ws) {
    const k = WORDS[w];
    if (k) return k;
  }
  return undefined;
}

/** First words of lines that set a machine up rather than build, test or lint it. */
const SETUP_FIRST = new Set([
  'echo',
  'printf',
  'export',
  'cd',
  'mkdir',
  'cp',
  'mv',
  'rm',
  'ls',
  'cat',
  'curl',
  'wget',
  'apt',
  'apt-get',
  'brew',
  'git',
  'corepack',
  'source',
  'set',
]);
/** Second words that make a package manager's line an installation (`npm ci`, `pip install`, `uv sync`). */
const SETUP_SECOND = new Set(['install', 'ci', 'i', 'sync', 'download', 'fetch', 'add', 'setup', 'update']);

function segmentKind(segment: string): CommandKind | undefined {
  const parts = segment
    .trim()
    .split(/\s+/)
    .filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w) && w !== 'sudo');
  const first = parts[0]?.toLowerCase();
  if (!first || SETUP_FIRST.has(first) || parts.some((w) => w.toLowerCase() === 'install')) return undefined;
  const second = parts[1]?.toLowerCase();
  if (second && SETUP_SECOND.has(second)) return undefined;
  if (first === 'go' && second === 'mod') return undefined;
  return kindOf(parts.join(' '));
}

/**
 * What one shell line of a CI job is for: the first part of a `&&` or `;` chain that is not set-up (installs,
 * echo, cd, downloads) decides, so `npm ci && npm test` is a test, and a line that installs test dependencies
 * (`pip install -e .[test]`) is none.
 */
export function kindOfLine(line: string): CommandKind | undefined {
  for (const segment of line.split(/&&|;|\|\|/)) {
    const k = segmentKind(segment);
    if (k) return k;
  }
  return undefined;
}
