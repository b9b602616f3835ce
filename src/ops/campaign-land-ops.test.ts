// campaign land and campaign plan over a real workspace: a campaign file with three rows, real repositories, the
// train landing them (or nothing), rows set to merged in the file with its comments kept, and the plan's graph.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { branchWith, buildWorkspace, git, headOfBranch, removeTempDir } from '../../test/fixtures/index.js';
import { HubError } from '../infra/index.js';
import { campaignLand, campaignPlan } from './campaign-land-ops.js';
import { campaignExpand, campaignStatus, campaignValidate } from './campaign-ops.js';
import { createContext } from './create-context.js';
import { invoke } from './invoke.js';
import { objectiveList } from './objective-ops.js';
import type { AnyOperation } from './registry.js';
import { taskReady } from './task-ops.js';

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) removeTempDir(t);
});

const REPOS = ['api', 'web', 'worker'];

function workspace(extraRow = '') {
  const ws = buildWorkspace({
    projects: [
      { name: 'shop', repos: REPOS.map((name) => ({ name, files: { 'config.yml': 'flag: old\n' } })) },
    ],
  });
  temps.push(ws.root);
  writeFileSync(join(ws.root, 'hub.config.yaml'), 'state:\n  backend: local\n');
  for (const r of REPOS) {
    const dir = ws.repoDirs[`shop/${r}`]!;
    git(dir, ['branch', 'integration']);
    branchWith(dir, 'campaign/rename-flag', 'main', { 'config.yml': 'flag: new\n' });
  }
  mkdirSync(join(ws.root, '_campaigns'));
  const file = join(ws.root, '_campaigns', 'rename-flag.yml');
  writeFileSync(
    file,
    `# the flag rename, reviewed in PR 12
schema_version: '1.0'
slug: rename-flag
title: Rename the flag
status: active
reference_impl: shop/api
reference_first: true
repos:
  - project: shop
    repo: api
    status: mr-open # reference
    budget: 3000
  - project: shop
    repo: web
    status: routed
    patterns: ['src/**']
  - project: shop
    repo: worker
    status: routed
${extraRow}`,
  );
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever result the operation returned.
  const run = (op: AnyOperation, input: Record<string, unknown>): Promise<any> =>
    invoke(
      op,
      createContext({ cwd: ws.root, env: { HUB_CACHE_DIR: 'off' }, definition: ws.manifestPath }),
      input,
    );
  const heads = () => REPOS.map((r) => headOfBranch(ws.repoDirs[`shop/${r}`]!, 'integration'));
  return { ...ws, file, run, heads };
}

describe('campaign land', () => {
  it('lands every row as one train and sets the rows to merged, keeping the file’s comments', async () => {
    const w = workspace();
    const before = w.heads();
    const plan = await w.run(campaignLand, { slug: 'rename-flag', into: 'integration', dry_run: true });
    expect(plan.rows.map((r: { outcome: string }) => r.outcome)).toEqual([
      'would_merge',
      'would_merge',
      'would_merge',
    ]);
    expect(w.heads()).toEqual(before);
    const r = await w.run(campaignLand, { slug: 'rename-flag', into: 'integration' });
    expect(r).toMatchObject({
      slug: 'rename-flag',
      landed: true,
      moved: 3,
      rows_merged: ['shop/api', 'shop/web', 'shop/worker'],
    });
    expect(r.rows.map((x: { branch: string }) => x.branch)).toEqual(Array(3).fill('campaign/rename-flag'));
    for (const [i, h] of w.heads().entries()) expect(h).not.toBe(before[i]);
    const text = readFileSync(w.file, 'utf8');
    expect(text).toContain('# the flag rename, reviewed in PR 12');
    expect(text).toContain('status: merged # reference');
    expect(text.match(/status: merged/g)).toHaveLength(3);
    const again = await w
      .run(campaignLand, { slug: 'rename-flag', into: 'integration' })
      .catch((e: HubError) => e);
    expect(again).toBeInstanceOf(HubError);
    expect((again as HubError).details).toMatchObject({ field: 'slug', rule: 'a row not merged' });
  });

  it('one row conflicting: nothing moves and no row changes', async () => {
    const w = workspace();
    const web = w.repoDirs['shop/web']!;
    branchWith(web, 'integration', 'integration', { 'config.yml': 'flag: theirs\n' });
    const before = w.heads();
    const text = readFileSync(w.file, 'utf8');
    const r = await w.run(campaignLand, { slug: 'rename-flag', into: 'integration' });
    expect(r).toMatchObject({ landed: false, moved: 0, stopped_by: ['shop/web'], rows_merged: [] });
    expect(r.rows[1].cause).toMatchObject({ code: 'conflict', files: ['config.yml'] });
    expect(w.heads()).toEqual(before);
    expect(readFileSync(w.file, 'utf8')).toBe(text);
  });
});

describe('campaign plan', () => {
  it('makes the task graph: the reference first, the others after it, each with its patterns and budget', async () => {
    const w = workspace();
    const dry = await w.run(campaignPlan, { slug: 'rename-flag', dry_run: true, budget: 8000 });
    expect(dry.plan.items).toEqual([
      expect.objectContaining({
        node_id: 'shop-api',
        repository: 'shop/api',
        patterns: ['**'],
        context_budget: 3000,
        priority: 100,
      }),
      expect.objectContaining({
        node_id: 'shop-web',
        patterns: ['src/**'],
        context_budget: 8000,
        depends_on: ['shop-api'],
      }),
      expect.objectContaining({ node_id: 'shop-worker', patterns: ['**'], depends_on: ['shop-api'] }),
    ]);
    const made = await w.run(campaignPlan, { slug: 'rename-flag' });
    expect(made.graph_id).toBe('campaign-rename-flag');
    expect(made.created.ready).toEqual(['shop-api']);
    const ready = await w.run(taskReady, { graph_id: 'campaign-rename-flag' });
    expect(JSON.stringify(ready)).toContain('shop-api');
    expect(JSON.stringify(ready)).not.toContain('shop-web');
    const flat = await w.run(campaignPlan, { slug: 'rename-flag', reference_first: false, dry_run: true });
    expect(flat.plan.items.every((i: { depends_on?: string[] }) => i.depends_on === undefined)).toBe(true);
  });
});

describe('campaign land and the row objectives', () => {
  it("moves each landed row's objective to done, as campaign set does", async () => {
    const w = workspace();
    const made = await w.run(campaignExpand, { slug: 'rename-flag' });
    expect(made.objectives).toHaveLength(3);
    const statusOf = async () =>
      Object.fromEntries(
        ((await w.run(objectiveList, { limit: 100 })).objectives as Array<{ id: string; status: string }>)
          .filter((o) => o.id.startsWith('campaign-rename-flag-'))
          .map((o) => [o.id, o.status]),
      );
    expect(Object.values(await statusOf())).not.toContain('done');
    await w.run(campaignLand, { slug: 'rename-flag', into: 'integration' });
    expect(await statusOf()).toEqual({
      'campaign-rename-flag-shop-api': 'done',
      'campaign-rename-flag-shop-web': 'done',
      'campaign-rename-flag-shop-worker': 'done',
    });
  });
});

describe('campaign status: the combined view', () => {
  it('shows open merge requests, blocked rows with their cause, and what landing would do now, changing nothing', async () => {
    const w = workspace(`  - project: shop
    repo: gone
    status: blocked
    note: waiting on the owners
`);
    const web = w.repoDirs['shop/web']!;
    branchWith(web, 'integration', 'integration', { 'config.yml': 'flag: theirs\n' });
    const worker = w.repoDirs['shop/worker']!;
    branchWith(worker, 'flag-rename-by-hand', 'main', { 'config.yml': 'flag: new\n' });
    writeFileSync(
      w.file,
      readFileSync(w.file, 'utf8').replace(
        'repo: worker\n    status: routed\n',
        'repo: worker\n    status: routed\n    branch: flag-rename-by-hand\n',
      ),
    );
    const before = w.heads();
    const text = readFileSync(w.file, 'utf8');
    const v = await w.run(campaignStatus, { slug: 'rename-flag', into: 'integration' });
    expect(v.open_mrs).toEqual([{ repo: 'shop/api', mr: null }]);
    expect(v.landing.dry_run).toBe(true);
    expect(
      v.landing.rows.map((r: { repository: string; branch: string; outcome: string }) => [
        r.repository,
        r.branch,
        r.outcome,
      ]),
    ).toEqual([
      ['shop/api', 'campaign/rename-flag', 'would_merge'],
      ['shop/web', 'campaign/rename-flag', 'conflict'],
      ['shop/worker', 'flag-rename-by-hand', 'would_merge'],
      ['shop/gone', 'campaign/rename-flag', 'blocked'],
    ]);
    expect(v.landing.rows[1].cause).toMatchObject({ code: 'conflict', files: ['config.yml'] });
    expect(v.landing.rows[3].cause.code).toBe('unknown_repository');
    // Every row assumes the target asked for, a row the workspace does not know included.
    expect(v.landing.rows.map((r: { into: string }) => r.into)).toEqual(Array(4).fill('integration'));
    expect(v.landing.stopped_by).toEqual(['shop/web', 'shop/gone']);
    expect(v.blocked).toEqual([
      {
        repo: 'shop/gone',
        note: 'waiting on the owners',
        landing_cause: expect.stringMatching(/^unknown_repository: /),
      },
    ]);
    expect(w.heads()).toEqual(before);
    expect(readFileSync(w.file, 'utf8')).toBe(text);
    // Without the preview, and with every row merged, landing is null.
    expect((await w.run(campaignStatus, { slug: 'rename-flag', landing: false })).landing).toBeNull();
    writeFileSync(w.file, text.replace(/status: (routed|mr-open|blocked)/g, 'status: merged'));
    expect((await w.run(campaignStatus, { slug: 'rename-flag' })).landing).toBeNull();
  });
});

describe('campaign rows: branch, into, patterns and budget are part of the format', () => {
  it('shows rows a train would refuse as blocked, never failing the whole status (own target, a repository twice)', async () => {
    const w = workspace(`  - project: shop
    repo: web
    status: routed
`);
    writeFileSync(
      w.file,
      readFileSync(w.file, 'utf8').replace(
        'repo: worker\n    status: routed\n',
        'repo: worker\n    status: routed\n    branch: integration\n',
      ),
    );
    const v = await w.run(campaignStatus, { slug: 'rename-flag', into: 'integration' });
    expect(
      v.landing.rows.map((r: { repository: string; outcome: string; cause?: { code: string } }) => [
        r.repository,
        r.outcome,
        r.cause?.code ?? null,
      ]),
    ).toEqual([
      ['shop/api', 'would_merge', null],
      ['shop/web', 'would_merge', null],
      ['shop/worker', 'blocked', 'not_landable'],
      ['shop/web', 'blocked', 'not_landable'],
    ]);
    expect(v.landing.rows[2].cause.message).toMatch(/its own target/);
    expect(v.landing.rows[3].cause.message).toMatch(/twice/);
  });

  it('validates them without calling them unknown, and refuses a branch git would not take, naming the field', async () => {
    const w = workspace();
    const ok = await w.run(campaignValidate, { slug: 'rename-flag' });
    expect(ok.valid).toBe(true);
    expect(JSON.stringify(ok.campaigns[0].problems)).not.toMatch(/budget|patterns|reference_first/);
    writeFileSync(
      w.file,
      readFileSync(w.file, 'utf8').replace(
        '    budget: 3000\n',
        '    budget: 3000\n    branch: "bad..name"\n',
      ),
    );
    const bad = await w.run(campaignValidate, { slug: 'rename-flag' });
    expect(bad.valid).toBe(false);
    expect(JSON.stringify(bad)).toMatch(/repos\.0\.branch|repos\[0\]\.branch/);
    expect(JSON.stringify(bad)).toContain("contains '..'");
    const err = await w.run(campaignLand, { slug: 'rename-flag', dry_run: true }).catch((e: HubError) => e);
    expect(err).toBeInstanceOf(HubError);
    expect((err as HubError).code).not.toBe('internal');
  });
});

describe('campaign status: the preview stays a read', () => {
  it('writes no object into any repository, with a row that would conflict and rows that would merge', async () => {
    const w = workspace();
    branchWith(w.repoDirs['shop/web']!, 'integration', 'integration', { 'config.yml': 'flag: theirs\n' });
    const objects = () =>
      REPOS.map((r) => git(w.repoDirs[`shop/${r}`]!, ['count-objects', '-v']).match(/^count: (\d+)/m)?.[1]);
    const before = objects();
    const v = await w.run(campaignStatus, { slug: 'rename-flag', into: 'integration' });
    expect(v.landing.rows.map((r: { outcome: string }) => r.outcome)).toEqual([
      'would_merge',
      'conflict',
      'would_merge',
    ]);
    expect(objects()).toEqual(before);
  });
});
