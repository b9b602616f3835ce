import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BoardFixture, startBoardFixture } from './fixtures/board-server.js';
import { buildWorkspace, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { runHub } from './run-hub.js';
import { runHubAsync } from './run-hub-async.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the command printed.
type Json = any;

const TOKEN = 'ghp_board_token_0123456789abcdef';

/**
 * Board linking against a loopback server that answers as GitHub's GraphQL API and Azure DevOps' REST API do: a
 * preview reads the board and writes nothing; apply creates one item per row, records the link and the state in
 * the row, pushes a row's later status to its item, and takes a state someone moved on the board back into the row.
 */
describe.each(['github', 'azure'] as const)('campaign board-sync with %s', (provider) => {
  let fx: BoardFixture;
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
  const file = join(ws.root, '_campaigns', 'rollout.yml');
  const env = (token = TOKEN) => ({
    HUB_GITHUB_GRAPHQL_URL: fx.githubGraphql,
    HUB_GITHUB_TOKEN: token,
    HUB_AZURE_DEVOPS_URL: fx.azure,
    HUB_AZURE_DEVOPS_TOKEN: token,
  });
  const hub = (args: string[], token?: string) =>
    runHubAsync(['-c', ws.manifestPath, ...args], { env: env(token) });
  const items = () => (provider === 'github' ? fx.github : fx.azureItems);
  const states =
    provider === 'github'
      ? { pending: 'Todo', routed: 'In Progress', mrOpen: 'In Review', merged: 'Done' }
      : { pending: 'To Do', routed: 'Doing', mrOpen: 'Doing', merged: 'Done' };

  beforeAll(async () => {
    fx = await startBoardFixture({ token: TOKEN });
    writeFileSync(
      join(ws.root, 'hub.config.yaml'),
      provider === 'github'
        ? 'providers:\n  github:\n    organization: acme\n    project: "7"\n'
        : 'providers:\n  azure:\n    organization: acme\n    project: Platform\n',
    );
    const r = runHub([
      '-c',
      ws.manifestPath,
      'campaign',
      'new',
      '--slug',
      'rollout',
      '--title',
      'Rollout',
      '--goal',
      'Turn the flag on',
      '--repo',
      'svc/a',
      '--repo',
      'svc/b',
    ]);
    expect(r.code, r.stderr).toBe(0);
    runHub([
      '-c',
      ws.manifestPath,
      'campaign',
      'set',
      '--slug',
      'rollout',
      '--repo',
      'svc/b',
      '--status',
      'routed',
    ]);
  });
  afterAll(async () => {
    await fx?.close();
    removeTempDir(ws.root);
  });

  it('previews by default: reads the board, writes nothing anywhere', async () => {
    const before = readFileSync(file, 'utf8');
    const r = await hub(['campaign', 'board-sync', '--slug', 'rollout', '--json']);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    const p = r.json();
    expect(p).toMatchObject({
      apply: false,
      board: { provider, organization: 'acme' },
      counts: { create: 2 },
    });
    expect(p.rows.map((x: Json) => [x.repo, x.action, x.board_state.after])).toEqual([
      ['svc/a', 'create', states.pending],
      ['svc/b', 'create', states.routed],
    ]);
    expect(items().size).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(fx.requests.every((q) => q.method === 'GET' || q.url.includes('graphql'))).toBe(true);
  });

  it('apply creates one item per row in the row status, links it, and reads the state back', async () => {
    const r = await hub(['campaign', 'board-sync', '--slug', 'rollout', '--apply', '--json']);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect([...items().values()].map((i) => [i.title, i.state])).toEqual([
      ['Rollout: svc/a', states.pending],
      ['Rollout: svc/b', states.routed],
    ]);
    const made = [...items().values()][0]!;
    expect(made.body).toContain('Turn the flag on');
    const text = readFileSync(file, 'utf8');
    const s = runHub(['-c', ws.manifestPath, 'campaign', 'status', '--slug', 'rollout', '--json']).json();
    expect(s.repos.map((x: Json) => x.work_item)).toEqual([
      expect.objectContaining({ provider, id: [...items().keys()][0], state: states.pending }),
      expect.objectContaining({ provider, id: [...items().keys()][1], state: states.routed }),
    ]);
    expect(text).toContain('work_item:');
    // Nothing changed since: a second apply writes nothing on the board.
    const writes = fx.requests.length;
    const again = await hub(['campaign', 'board-sync', '--slug', 'rollout', '--apply', '--json']);
    expect(again.json().rows.map((x: Json) => x.action)).toEqual(['none', 'none']);
    const writing = fx.requests.slice(writes).filter((q) => q.method === 'PATCH' || /mutation/.test(q.body));
    expect(writing).toEqual([]);
  });

  it("a row's new status is pushed to its item; a state moved on the board comes back into the row", async () => {
    runHub([
      '-c',
      ws.manifestPath,
      'campaign',
      'set',
      '--slug',
      'rollout',
      '--repo',
      'svc/a',
      '--status',
      'mr-open',
    ]);
    const [first, second] = [...items().values()];
    second!.state = states.merged;
    const r = await hub(['campaign', 'board-sync', '--slug', 'rollout', '--apply', '--json']);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    const rows = r.json().rows as Json[];
    expect(rows.map((x) => [x.repo, x.action])).toEqual([
      ['svc/a', 'push'],
      ['svc/b', 'pull'],
    ]);
    expect(first!.state).toBe(states.mrOpen);
    const s = runHub(['-c', ws.manifestPath, 'campaign', 'status', '--slug', 'rollout', '--json']).json();
    expect(s.repos.map((x: Json) => x.status)).toEqual(['mr-open', 'merged']);
    expect(s.repos[1].work_item.state).toBe(states.merged);
  });

  it('when both the row and the item moved the board wins (conflict reported); a deleted item is missing', async () => {
    runHub([
      '-c',
      ws.manifestPath,
      'campaign',
      'set',
      '--slug',
      'rollout',
      '--repo',
      'svc/a',
      '--status',
      'blocked',
    ]);
    const [firstId, secondId] = [...items().keys()];
    items().get(firstId!)!.state = states.merged;
    items().delete(secondId!);
    const r = await hub(['campaign', 'board-sync', '--slug', 'rollout', '--json']);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    const rows = r.json().rows as Json[];
    expect(rows.map((x) => [x.repo, x.action, x.conflict, x.row_status.after])).toEqual([
      ['svc/a', 'pull', true, 'merged'],
      ['svc/b', 'missing', false, 'merged'],
    ]);
    expect(rows[1].note).toContain('remove work_item');
  });

  it('a bad token is unauthorized, never printed, and nothing is written', async () => {
    const before = readFileSync(file, 'utf8');
    const bad = 'ghp_wrong_token_should_not_leak_42';
    const r = await hub(['campaign', 'board-sync', '--slug', 'rollout', '--apply', '--json'], bad);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('unauthorized');
    expect(r.stdout + r.stderr).not.toContain(bad);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('a board URL that is plain http off loopback is refused before any request', async () => {
    const r = await runHubAsync(
      ['-c', ws.manifestPath, 'campaign', 'board-sync', '--slug', 'rollout', '--json'],
      {
        env: {
          ...env(),
          HUB_GITHUB_GRAPHQL_URL: 'http://boards.example/graphql',
          HUB_AZURE_DEVOPS_URL: 'http://boards.example',
        },
      },
    );
    expect(r.code).toBe(1);
    expect(r.json().error.details.rule).toBe('board_api_url');
  });
});

describe('board-sync over HTTP', () => {
  let fx: BoardFixture;
  let server: RunningServer;
  const ws = buildWorkspace({
    projects: [{ name: 'svc', repos: [{ name: 'a', files: { 'a.txt': 'a\n' } }] }],
  });
  beforeAll(async () => {
    fx = await startBoardFixture({ token: TOKEN });
    writeFileSync(
      join(ws.root, 'hub.config.yaml'),
      'providers:\n  github:\n    organization: acme\n    project: "7"\n',
    );
    runHub(['-c', ws.manifestPath, 'campaign', 'new', '--slug', 'one', '--title', 'One', '--repo', 'svc/a']);
    server = await startTestServer({
      root: ws.root,
      env: { HUB_CACHE_DIR: 'off', HUB_GITHUB_GRAPHQL_URL: fx.githubGraphql, HUB_GITHUB_TOKEN: TOKEN },
    });
  });
  afterAll(async () => {
    await server?.close();
    await fx?.close();
    removeTempDir(ws.root);
  });

  it('GET previews (never writes), POST applies', async () => {
    const get = await call(server.base, 'GET', '/v3/ops/campaigns/one/board-sync?apply=true');
    expect(get.status).toBe(400);
    const preview = await call(server.base, 'GET', '/v3/ops/campaigns/one/board-sync');
    expect(preview.status, preview.text).toBe(200);
    expect(preview.json.rows.map((x: Json) => x.action)).toEqual(['create']);
    expect(fx.github.size).toBe(0);
    const apply = await call(server.base, 'POST', '/v3/ops/campaigns/one/board-sync', {
      body: { apply: true },
    });
    expect(apply.status, apply.text).toBe(200);
    expect(fx.github.size).toBe(1);
  });

  it('an unknown project number is not_found, naming the settings to check', async () => {
    writeFileSync(
      join(ws.root, 'hub.config.yaml'),
      'providers:\n  github:\n    organization: acme\n    project: "99"\n',
    );
    const r = await call(server.base, 'GET', '/v3/ops/campaigns/one/board-sync');
    expect(r.status).toBe(404);
    expect(r.json.error.message).toContain('ProjectV2');
  });
});
