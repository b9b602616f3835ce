import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorkspace, git, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { callJson, connectHub, rpcError } from './mcp-client.js';
import { runHub } from './run-hub.js';
import { runHubAsync } from './run-hub-async.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the command printed.
type Json = any;

/**
 * Campaigns end to end on real git repositories: every command (new, list, status, validate, set, expand,
 * lessons, context), the events feed filter, objectives with mr_url and approval_id, and the same answers over
 * HTTP and MCP.
 */
describe('campaign commands', () => {
  const ws = buildWorkspace({
    projects: [
      {
        name: 'pay',
        extra: { tags: { team: 'payments' } },
        repos: [
          { name: 'api', files: { 'go.mod': 'module api\n' }, extra: { tags: { lang: 'go' } } },
          { name: 'web', files: { 'package.json': '{}\n' }, extra: { tags: { lang: 'ts' } } },
        ],
      },
      {
        name: 'core',
        repos: [
          { name: 'lib', files: { 'go.mod': 'module lib\n' }, extra: { tags: { lang: 'go' } } },
          { name: 'docs', files: { 'README.md': 'docs\n' } },
        ],
      },
    ],
  });
  const hub = (args: string[], env?: Record<string, string>) =>
    runHub(['-c', ws.manifestPath, ...args], env ? { env } : {});
  const file = (slug: string) => join(ws.root, '_campaigns', `${slug}.yml`);
  const ok = (args: string[]) => {
    const r = hub([...args, '--json']);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    return r.json() as Json;
  };
  const fails = (args: string[]) => {
    const r = hub([...args, '--json']);
    expect(r.code, r.stdout).not.toBe(0);
    return { code: r.code, error: (r.json() as Json).error };
  };

  afterAll(() => removeTempDir(ws.root));

  it('new by tags freezes the selection into rows; the document has every field', () => {
    const r = ok([
      'campaign',
      'new',
      '--slug',
      'bump-log',
      '--title',
      'Bump logging',
      '--tag',
      'lang=go',
      '--goal',
      'Use slog v2',
      '--reference',
      'core/lib',
      '--objective-id',
      'obs-2026',
    ]);
    expect(r.created).toBe(true);
    expect(r.file).toBe('_campaigns/bump-log.yml');
    expect(r.campaign).toMatchObject({
      schema_version: '1.0',
      slug: 'bump-log',
      title: 'Bump logging',
      status: 'draft',
      goal: 'Use slog v2',
      reference_impl: 'core/lib',
      objective_id: 'obs-2026',
      selection: { tags: { lang: 'go' } },
    });
    expect(r.campaign.created).toBe(r.campaign.updated);
    expect(r.campaign.selection.resolved_at).toBe(r.campaign.created);
    expect(r.campaign.repos).toEqual([
      { project: 'core', repo: 'lib', role: 'reference', status: 'pending' },
      { project: 'pay', repo: 'api', status: 'pending' },
    ]);
    const text = readFileSync(file('bump-log'), 'utf8');
    expect(text).toMatch(/^# Campaign 'bump-log'/);
    expect(text).toContain('schema_version: "1.0"\n');
  });

  it('new by query uses the manifest search, tags narrow it; explicit repos are kept in order', () => {
    const q = ok(['campaign', 'new', '--slug', 'pay-all', '--title', 'Payments', '--query', 'pay']);
    expect(q.campaign.repos.map((r: Json) => `${r.project}/${r.repo}`)).toEqual(['pay/api', 'pay/web']);
    expect(q.campaign.selection.query).toBe('pay');
    const e = ok([
      'campaign',
      'new',
      '--slug',
      'explicit',
      '--title',
      'Two',
      '--repo',
      'core/docs',
      '--repo',
      'pay/web',
      '--repo',
      'core/docs',
    ]);
    expect(e.campaign.repos.map((r: Json) => `${r.project}/${r.repo}`)).toEqual(['core/docs', 'pay/web']);
    expect(e.campaign.selection.query).toBeUndefined();
    expect(readFileSync(file('explicit'), 'utf8')).not.toContain('selection:');
  });

  it('new refuses a taken slug, a bad slug, both or neither selection, an unknown repository (with the nearest)', () => {
    const taken = fails(['campaign', 'new', '--slug', 'bump-log', '--title', 'x', '--repo', 'pay/api']);
    expect(taken.error).toMatchObject({ code: 'refused', details: { rule: 'campaign_exists' } });
    expect(
      fails(['campaign', 'new', '--slug', 'Bad_Slug', '--title', 'x', '--repo', 'pay/api']).error,
    ).toMatchObject({ code: 'validation', details: { field: 'slug', rule: 'campaign_slug' } });
    expect(
      fails(['campaign', 'new', '--slug', 'both', '--title', 'x', '--repo', 'pay/api', '--tag', 'lang=go'])
        .error.details.rule,
    ).toBe('one_of_repo_or_selection');
    expect(fails(['campaign', 'new', '--slug', 'none', '--title', 'x']).error.details.rule).toBe(
      'selection_required',
    );
    const unknown = fails(['campaign', 'new', '--slug', 'typo', '--title', 'x', '--repo', 'pay/apii']);
    expect(unknown.error).toMatchObject({
      code: 'not_found',
      details: { field: 'repo', suggestions: ['pay/api'] },
    });
    expect(
      fails(['campaign', 'new', '--slug', 'empty', '--title', 'x', '--tag', 'lang=cobol']).error.details.rule,
    ).toBe('selection_empty');
    expect(existsSync(file('typo'))).toBe(false);
  });

  it('list shows counts per campaign and filters by status', () => {
    const r = ok(['campaign', 'list']);
    expect(r.campaigns.map((c: Json) => c.slug)).toEqual(['bump-log', 'explicit', 'pay-all']);
    expect(r.campaigns[0]).toMatchObject({
      title: 'Bump logging',
      status: 'draft',
      repo_count: 2,
      merged_count: 0,
      open_mr_count: 0,
      blocked_count: 0,
    });
    expect(ok(['campaign', 'list', '--status', 'active']).campaigns).toEqual([]);
    const human = hub(['campaign', 'list']);
    expect(human.stdout).toContain('SLUG');
    expect(human.stdout).toContain('bump-log');
  });

  it('expand --dry-run writes nothing; expand makes one objective per row, routes the rows, and is safe to repeat', () => {
    const before = readFileSync(file('bump-log'), 'utf8');
    const dry = ok(['campaign', 'expand', '--slug', 'bump-log', '--dry-run']);
    expect(dry.objectives.map((o: Json) => [o.id, o.action])).toEqual([
      ['campaign-bump-log-core-lib', 'would_create'],
      ['campaign-bump-log-pay-api', 'would_create'],
    ]);
    expect(readFileSync(file('bump-log'), 'utf8')).toBe(before);
    expect(ok(['context', 'objective', 'list']).objectives ?? []).toEqual([]);
    const made = ok(['campaign', 'expand', '--slug', 'bump-log']);
    expect(made.objectives.map((o: Json) => o.action)).toEqual(['created', 'created']);
    expect(made.routed).toEqual(['core/lib', 'pay/api']);
    const objectives = ok(['context', 'objective', 'list']).objectives as Json[];
    const api = objectives.find((o) => o.id === 'campaign-bump-log-pay-api');
    expect(api).toMatchObject({
      title: 'Bump logging: pay/api',
      repos: ['pay/api'],
      acceptance: 'Use slog v2',
    });
    const again = ok(['campaign', 'expand', '--slug', 'bump-log']);
    expect(again.objectives.map((o: Json) => o.action)).toEqual(['exists', 'exists']);
    expect(again.routed).toEqual([]);
    // --tag narrows the rows to those whose merged project + repository tags match.
    const team = ok([
      'campaign',
      'expand',
      '--slug',
      'pay-all',
      '--tag',
      'team=payments',
      '--tag',
      'lang=ts',
      '--dry-run',
    ]);
    expect(team.objectives.map((o: Json) => o.id)).toEqual(['campaign-pay-all-pay-web']);
    expect(team.skipped).toEqual([{ repo: 'pay/api', reason: 'tags' }]);
  });

  it('set moves a row, its objective follows (status, mr_url); status rolls up mr_url and approval_id', () => {
    const r = ok([
      'campaign',
      'set',
      '--slug',
      'bump-log',
      '--repo',
      'pay/api',
      '--status',
      'mr-open',
      '--mr',
      'https://git.example/pay/api/pull/3',
      '--note',
      'waiting on review',
    ]);
    expect(r.row).toMatchObject({
      status: 'mr-open',
      mr: 'https://git.example/pay/api/pull/3',
      note: 'waiting on review',
    });
    expect(r.objective_id).toBe('campaign-bump-log-pay-api');
    const approval = ok([
      'context',
      'approval',
      'request',
      '--action',
      'merge pay/api',
      '--requested-by',
      'agent-1',
      '--payload',
      '{"campaign":"bump-log"}',
    ]);
    const approvalId = approval.request.id;
    ok(['context', 'objective', 'set', '--id', 'campaign-bump-log-pay-api', '--approval-id', approvalId]);
    const s = ok(['campaign', 'status', '--slug', 'bump-log']);
    expect(s).toMatchObject({ repo_count: 2, routed_count: 1, open_mr_count: 1, pending_count: 0 });
    const row = s.repos.find((x: Json) => x.repo === 'api');
    expect(row.objective).toMatchObject({
      id: 'campaign-bump-log-pay-api',
      status: 'in_progress',
      mr_url: 'https://git.example/pay/api/pull/3',
      approval_id: approvalId,
    });
    // Without repo: the campaign's own status.
    expect(ok(['campaign', 'set', '--slug', 'bump-log', '--status', 'active']).status).toBe('active');
    expect(ok(['campaign', 'list', '--status', 'active']).campaigns.map((c: Json) => c.slug)).toEqual([
      'bump-log',
    ]);
  });

  it('set refuses a bad status, a row that is not there, an mr that is no URL', () => {
    expect(
      fails(['campaign', 'set', '--slug', 'bump-log', '--repo', 'pay/api', '--status', 'done']).error.details
        .field,
    ).toBe('status');
    expect(fails(['campaign', 'set', '--slug', 'bump-log', '--status', 'merged']).error.details.field).toBe(
      'status',
    );
    const row = fails(['campaign', 'set', '--slug', 'bump-log', '--repo', 'pay/apj', '--status', 'merged']);
    expect(row.error).toMatchObject({
      code: 'not_found',
      details: { rule: 'campaign_row', suggestions: ['pay/api'] },
    });
    expect(
      fails(['campaign', 'set', '--slug', 'bump-log', '--repo', 'pay/api', '--mr', 'not a url']).error.details
        .rule,
    ).toBe('http_url');
    const missing = fails(['campaign', 'status', '--slug', 'bump-lgo']);
    expect(missing.error).toMatchObject({ code: 'not_found', details: { suggestions: ['bump-log'] } });
  });

  it('set places a row for land and plan: branch, into, patterns and budget written, removed, and refused when bad', () => {
    const set = (...more: string[]) => [
      'campaign',
      'set',
      '--slug',
      'bump-log',
      '--repo',
      'pay/api',
      ...more,
    ];
    const r = ok(
      set(
        '--branch',
        'feat/slog-v2',
        '--into',
        'develop',
        '--pattern',
        'go.mod',
        '--pattern',
        'internal/**',
        '--budget',
        '6000',
      ),
    );
    expect(r.row).toMatchObject({
      branch: 'feat/slog-v2',
      into: 'develop',
      patterns: ['go.mod', 'internal/**'],
      budget: 6000,
    });
    expect(readFileSync(file('bump-log'), 'utf8')).toMatch(/branch: feat\/slog-v2\n\s+into: develop\n/);
    const cleared = ok(set('--branch', '', '--pattern', ''));
    expect(cleared.row.branch).toBeUndefined();
    expect(cleared.row.patterns).toBeUndefined();
    expect(cleared.row.into).toBe('develop');
    const bad = fails(set('--into', 'main..x'));
    expect(bad.error).toMatchObject({
      code: 'validation',
      details: { field: 'into', rule: 'git check-ref-format --branch' },
    });
    expect(fails(['campaign', 'set', '--slug', 'bump-log', '--branch', 'x']).error.details.field).toBe(
      'repo',
    );
    // The plan reads them (numbers from the command line, as every numeric flag).
    const plan = ok(['campaign', 'plan', '--slug', 'bump-log', '--budget', '8000', '--dry-run']);
    const api = plan.plan.items.find((i: Json) => i.repository === 'pay/api');
    expect(api).toMatchObject({ context_budget: 6000 });
    expect(plan.plan.items.find((i: Json) => i.repository !== 'pay/api').context_budget).toBe(8000);
  });

  it('lessons are appended and listed; context events --campaign finds the campaign, its objectives and approvals', () => {
    const a = ok([
      'campaign',
      'lesson',
      'add',
      '--slug',
      'bump-log',
      '--text',
      'slog needs go 1.21',
      '--repo',
      'core/lib',
      '--by',
      'agent-1',
    ]);
    expect(a).toMatchObject({
      lesson_count: 1,
      lesson: { text: 'slog needs go 1.21', repo: 'core/lib', by: 'agent-1' },
    });
    ok(['campaign', 'lesson', 'add', '--slug', 'bump-log', '--text', 'run go mod tidy']);
    expect(ok(['campaign', 'lesson', 'list', '--slug', 'bump-log']).lessons.map((l: Json) => l.text)).toEqual(
      ['slog needs go 1.21', 'run go mod tidy'],
    );
    expect(ok(['campaign', 'lesson', 'list', '--slug', 'bump-log', '--repo', 'core/lib']).count).toBe(1);
    const events = ok(['context', 'events', '--campaign', 'bump-log']).events as Json[];
    const kinds = events.map((e) => `${e.source}:${e.kind}`);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'campaign:CampaignCreated',
        'objective:ObjectiveCreated',
        'campaign:CampaignExpanded',
        'campaign:CampaignRowUpdated',
        'approval:ApprovalRequested',
        'campaign:CampaignLessonAdded',
      ]),
    );
    // Nothing of another campaign.
    expect(
      events.every(
        (e) =>
          e.subject === 'bump-log' ||
          String(e.subject).startsWith('campaign-bump-log-') ||
          e.data.campaign === 'bump-log',
      ),
    ).toBe(true);
    const other = ok(['context', 'events', '--campaign', 'pay-all']).events as Json[];
    expect(other.map((e) => e.kind)).toEqual(['CampaignCreated']);
  });

  it('context gives goal, reference changes, cards and lessons, and fits max_tokens', () => {
    const lib = ws.repoDirs['core/lib']!;
    git(lib, ['checkout', '-q', '-b', 'campaign/bump-log']);
    writeFileSync(join(lib, 'log.go'), 'package lib\n');
    git(lib, ['add', '.']);
    git(lib, ['commit', '-q', '-m', 'use slog v2']);
    git(lib, ['checkout', '-q', 'main']);
    const c = ok(['campaign', 'context', '--slug', 'bump-log', '--repo', 'pay/api']);
    expect(c).toMatchObject({
      slug: 'bump-log',
      goal: 'Use slog v2',
      row: { objective_id: 'campaign-bump-log-pay-api' },
    });
    expect(c.reference.changes).toMatchObject({
      source: 'campaign_branch',
      branch: 'campaign/bump-log',
      base: 'main',
    });
    expect(c.reference.changes.commits.map((x: Json) => x.subject)).toEqual(['use slog v2']);
    expect(c.reference.changes.files).toEqual([{ status: 'A', path: 'log.go' }]);
    expect(c.reference.card.repo).toBe('lib');
    expect(c.repo_card.repo).toBe('api');
    expect(c.lessons).toHaveLength(2);
    expect(c.dropped_sections).toEqual([]);
    const small = hub([
      'campaign',
      'context',
      '--slug',
      'bump-log',
      '--repo',
      'pay/api',
      '--max-tokens',
      '250',
      '--json',
    ]);
    expect(small.code, small.stderr).toBe(0);
    const s = small.json();
    expect(s.dropped_sections.length).toBeGreaterThan(0);
    expect(s.token_estimate).toBeLessThanOrEqual(250);
    expect(s.goal).toBe('Use slog v2');
  });

  it('concurrent sets of different rows from separate processes lose nothing', async () => {
    const rows = ['svc-1', 'svc-2', 'svc-3', 'svc-4'];
    const text = `slug: many\ntitle: Many\nrepos:\n${rows.map((r) => `  - {project: pay, repo: ${r}}\n`).join('')}`;
    writeFileSync(file('many'), text);
    const runs = await Promise.all(
      rows.map((r) =>
        runHubAsync([
          '-c',
          ws.manifestPath,
          'campaign',
          'set',
          '--slug',
          'many',
          '--repo',
          `pay/${r}`,
          '--status',
          'blocked',
          '--note',
          r,
        ]),
      ),
    );
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const s = ok(['campaign', 'status', '--slug', 'many']);
    expect(s.repos.map((x: Json) => [x.status, x.note])).toEqual(rows.map((r) => ['blocked', r]));
    writeFileSync(file('many'), 'slug: many\ntitle: Many\nstatus: archived\n');
  });

  it('validate passes clean files and fails (exit 1) on an unknown repository, naming the nearest', () => {
    expect(ok(['campaign', 'validate']).valid).toBe(true);
    writeFileSync(
      file('broken'),
      'slug: broken\ntitle: Broken\nrepos:\n  - {project: pay, repo: apii}\n  - {project: pay, repo: api, colour: red}\n',
    );
    const r = hub(['campaign', 'validate', '--json']);
    expect(r.code).toBe(1);
    const broken = (r.json() as Json).campaigns.find((c: Json) => c.slug === 'broken');
    expect(broken.valid).toBe(false);
    expect(broken.problems.map((p: Json) => `${p.severity}:${p.rule}:${p.path}`)).toEqual([
      'error:known_repository:repos[0]',
      'warning:unknown_key:repos[1].colour',
    ]);
    expect(broken.problems[0].message).toContain("did you mean 'pay/api'");
    const human = hub(['campaign', 'validate', '--slug', 'broken']);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain('INVALID broken');
  });

  it('a document that is no campaign is a validation error naming the file, and list reports it without failing', () => {
    writeFileSync(file('junk'), 'slug: junk\ntitle: [1, 2\n');
    const r = fails(['campaign', 'status', '--slug', 'junk']);
    expect(r.error.code).toBe('validation');
    expect(r.error.message).toContain('_campaigns/junk.yml');
    const list = ok(['campaign', 'list']);
    expect(list.problems.map((p: Json) => p.slug)).toEqual(['junk']);
  });

  it('campaigns_path from HUB_WORKSPACE_CAMPAIGNS_PATH; one outside the workspace is refused', () => {
    const env = { HUB_WORKSPACE_CAMPAIGNS_PATH: 'plans/campaigns' };
    const r = hub(
      ['campaign', 'new', '--slug', 'elsewhere', '--title', 'x', '--repo', 'pay/api', '--json'],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().file).toBe('plans/campaigns/elsewhere.yml');
    expect(existsSync(join(ws.root, 'plans', 'campaigns', 'elsewhere.yml'))).toBe(true);
    const out = hub(['campaign', 'list', '--json'], { HUB_WORKSPACE_CAMPAIGNS_PATH: '../outside' });
    expect(out.code).toBe(1);
    expect(out.json().error.details.rule).toBe('campaigns_path_inside_root');
    mkdirSync(join(ws.root, 'linked-away'), { recursive: true });
    symlinkSync('/tmp', join(ws.root, 'linked-away', 'c'));
    const linked = hub(['campaign', 'list', '--json'], { HUB_WORKSPACE_CAMPAIGNS_PATH: 'linked-away/c' });
    expect(linked.json().error.details.rule).toBe('campaigns_path_inside_root');
  });
});

describe('campaign operations on HTTP and MCP', () => {
  const ws = buildWorkspace({
    projects: [
      {
        name: 'svc',
        repos: [
          { name: 'a', files: { 'a.txt': 'a\n' } },
          { name: 'b', files: { 'b.txt': 'b\n' } },
        ],
      },
    ],
  });
  const hub = (args: string[]) => runHub(['-c', ws.manifestPath, ...args]);
  let server: RunningServer;
  let mcp: Client;
  beforeAll(async () => {
    server = await startTestServer({ root: ws.root });
    mcp = await connectHub(ws.root);
  });
  afterAll(async () => {
    await mcp?.close();
    await server?.close();
    removeTempDir(ws.root);
  });

  it('POST /v3/ops/campaigns creates, GET lists, PATCH sets a row, expand and lessons have routes', async () => {
    const made = await call(server.base, 'POST', '/v3/ops/campaigns', {
      body: {
        slug: 'web-one',
        title: 'Over HTTP',
        repo: ['svc/a', 'svc/b'],
      },
    });
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    expect((made.json as Json).campaign.repos).toHaveLength(2);
    const list = await call(server.base, 'GET', '/v3/ops/campaigns');
    expect((list.json as Json).campaigns.map((c: Json) => c.slug)).toEqual(['web-one']);
    const set = await call(server.base, 'PATCH', '/v3/ops/campaigns/web-one', {
      body: {
        repo: 'svc/a',
        status: 'blocked',
        note: 'needs a key',
      },
    });
    expect(set.status).toBe(200);
    expect((set.json as Json).row).toMatchObject({ status: 'blocked', note: 'needs a key' });
    const expand = await call(server.base, 'POST', '/v3/ops/campaigns/web-one/expand', {
      body: { dry_run: true },
    });
    expect((expand.json as Json).objectives).toHaveLength(2);
    const lesson = await call(server.base, 'POST', '/v3/ops/campaigns/web-one/lessons', {
      body: {
        text: 'keys live in vault',
      },
    });
    expect((lesson.json as Json).lesson_count).toBe(1);
    const lessons = await call(server.base, 'GET', '/v3/ops/campaigns/web-one/lessons');
    expect((lessons.json as Json).count).toBe(1);
    const bad = await call(server.base, 'PATCH', '/v3/ops/campaigns/web-one', {
      body: {
        repo: 'svc/a',
        status: 'nope',
      },
    });
    expect(bad.status).toBe(400);
    const missing = await call(server.base, 'GET', '/v3/ops/campaigns/nope/status');
    expect(missing.status).toBe(404);
    const validate = await call(server.base, 'GET', '/v3/ops/campaigns/validate');
    expect((validate.json as Json).valid).toBe(true);
  });

  it('status and context are the same on the CLI, HTTP and MCP', async () => {
    const cli = hub(['campaign', 'status', '--slug', 'web-one', '--json']).json();
    const http = (await call(server.base, 'GET', '/v3/ops/campaigns/web-one/status')).json;
    const tool = await callJson(mcp, 'hub_campaign_status', { slug: 'web-one' });
    expect(http).toEqual(cli);
    expect(tool).toEqual(cli);
    expect(cli).toMatchObject({ blocked_count: 1, pending_count: 1 });
    const ctxCli = hub(['campaign', 'context', '--slug', 'web-one', '--repo', 'svc/b', '--json']).json();
    const ctxHttp = (await call(server.base, 'GET', '/v3/ops/campaigns/web-one/context?repo=svc%2Fb'))
      .json as Json;
    const ctxMcp = await callJson(mcp, 'hub_campaign_context', { slug: 'web-one', repo: 'svc/b' });
    const strip = (c: Json) => ({ ...c, repo_card: { ...c.repo_card, last_commit: undefined } });
    expect(strip(ctxHttp)).toEqual(strip(ctxCli));
    expect(strip(ctxMcp)).toEqual(strip(ctxCli));
    expect(ctxCli.lessons.map((l: Json) => l.text)).toEqual(['keys live in vault']);
  });

  it('board_sync over MCP without a configured board says what to set', async () => {
    const err = await rpcError(
      mcp.callTool({ name: 'hub_campaign_board_sync', arguments: { slug: 'web-one' } }),
      -32602,
    );
    expect(err.message).toContain('providers.github.organization');
  });
});
