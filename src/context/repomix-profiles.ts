/** Snapshot profiles: which files of a repository matter for a kind of task, and in which order. */
export const REPOMIX_PROFILES = ['bugfix-local', 'config-edit', 'cross-repo-impact'] as const;
export type RepomixProfile = (typeof REPOMIX_PROFILES)[number];

const LOCKFILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'Cargo.lock',
  'poetry.lock',
  'uv.lock',
  'Pipfile.lock',
  'go.sum',
  'composer.lock',
  'Gemfile.lock',
]);

const BUILD_MANIFESTS = new Set([
  'package.json',
  'tsconfig.json',
  'pyproject.toml',
  'setup.py',
  'setup.cfg',
  'requirements.txt',
  'go.mod',
  'Cargo.toml',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'settings.gradle',
  'Gemfile',
  'composer.json',
  'mix.exs',
  'Package.swift',
  'CMakeLists.txt',
  'Makefile',
  'Dockerfile',
]);

const SOURCE_EXT =
  /\.(ts|tsx|js|jsx|mjs|cjs|py|go|rs|java|kt|kts|scala|rb|php|cs|fs|c|h|cc|cpp|hpp|swift|m|mm|sh|bash|sql|vue|svelte|ex|exs|erl|clj|lua|dart|r|pl|hs|ml|zig)$/i;
const CONFIG_EXT = /\.(ya?ml|json|jsonc|toml|ini|cfg|conf|properties|tf|tfvars|hcl|env\.example|xml)$/i;
const CONFIG_NAMES = new Set([
  'Dockerfile',
  'Makefile',
  'Jenkinsfile',
  '.editorconfig',
  '.gitlab-ci.yml',
  '.env.example',
  '.npmrc',
  '.nvmrc',
  '.tool-versions',
  'Procfile',
]);
const API_SPEC = /(^|\/)(openapi|swagger|asyncapi)[^/]*\.(ya?ml|json)$|\.(proto|graphql|gql|avsc|thrift)$/i;
const ENTRY_POINT =
  /(^|\/)(index\.(ts|tsx|js|mjs)|main\.(go|ts|js|py|rs)|lib\.rs|mod\.rs|__init__\.py|api\.(ts|py|go))$/;
const TEST_PATH = /(^|\/)(tests?|__tests__|spec)\/|\.(test|spec)\.[a-z]+$|_test\.go$|(^|\/)test_[^/]+\.py$/;
const README = /(^|\/)readme(\.[a-z]+)?$/i;
const CHANGELOG = /(^|\/)(changelog|changes|history)(\.[a-z]+)?$/i;

const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** Where a file stands for a profile: skipped, or included with a priority (lower first) and a reason. */
export type Pick = { priority: number; reason: string } | null;

export interface PickContext {
  /** Paths with uncommitted changes. */
  dirty: ReadonlySet<string>;
  /** Paths touched by recent commits. */
  recent: ReadonlySet<string>;
}

export function isLockfile(path: string): boolean {
  return LOCKFILES.has(base(path));
}

function isConfig(path: string): boolean {
  const b = base(path);
  return (
    CONFIG_NAMES.has(b) ||
    BUILD_MANIFESTS.has(b) ||
    CONFIG_EXT.test(b) ||
    path.startsWith('.github/workflows/') ||
    /^docker-compose|^compose\./.test(b)
  );
}

function bugfixLocal(path: string, ctx: PickContext): Pick {
  const b = base(path);
  const source = SOURCE_EXT.test(b);
  const relevant = source || BUILD_MANIFESTS.has(b) || README.test(path);
  if (!relevant) return null;
  if (ctx.dirty.has(path)) return { priority: 0, reason: 'uncommitted change' };
  if (ctx.recent.has(path)) return { priority: 1, reason: 'recently changed' };
  if (README.test(path) && !path.includes('/')) return { priority: 2, reason: 'readme' };
  if (BUILD_MANIFESTS.has(b)) return { priority: 2, reason: 'build manifest' };
  if (TEST_PATH.test(path)) return { priority: 3, reason: 'test' };
  if (source) return { priority: 4, reason: 'source' };
  return null;
}

function configEdit(path: string, ctx: PickContext): Pick {
  const rootReadme = README.test(path) && !path.includes('/');
  if (!isConfig(path) && !rootReadme) return null;
  if (rootReadme) return { priority: 2, reason: 'readme' };
  if (ctx.dirty.has(path)) return { priority: 0, reason: 'uncommitted change' };
  if (ctx.recent.has(path)) return { priority: 1, reason: 'recently changed' };
  if (!path.includes('/')) return { priority: 2, reason: 'root config' };
  if (path.startsWith('.github/') || base(path) === '.gitlab-ci.yml')
    return { priority: 3, reason: 'ci config' };
  return { priority: 4, reason: 'config' };
}

function crossRepoImpact(path: string, _ctx: PickContext): Pick {
  const b = base(path);
  if (API_SPEC.test(path)) return { priority: 0, reason: 'api contract' };
  if (BUILD_MANIFESTS.has(b) && b !== 'Makefile' && b !== 'Dockerfile')
    return { priority: 1, reason: 'package manifest' };
  if ((README.test(path) || CHANGELOG.test(path)) && path.split('/').length <= 3)
    return { priority: 2, reason: README.test(path) ? 'readme' : 'changelog' };
  if (ENTRY_POINT.test(path) && !TEST_PATH.test(path)) return { priority: 3, reason: 'entry point' };
  return null;
}

const PICKERS: Record<RepomixProfile, (path: string, ctx: PickContext) => Pick> = {
  'bugfix-local': bugfixLocal,
  'config-edit': configEdit,
  'cross-repo-impact': crossRepoImpact,
};

/** Whether and how a profile picks a repository-relative path; lockfiles are never picked. */
export function pickFile(profile: RepomixProfile, path: string, ctx: PickContext): Pick {
  if (isLockfile(path)) return null;
  return PICKERS[profile](path, ctx);
}
