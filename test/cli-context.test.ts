import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { findRipgrep } from '../src/workspace/index.js';
import { createTempDir, git, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

let dir: string;
let root: string;
let manifest: string;

beforeAll(() => {
  dir = createTempDir('hub-ctx-');
  const demo = createDemo(join(dir, 'demo'));
  root = demo.root;
  manifest = demo.manifestPath;
});
afterAll(() => removeTempDir(dir));

const hub = (args: string[], env: Record<string, string> = {}) => runHub(['-c', manifest, ...args], { env });
/** Runs a --json command and checks that token_estimate is the exact count of what was printed. */
function pack(args: string[]) {
  const r = hub([...args, '--json']);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  const p = r.json();
  expect(countTokens(r.stdout.trimEnd())).toBe(p.token_estimate);
  return p;
}

describe('context pack tiers on the demo workspace', () => {
  it('tier 0 is a map of 100-400 tokens', () => {
    const p = pack(['context', 'pack', '--tier', '0']);
    expect(p.token_estimate).toBeGreaterThanOrEqual(100);
    expect(p.token_estimate).toBeLessThanOrEqual(400);
    expect(p).toMatchObject({
      ok: true,
      tier: 0,
      workspace_name: 'demo',
      cards: [],
      digest: null,
      dropped_sections: [],
    });
    expect(p.map).toMatchObject({
      total: 6,
      truncated: false,
      next_offset: null,
      counts: { projects: 2, repos: 6 },
    });
    expect(p.map.repos.find((r: { repo: string }) => r.repo === 'legacy-billing')).toMatchObject({
      status: 'missing',
      exists: false,
    });
  });

  it('tier 1 adds one card per repository, 200-600 tokens for each checked-out one', () => {
    const p = pack(['context', 'pack', '--tier', '1']);
    expect(p.cards).toHaveLength(6);
    for (const card of p.cards) {
      const n = countTokens(JSON.stringify(card));
      if (card.exists) {
        expect(n, card.repo).toBeGreaterThanOrEqual(200);
        expect(n, card.repo).toBeLessThanOrEqual(600);
      } else expect(card.health_flags).toEqual(['missing_checkout']);
    }
    const mean =
      p.cards.reduce((s: number, c: object) => s + countTokens(JSON.stringify(c)), 0) / p.cards.length;
    expect(mean).toBeGreaterThanOrEqual(200);
  });

  it('cards name their edges and their commands, each with its source', () => {
    const p = pack(['context', 'pack', '--tier', '1']);
    const web = p.cards.find((c: { repo: string }) => c.repo === 'web');
    expect(web.edges.out).toContainEqual({
      repo: 'platform/identity',
      type: 'depends_on',
      source: 'inferred',
      label: 'npm @example/identity-sdk',
      evidence: 'apps/storefront/package.json:13',
    });
    expect(web.edges.out).toContainEqual(
      expect.objectContaining({ repo: 'platform/gateway', type: 'calls', source: 'manual' }),
    );
    expect(web.commands).toContainEqual({
      kind: 'test',
      command: 'npm test',
      dir: 'apps/storefront',
      source: 'manifest',
    });
    expect(web.commands).toContainEqual(
      expect.objectContaining({ kind: 'test', source: '.github/workflows/web.yml:11' }),
    );
    const identity = p.cards.find((c: { repo: string }) => c.repo === 'identity');
    expect(identity.edges.in.map((e: { repo: string }) => e.repo)).toEqual([
      'platform/gateway',
      'storefront/web',
    ]);
    expect(identity.commands).toContainEqual({
      kind: 'lint',
      command: 'go vet ./...',
      dir: 'services/api',
      source: 'services/api/go.mod',
    });
  });

  it('without --json prints the pack as Markdown, the three-line summary at the end', () => {
    const r = hub(['context', 'pack', '--tier', '1', '--project', 'storefront']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^# Context pack: demo \(tier 1\)\n/);
    expect(r.stdout).toContain('## storefront/web');
    expect(r.stdout).toContain('- test: `npm test` in `apps/storefront`, from `manifest`');
    expect(r.stdout).toContain(
      '- -> platform/identity depends_on (inferred; npm @example/identity-sdk; `apps/storefront/package.json:13`)',
    );
    const tail = r.stdout.trimEnd().split('\n').slice(-4);
    expect(tail[0]).toBe('');
    expect(tail[1]).toMatch(/^tier 1 pack of demo: \d+ tokens$/);
    expect(tail[2]).toMatch(/^map: 2 of 2 repos from 0; cards: storefront\/web, storefront\/catalog$/);
    expect(tail[3]).toBe('dropped: nothing');
  });

  it('pages the map: truncated, next_offset, --map-offset', () => {
    const first = pack(['context', 'pack', '--tier', '0', '--max-map-repos', '4']);
    expect(first.map).toMatchObject({ truncated: true, next_offset: 4, limit: 4 });
    expect(first.map.repos).toHaveLength(4);
    const next = pack(['context', 'pack', '--tier', '0', '--max-map-repos', '4', '--map-offset', '4']);
    expect(next.map.repos.map((r: { repo: string }) => r.repo)).toEqual(['web', 'catalog']);
    expect(next.map).toMatchObject({ truncated: false, next_offset: null });
    const scoped = pack(['context', 'pack', '--tier', '1', '--project', 'storefront', '--repo', 'web']);
    expect(scoped.cards.map((c: { repo: string }) => c.repo)).toEqual(['web']);
    expect(scoped.map.active_project).toBe('storefront');
  });

  it('--max-tokens is a hard ceiling on the printed JSON, and says what it dropped', () => {
    for (const budget of [2500, 1500, 900, 600, 450]) {
      const r = hub(['context', 'pack', '--tier', '1', '--max-tokens', String(budget), '--json']);
      expect(r.code, r.stdout).toBe(0);
      const p = r.json();
      const n = countTokens(r.stdout.trimEnd());
      expect(n).toBe(p.token_estimate);
      expect(n).toBeLessThanOrEqual(budget);
      expect(p.max_tokens).toBe(budget);
      if (budget < 2000) expect(p.dropped_sections.length).toBeGreaterThan(0);
      // Never an empty pack: the first card and the first map row stay.
      expect(p.cards.length).toBeGreaterThanOrEqual(1);
      expect(p.map.repos.length).toBeGreaterThanOrEqual(1);
    }
    const tiny = hub(['context', 'pack', '--tier', '0', '--max-tokens', '10', '--json']);
    expect(tiny.code).toBe(1);
    expect(tiny.json().error).toMatchObject({ code: 'validation', details: { rule: 'budget_too_small' } });
  });

  it('--max-tokens below the smallest useful pack is an error naming the smallest budget that works', () => {
    for (const tier of ['0', '1']) {
      const r = hub(['context', 'pack', '--tier', tier, '--max-tokens', '100', '--json']);
      expect(r.code, r.stdout).toBe(1);
      const { error } = r.json();
      expect(error).toMatchObject({
        code: 'validation',
        details: { field: 'max_tokens', value: 100, rule: 'budget_too_small' },
      });
      const minimum: number = error.details.minimum;
      expect(error.message).toContain(`${minimum}`);
      const smallest = pack(['context', 'pack', '--tier', tier, '--max-tokens', String(minimum)]);
      expect(smallest.token_estimate).toBeLessThanOrEqual(minimum);
      expect(smallest.map.repos).toHaveLength(1);
      expect(smallest.cards).toHaveLength(Number(tier));
      expect(
        hub(['context', 'pack', '--tier', tier, '--max-tokens', String(minimum - 1), '--json']).code,
      ).toBe(1);
    }
  });
});

describe('repo cards from real git state', () => {
  it('shows dirty, ahead and the head commit', () => {
    const repo = join(root, 'storefront/catalog');
    const origin = join(dir, 'catalog-origin.git');
    execFileSync('git', ['init', '-q', '--bare', origin]);
    git(repo, ['remote', 'add', 'origin', origin]);
    git(repo, ['push', '-q', '-u', 'origin', 'main']);
    writeFileSync(join(repo, 'CHANGES.md'), 'x\n');
    git(repo, ['add', '.']);
    git(repo, ['commit', '-q', '-m', 'Note the changes']);
    writeFileSync(join(repo, 'scratch.py'), 'wip\n');
    const card = pack(['context', 'repo-card', '--project', 'storefront', '--repo', 'catalog']);
    expect(card).toMatchObject({
      branch: 'main',
      dirty: true,
      changes: 1,
      ahead: 1,
      behind: 0,
      head_commit_age_days: 0,
    });
    expect(card.last_commit.subject).toBe('Note the changes');
    expect(card.health_flags).toEqual(expect.arrayContaining(['uncommitted_changes', 'unpushed_commits']));
    expect(card.stack_hints.map((h: { stack: string }) => h.stack)).toEqual(['python']);
    expect(hub(['context', 'repo-card', '--project', 'storefront', '--repo', 'nope', '--json']).code).toBe(1);
  });
});

describe('tier 2', () => {
  it('digests changes since the last session and moves the session boundary', () => {
    const first = pack(['context', 'pack', '--tier', '2', '--project', 'platform']);
    expect(first.digest.first_session).toBe(true);
    const repo = join(root, 'platform/gateway');
    writeFileSync(join(repo, 'NOTES.md'), 'n\n');
    git(repo, ['add', '.']);
    git(repo, ['commit', '-q', '-m', 'Add gateway notes']);
    const second = pack(['context', 'pack', '--tier', '2', '--project', 'platform']);
    expect(second.digest.first_session).toBe(false);
    expect(second.digest.repo_changes).toEqual([
      {
        repository: 'platform/gateway',
        commit_count: 1,
        recent_subjects: ['Add gateway notes'],
        dirty: false,
      },
    ]);
    const third = pack(['context', 'pack', '--tier', '2', '--project', 'platform']);
    expect(third.digest.repo_changes).toEqual([]);
    expect(
      hub(['session', 'digest', '--project', 'platform', '--json'])
        .json()
        .repo_changes.every((c: { commit_count: number }) => c.commit_count === 0),
    ).toBe(true);
  });
});

describe('context compile', () => {
  it('adds component, component_graph and effective_profile; depth defaults to 0 and caps at 5', () => {
    const p = pack([
      'context',
      'compile',
      '--project',
      'platform',
      '--repo',
      'identity',
      '--component',
      'auth-plugin',
    ]);
    expect(p.scope).toEqual({ project: 'platform', repo: 'identity' });
    expect(p.component.id).toBe('platform/identity/auth-plugin');
    expect(p.component_graph).toMatchObject({ depth: 0, edges: [] });
    expect(p.effective_profile.skills).toEqual(['code-review', 'terraform-review', 'threat-modeling']);
    // The component's own commands and its neighbours in the workspace graph.
    expect(p.component_commands).toEqual([
      {
        kind: 'build',
        command: 'go build ./...',
        dir: 'services/api/plugins/auth',
        source: 'services/api/plugins/auth/go.mod',
      },
      {
        kind: 'test',
        command: 'go test ./...',
        dir: 'services/api/plugins/auth',
        source: 'services/api/plugins/auth/go.mod',
      },
      {
        kind: 'lint',
        command: 'go vet ./...',
        dir: 'services/api/plugins/auth',
        source: 'services/api/plugins/auth/go.mod',
      },
    ]);
    expect(p.component_neighbors).toEqual({ out: [], in: [] });
    expect(p.cards.map((c: { repo: string }) => c.repo)).toEqual(['identity']);
    const deep = pack([
      'context',
      'compile',
      '--project',
      'platform',
      '--repo',
      'identity',
      '--component',
      'api',
      '--depth',
      '9',
    ]);
    expect(deep.component_graph.depth).toBe(5);
    expect(deep.component_neighbors.in).toEqual([
      {
        repo: 'platform/gateway',
        type: 'calls',
        source: 'manual',
        relationship_id: 'gateway-calls-identity',
        from_component: 'gateway',
        to_component: 'api',
      },
    ]);
    expect(deep.component_commands.map((c: { source: string }) => c.source)).toEqual([
      'manifest',
      'manifest',
      'services/api/go.mod',
    ]);
    const plain = pack(['context', 'compile', '--project', 'platform', '--repo', 'identity']);
    expect(plain.component).toBeUndefined();
    expect(plain.effective_profile).toBeUndefined();
  });

  it('errors on an unknown component or a disagreeing id, with no fallback to the repository', () => {
    const unknown = hub([
      'context',
      'compile',
      '--project',
      'platform',
      '--repo',
      'identity',
      '--component',
      'nope',
      '--json',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.json().error.code).toBe('not_found');
    const other = hub([
      'context',
      'compile',
      '--project',
      'platform',
      '--repo',
      'identity',
      '--component',
      'platform/gateway/gateway',
      '--json',
    ]);
    expect(other.code).toBe(1);
    expect(other.json().error).toMatchObject({ code: 'validation', details: { rule: 'id_scope_mismatch' } });
  });

  it('keeps a compiled pack under --budget', () => {
    const p = pack([
      'context',
      'compile',
      '--project',
      'platform',
      '--repo',
      'identity',
      '--component',
      'api',
      '--depth',
      '2',
      '--budget',
      '700',
    ]);
    expect(p.token_estimate).toBeLessThanOrEqual(700);
    expect(p.component.id).toBe('platform/identity/api');
    expect(p.component_commands.length).toBeGreaterThan(0);
    const small = hub([
      'context',
      'compile',
      '--project',
      'platform',
      '--repo',
      'identity',
      '--budget',
      '50',
      '--json',
    ]);
    expect(small.code).toBe(1);
    expect(small.json().error.details).toMatchObject({ field: 'budget', rule: 'budget_too_small' });
  });
});

describe('context switch', () => {
  it('prints exports, a prompt, an objective and a tiered pack', () => {
    const obj = hub([
      'context',
      'objective',
      'set',
      '--id',
      'ship-sdk',
      '--title',
      'Ship the SDK',
      '--status',
      'in_progress',
      '--repos',
      'platform/identity',
      '--json',
    ]);
    expect(obj.code, obj.stderr).toBe(0);
    const r = hub(['context', 'switch', 'platform', 'identity', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = r.json();
    expect(s.env).toMatchObject({
      HUB_PROJECT: 'platform',
      HUB_REPO: 'identity',
      HUB_REPO_PATH: join(root, 'platform/identity'),
    });
    expect(s.exports).toContain("export HUB_PROJECT='platform'");
    expect(s.objective).toMatchObject({ id: 'ship-sdk', title: 'Ship the SDK' });
    expect(s.prompt).toContain('Objective ship-sdk');
    expect(s.prompt).toContain('Never log tokens');
    // The hand-over names the repository's commands and its edges, each with where it came from.
    expect(s.prompt).toContain('Commands: build `go build ./...` in services/api (manifest)');
    expect(s.prompt).toContain('used by: platform/gateway (calls), storefront/web (depends_on)');
    expect(s.pack).toMatchObject({ tier: 1, cards: [expect.objectContaining({ repo: 'identity' })] });
    const human = hub(['context', 'switch', 'storefront']);
    expect(human.stdout).toMatch(/^export HUB_DEFINITION=/);
    expect(human.stdout).toContain('# You are now working in project storefront.');
    expect(hub(['context', 'pack', '--tier', '0', '--json']).json().map.active_project).toBe('storefront');
    expect(hub(['context', 'switch', 'nope', '--json']).code).toBe(1);
  });
});

describe('context repomix', () => {
  it('snapshots the files of a profile, honouring .gitignore and the ceiling', () => {
    const repo = join(root, 'storefront/web');
    writeFileSync(join(repo, '.gitignore'), 'secret.ts\n');
    writeFileSync(join(repo, 'apps/storefront/src/secret.ts'), 'export const key = 1;\n');
    mkdirSync(join(repo, 'node_modules/x'), { recursive: true });
    writeFileSync(join(repo, 'node_modules/x/index.ts'), 'export {};\n');
    const r = hub([
      'context',
      'repomix',
      '--profile',
      'bugfix-local',
      '--project',
      'storefront',
      '--repo',
      'web',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const s = r.json();
    const paths = s.files.map((f: { path: string }) => f.path);
    expect(paths).toContain('apps/storefront/src/main.ts');
    expect(paths).not.toContain('apps/storefront/src/secret.ts');
    expect(paths.some((p: string) => p.startsWith('node_modules'))).toBe(false);
    expect(countTokens(s.text)).toBe(s.total_tokens);
    const small = hub([
      'context',
      'repomix',
      '--profile',
      'bugfix-local',
      '--project',
      'storefront',
      '--repo',
      'web',
      '--max-tokens',
      '100',
    ]);
    expect(small.code).toBe(0);
    expect(countTokens(small.stdout.replace(/\n$/, ''))).toBeLessThanOrEqual(100);
    const bad = hub([
      'context',
      'repomix',
      '--profile',
      'everything',
      '--project',
      'storefront',
      '--repo',
      'web',
    ]);
    expect(bad.code).not.toBe(0);
  });
});

describe('workspace introspection', () => {
  it('summary scores readiness and exits 0 even when low', () => {
    const r = hub(['workspace', 'summary', '--json']);
    expect(r.code).toBe(0);
    const s = r.json();
    expect(s.score).toBeGreaterThanOrEqual(0);
    expect(s.score).toBeLessThanOrEqual(100);
    expect(['excellent', 'good', 'fair', 'poor']).toContain(s.grade);
    expect(s.dimensions).toHaveLength(4);
    const empty = createTempDir('hub-nomanifest-');
    const none = runHub(['workspace', 'summary', '--json'], { cwd: empty });
    expect(none.code).toBe(0);
    expect(none.json()).toMatchObject({ score: 0, grade: 'poor', gate: 'inactive_missing_config' });
    removeTempDir(empty);
  });

  it('workspace health exits 1 when unhealthy (a critical finding), 0 when healthy or degraded, JSON either way', () => {
    const demo = createDemo(join(dir, 'health-demo'));
    const check = (args: string[] = []) => runHub(['-c', demo.manifestPath, 'workspace', 'health', ...args]);
    expect(check().code).toBe(0);
    // A detached HEAD is a warning: degraded, still exit 0.
    const web = join(demo.root, 'storefront', 'web');
    git(web, ['checkout', '-q', '--detach', 'HEAD~1']);
    const degraded = check(['--json']);
    expect(degraded.json().status).toBe('degraded');
    expect(degraded.code).toBe(0);
    // A folder where the url-only repository checks out, but no git repository in it: critical.
    mkdirSync(join(demo.root, 'platform', 'legacy-billing'));
    const bad = check(['--json']);
    expect(bad.json()).toMatchObject({ status: 'unhealthy', counts: { critical: 1 } });
    expect(bad.code).toBe(1);
    const human = check();
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/^unhealthy: 1 critical/);
    expect(check(['--no-git']).code).toBe(1);
  });

  it('health and list', () => {
    const h = hub(['workspace', 'health', '--json']);
    expect(h.code).toBe(0);
    expect(h.json()).toMatchObject({ ok: true, git_checked: true, repos_checked: 6 });
    expect(hub(['workspace', 'health', '--no-git', '--json']).json().git_checked).toBe(false);
    const l = hub(['workspace', 'list', '--limit', '2', '--json']).json();
    expect(l).toMatchObject({ total: 6, next_offset: 2, truncated: true });
    expect(l.workspace).toBeUndefined();
    expect(hub(['workspace', 'list', '--include-workspace', '--json']).json().workspace.name).toBe('demo');
  });

  const backends = [['builtin'], ...(findRipgrep(process.env.PATH) ? [['ripgrep']] : [])];
  it.each(backends)('grep with the %s backend, and grep info', (backend) => {
    const env = { HUB_GREP_BACKEND: backend };
    const r = hub(['workspace', 'grep', 'Provider', '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const g = r.json();
    expect(g.backend).toBe(backend);
    expect(g.matches.map((m: { path: string; line: number }) => `${m.path}:${m.line}`)).toEqual([
      'services/api/plugins/auth/oauth.go:3',
      'services/api/plugins/auth/oauth.go:4',
      'services/api/plugins/auth/oauth.go:6',
    ]);
    const scoped = hub(['workspace', 'grep', 'Provider', '--project', 'storefront', '--json'], env).json();
    expect(scoped.matches).toEqual([]);
    const info = hub(['workspace', 'grep', 'info', '--json'], env).json();
    expect(info.backend).toBe(backend);
    expect(info.excluded_dirs).toEqual(
      expect.arrayContaining(['node_modules', '.venv', 'venv', 'vendor', 'target', 'dist']),
    );
    const word = hub(['workspace', 'grep', '--q', 'info', '--json'], env).json();
    expect(word.query).toBe('info');
    expect(hub(['workspace', 'grep', '--json']).code).toBe(1);
  });
});
