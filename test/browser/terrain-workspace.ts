// Workspaces for the Repository Terrain tests and bench:
// - varyDemo: the demo with real git states for every layer (local work, a feature branch, behind its remote,
//   a merge conflict, an AGENTS.md), made with git itself in the checkouts;
// - writeTerrainWorkspace: a .hub.yml of N url-only repositories across projects, with team tags (ownership),
//   declared CI, agent instructions and declared relationships (arcs), all visible at manifest detail;
// - fillLayers: turns an enriched terrain page of url-only rows (nothing on disk, so no git state) into one where
//   every layer has tiles, for drawing 5,000 tiles with every layer populated (route interception in the browser).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });

/** Commits one file change in a checkout of the demo (whose repos carry a local author). */
function commit(repo: string, file: string, text: string, message: string): void {
  writeFileSync(join(repo, file), text);
  git(repo, 'add', file);
  git(repo, 'commit', '-q', '-m', message);
}

/**
 * Gives the demo's checkouts the states the terrain draws: identity has uncommitted files (bulge), gateway is on a
 * feature branch with a change (branch colour), cloud-infra is two commits behind origin/main (depression),
 * storefront/catalog stopped on a merge conflict (cracks), storefront/web gains an AGENTS.md (agent marker).
 */
export function varyDemo(root: string): void {
  const identity = join(root, 'platform/identity');
  writeFileSync(join(identity, 'NOTES.md'), 'work in progress\n');
  writeFileSync(join(identity, 'TODO.md'), 'more\n');
  writeFileSync(join(identity, 'README.md'), '# identity\n\nLogin, sessions and tokens (edited).\n');

  const gateway = join(root, 'platform/gateway');
  git(gateway, 'checkout', '-q', '-b', 'feature/rate-limits');
  commit(gateway, 'LIMITS.md', 'rate limits\n', 'Sketch rate limits');
  writeFileSync(join(gateway, 'LIMITS.md'), 'rate limits, edited\n');

  const infra = join(root, 'platform/cloud-infra');
  git(infra, 'remote', 'add', 'origin', 'https://example.invalid/cloud-infra.git');
  git(infra, 'update-ref', 'refs/remotes/origin/main', 'HEAD');
  git(infra, 'reset', '-q', '--hard', 'HEAD~2');
  git(infra, 'branch', '-q', '--set-upstream-to=origin/main');

  const catalog = join(root, 'storefront/catalog');
  const main = git(catalog, 'rev-parse', '--abbrev-ref', 'HEAD').trim();
  git(catalog, 'checkout', '-q', '-b', 'clash');
  commit(catalog, 'README.md', '# catalog\n\nOne side.\n', 'One side');
  git(catalog, 'checkout', '-q', main);
  commit(catalog, 'README.md', '# catalog\n\nThe other side.\n', 'The other side');
  try {
    git(catalog, 'merge', '-q', 'clash');
  } catch {
    // The conflict is the point: the merge stops with README.md unmerged.
  }

  const web = join(root, 'storefront/web');
  commit(web, 'AGENTS.md', '# Agents\n\nRun npm test before handing off.\n', 'Add AGENTS.md');
}

export interface TerrainWorkspace {
  root: string;
  manifestPath: string;
  repos: number;
  projects: number;
  relationships: number;
}

const TEAMS = [
  'atlas',
  'borealis',
  'cobalt',
  'delta',
  'ember',
  'fjord',
  'granite',
  'harbor',
  'iris',
  'juniper',
];
const PROVIDERS = ['github_actions', 'gitlab_ci', 'circleci', 'jenkins'];

/**
 * Writes `<dir>/.hub.yml`: `repos` url-only repositories over `projects` projects (team tags on most repos, an
 * owner tag on some projects, CI declared on every third repo, agent instructions on every fifth) and one declared
 * relationship per 25 repositories, between neighbouring projects.
 */
export function writeTerrainWorkspace(dir: string, repos = 5000, projects = 25): TerrainWorkspace {
  mkdirSync(dir, { recursive: true });
  const per = Math.ceil(repos / projects);
  const lines = ['workspace:', '  name: terrain-5000', '  projects:'];
  const name = (p: number, r: number) => ({
    project: `proj-${String(p).padStart(2, '0')}`,
    repo: `svc-${r}`,
  });
  let made = 0;
  for (let p = 0; p < projects && made < repos; p++) {
    const { project } = name(p, 0);
    lines.push(
      `    - name: ${project}`,
      `      tags: { owner: ${TEAMS[(p * 3) % TEAMS.length]}-lead }`,
      '      repos:',
    );
    for (let r = 0; r < per && made < repos; r++, made++) {
      const { repo } = name(p, r);
      lines.push(`        - name: ${repo}`, `          url: https://git.example.com/${project}/${repo}.git`);
      // Teams in runs of a dozen repos: neighbouring tiles share an owner, so the heatmap shows territories.
      if (r % 37 !== 36)
        lines.push(`          tags: { team: ${TEAMS[(p + Math.floor(r / 12)) % TEAMS.length]} }`);
      if (r % 3 === 0) lines.push(`          ci: ${PROVIDERS[(p + r) % PROVIDERS.length]}`);
      if (r % 5 === 0) lines.push('          agent_instructions: Run the tests before handing off.');
    }
  }
  let relationships = 0;
  lines.push('graph:', '  relationships:');
  for (let k = 0; k < Math.floor(repos / 25); k++) {
    const p = k % projects;
    const q = (p + 1 + (k % 3)) % projects;
    const from = name(p, (k * 7) % per);
    const to = name(q, (k * 13) % per);
    if (from.project === to.project) continue;
    lines.push(
      `    - id: rel-${k}`,
      `      from: { project: ${from.project}, repo: ${from.repo} }`,
      `      to: { project: ${to.project}, repo: ${to.repo} }`,
      `      type: ${k % 11 === 0 ? 'deprecated' : 'calls'}`,
    );
    relationships++;
  }
  const manifestPath = join(dir, '.hub.yml');
  writeFileSync(manifestPath, `${lines.join('\n')}\n`);
  return { root: dir, manifestPath, repos: made, projects, relationships };
}

type Json = Record<string, unknown>;

/**
 * Every layer populated, deterministically by row position: git states in a cycle of nine (clean, local work,
 * behind, far behind, feature, hotfix, conflict, develop, missing), activity, CI beacons and agent readiness,
 * with the visual fields the server's rules would give them (docs/workspace.md "Visual rules").
 */
export function fillLayers(page: Json): Json {
  const nodes = page.nodes as Json[];
  const base = (page.offset as number) ?? 0;
  nodes.forEach((n, k) => {
    const i = base + k;
    const kind = i % 9;
    if (kind === 8) return;
    const branchKind = [
      'default',
      'default',
      'default',
      'default',
      'feature',
      'hotfix',
      'default',
      'develop',
    ][kind]!;
    const uncommitted = kind === 1 ? 1 + (i % 6) : kind === 4 ? 2 : kind === 6 ? 1 : 0;
    const behind = kind === 2 ? 1 + (i % 4) : kind === 3 ? 6 + (i % 12) : 0;
    const state = [
      'synced_main',
      'main_local_work',
      'behind_remote',
      'behind_heavy',
      'branch',
      'branch',
      'conflict',
      'branch',
    ][kind]!;
    const elevation =
      kind === 6 ? 0.16 * uncommitted + 0.45 : behind > 0 ? Math.max(-3, -0.14 * behind) : 0.16 * uncommitted;
    n.local_status = 'synced';
    n.exists = true;
    n.is_git_repo = true;
    n.git = {
      branch: branchKind === 'default' ? 'main' : `${branchKind}/x-${i}`,
      default_branch: 'main',
      branch_kind: branchKind,
      head: null,
      upstream: 'origin/main',
      ahead: 0,
      behind,
      dirty: uncommitted > 0,
      uncommitted_count: uncommitted,
      staged_count: 0,
      modified_count: uncommitted,
      untracked_count: 0,
      merge_conflicts: kind === 6 ? 1 : 0,
      detached_head: false,
      head_commit_at: null,
      head_commit_age_days: 1,
    };
    const level = (['active', 'recent', 'inactive', 'abandoned'] as const)[i % 4]!;
    const pulse = level === 'active' ? 0.35 + 0.08 * (1 + (i % 5)) : level === 'recent' ? 0.3 : 0;
    n.activity = {
      last_commit_at: null,
      commits_24h: 1,
      commits_7d: 3,
      commits_30d: 5,
      capped: false,
      level,
      pulse,
    };
    const readiness = (['ready', 'partial', 'none'] as const)[i % 3]!;
    n.agent = { ...(n.agent as Json), readiness, documentation_score: readiness === 'ready' ? 0.9 : 0.25 };
    n.ci = {
      ...(n.ci as Json),
      beacon: (['both', 'declared', 'mismatch', 'detected', 'none'] as const)[i % 5],
    };
    n.visual = {
      state,
      state_label: state,
      elevation,
      darken: kind === 2 ? 0.2 : kind === 3 ? 0.35 : 0,
      fade: level === 'abandoned' ? 0.35 : 0,
      crack: kind === 6 ? 1 : 0,
      pulse,
      color: state === 'branch' ? `branch_${branchKind}` : state,
    };
  });
  return page;
}
