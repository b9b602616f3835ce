import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, git, removeTempDir } from './fixtures/index.js';
import { serverEnv } from './mcp-client.js';
import { HUB_BIN, runHub } from './run-hub.js';

/**
 * A campaign from `campaign new` to `campaign land`: four repositories, three agents, each a process of its own
 * talking to hub over MCP (and recording its row through the CLI, as an agent with a shell does). The reference
 * implementation goes first and leaves a lesson the others read in their context; the campaign then lands as one
 * train onto each repository's integration branch, with nobody's checkout disturbed.
 */
const AGENT = join(import.meta.dirname, 'fixtures', 'campaign-agent.mjs');
const SLUG = 'otel';
const GRAPH = `campaign-${SLUG}`;
const ROWS = ['platform/identity', 'platform/gateway', 'storefront/web', 'storefront/catalog'];

let dir: string;
let root: string;
const children: ChildProcess[] = [];

// biome-ignore lint/suspicious/noExplicitAny: the test reads whatever JSON the command printed.
const hub = (...args: string[]): any => {
  const r = runHub(['-c', join(root, '.hub.yml'), ...args, '--json']);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json();
};

function agent(id: string) {
  const child = spawn(process.execPath, [AGENT, HUB_BIN, root, id, SLUG, GRAPH], {
    env: serverEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const lines: string[] = [];
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    lines.push(...chunk.split('\n').filter(Boolean));
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { lines, stderr: () => stderr, exited };
}

const snapshot = (repo: string) => ({
  head: git(repo, ['rev-parse', 'HEAD']).trim(),
  branch: git(repo, ['rev-parse', '--abbrev-ref', 'HEAD']).trim(),
  status: git(repo, ['status', '--porcelain']),
});

beforeAll(() => {
  dir = createTempDir('hub-campaign-e2e-');
  root = createDemo(join(dir, 'demo')).root;
});

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  removeTempDir(dir);
});

// Three agent processes, each with its MCP server, on a loaded machine: minutes, not the default minute.
describe('campaign end to end', () => {
  it('three agents take a four-repository campaign from campaign new to campaign land', async () => {
    const checkout = (ref: string) => join(root, ref);
    for (const ref of ROWS) git(checkout(ref), ['branch', 'integration']);
    const before = Object.fromEntries(ROWS.map((r) => [r, snapshot(checkout(r))]));

    const made = hub(
      'campaign',
      'new',
      '--slug',
      SLUG,
      '--title',
      'Move to the otlp exporter',
      '--goal',
      'Every service exports telemetry over OTLP.',
      '--reference',
      'platform/identity',
      ...ROWS.flatMap((r) => ['--repo', r]),
    );
    expect(
      made.campaign.repos.map((r: { project: string; repo: string }) => `${r.project}/${r.repo}`),
    ).toEqual(ROWS);
    hub('campaign', 'set', '--slug', SLUG, '--status', 'active');
    expect(hub('campaign', 'expand', '--slug', SLUG).objectives).toHaveLength(4);
    const plan = hub('campaign', 'plan', '--slug', SLUG, '--reference-first');
    expect(plan.created.ready).toEqual(['platform-identity']);

    const agents = ['agent-a', 'agent-b', 'agent-c'].map(agent);
    const codes = await Promise.all(agents.map((a) => a.exited));
    const story = agents.flatMap((a) => a.lines);
    expect(codes, `${story.join('\n')}\n${agents.map((a) => a.stderr()).join('')}`).toEqual([0, 0, 0]);

    // Each row taken once; the reference first, and the others read its lesson in their context.
    const took = story.filter((l) => l.includes(' took ')).map((l) => l.split(' ')[3]);
    expect([...took].sort()).toEqual([...ROWS].sort());
    const order = agents
      .flatMap((a) => a.lines)
      .filter((l) => l.includes(' context '))
      .map((l) => l.split(' ').slice(2).join(' '));
    // The reference had no lesson and nothing changed yet when it asked.
    expect(
      order.filter((l) => /^platform\/identity lessons=0 reference=\w+:$/.test(l)),
      order.join('\n'),
    ).toHaveLength(1);
    // The reference's work was on its campaign branch by then: the others see what it changed.
    for (const r of ROWS.slice(1))
      expect(order).toContain(`${r} lessons=1 reference=campaign_branch:TELEMETRY.md`);

    // The combined view: every row has its merge request open, and landing now would merge each.
    const status = hub('campaign', 'status', '--slug', SLUG, '--into', 'integration');
    expect(status.open_mr_count).toBe(4);
    expect(status.open_mrs.map((m: { repo: string }) => m.repo)).toEqual(ROWS);
    expect(status.landing.rows.map((r: { outcome: string }) => r.outcome)).toEqual(
      Array(4).fill('would_merge'),
    );
    // No row names a branch: each lands its checkout's campaign/<slug> branch.
    expect(status.landing.rows.map((r: { branch: string }) => r.branch)).toEqual(
      Array(4).fill(`campaign/${SLUG}`),
    );

    const integration = () => ROWS.map((r) => git(checkout(r), ['rev-parse', 'integration']).trim());
    const old = integration();
    const dry = hub('campaign', 'land', '--slug', SLUG, '--into', 'integration', '--dry-run');
    expect(dry).toMatchObject({ dry_run: true, stopped_by: [] });
    expect(integration()).toEqual(old);

    const landed = hub('campaign', 'land', '--slug', SLUG, '--into', 'integration');
    expect(landed).toMatchObject({ landed: true, moved: 4, rows_merged: ROWS });
    const now = integration();
    ROWS.forEach((r, i) => {
      expect(now[i]).not.toBe(old[i]);
      expect(landed.rows[i]).toMatchObject({
        repository: r,
        old_sha: old[i],
        new_sha: now[i],
        outcome: 'landed',
      });
      const text = git(checkout(r), ['show', 'integration:TELEMETRY.md']);
      expect(text).toContain('exporter: otlp');
      if (i > 0) expect(text).toContain('lesson: set OTEL_SERVICE_NAME first');
    });

    // Rows merged, objectives done, tasks completed; nobody's checkout moved.
    const after = hub('campaign', 'status', '--slug', SLUG);
    expect(after.merged_count).toBe(4);
    expect(after.landing).toBeNull();
    expect(after.repos.map((r: { objective: { status: string } }) => r.objective.status)).toEqual(
      Array(4).fill('done'),
    );
    expect(hub('task', 'list', '--graph-id', GRAPH).nodes.map((n: { status: string }) => n.status)).toEqual(
      Array(4).fill('completed'),
    );
    expect(Object.fromEntries(ROWS.map((r) => [r, snapshot(checkout(r))]))).toEqual(before);

    // The feed tells the story, filtered to the campaign.
    const events = hub('context', 'events', '--campaign', SLUG, '--limit', '500').events as Array<{
      source: string;
      kind: string;
    }>;
    const kinds = new Set(events.map((e) => `${e.source}:${e.kind}`));
    for (const k of ['campaign:CampaignExpanded', 'campaign:CampaignRowUpdated', 'merge:MergeTrain'])
      expect(kinds, k).toContain(k);
  }, 240_000);
});
