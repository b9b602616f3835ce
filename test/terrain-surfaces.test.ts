import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { callJson, connectHub, rpcError } from './mcp-client.js';
import { HUB_BIN, runHub } from './run-hub.js';

let dir: string;
let root: string;
let server: RunningServer;
let mcp: Client;
/** A `git` first on PATH that logs each call and runs the real one: how a test sees whether git ran at all. */
let shimDir: string;
let gitLog: string;

const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();

beforeAll(async () => {
  dir = createTempDir('hub-terrain-surf-');
  root = createDemo(join(dir, 'demo')).root;
  // identity: its .git names a git dir that is not there, so no git command can read it.
  const identity = join(root, 'platform', 'identity');
  rmSync(join(identity, '.git'), { recursive: true, force: true });
  writeFileSync(join(identity, '.git'), `gitdir: ${join(dir, 'nowhere')}\n`);
  shimDir = join(dir, 'bin');
  gitLog = join(dir, 'git-calls.log');
  mkdirSync(shimDir);
  writeFileSync(join(shimDir, 'git'), `#!/bin/sh\necho "$*" >> '${gitLog}'\nexec '${realGit}' "$@"\n`);
  chmodSync(join(shimDir, 'git'), 0o755);
  server = await startTestServer({ root });
  mcp = await connectHub(root, [], { PATH: `${shimDir}:${process.env.PATH}` });
});
afterAll(async () => {
  await mcp?.close();
  await server?.close();
  removeTempDir(dir);
});

const withShim = () => ({ PATH: `${shimDir}:${process.env.PATH}` });
const gitCalls = () => (existsSync(gitLog) ? readFileSync(gitLog, 'utf8').split('\n').filter(Boolean) : []);

describe('manifest detail does no git and no CI I/O', () => {
  it('lists every repository, the one git cannot read too, without running git (CLI and MCP)', async () => {
    rmSync(gitLog, { force: true });
    const r = runHub(['workspace', 'terrain', '--detail', 'manifest', '--json'], {
      cwd: root,
      env: withShim(),
    });
    expect(r.code, r.stderr).toBe(0);
    const t = r.json();
    expect(t.node_count).toBe(6);
    expect(t.nodes.find((n: { repo_id: string }) => n.repo_id === 'platform/identity')).toMatchObject({
      exists: true,
      is_git_repo: null,
      git: null,
      ci: { detected: null },
    });
    const viaMcp = await callJson(mcp, 'hub_workspace_terrain', { detail: 'manifest' });
    expect(viaMcp.node_count).toBe(6);
    expect(gitCalls()).toEqual([]);
    // The shim does see git when terrain is enriched: the assertion above can fail.
    const e = runHub(['workspace', 'terrain', '--json'], { cwd: root, env: withShim() });
    expect(e.code, e.stderr).toBe(0);
    expect(
      gitCalls().some((c) => c.includes('status --porcelain=v2 --branch')),
      JSON.stringify([gitCalls(), e.stderr]),
    ).toBe(true);
    const identity = e.json().nodes.find((n: { repo_id: string }) => n.repo_id === 'platform/identity');
    expect(identity.git.error).toMatch(/not a git repository/);
  });

  // strace where it is installed and allowed to trace (containers may forbid ptrace): skipped otherwise.
  const strace = spawnSync('sh', ['-c', 'command -v strace'], { encoding: 'utf8' }).stdout.trim();
  const traceable = Boolean(strace) && spawnSync(strace, ['-f', '-o', '/dev/null', 'true']).status === 0;
  it.skipIf(!traceable)('opens nothing inside a checkout: no .git, no CI file, no README (strace)', () => {
    const trace = (detail: string) => {
      const out = join(dir, `trace-${detail}.txt`);
      const r = spawnSync(
        strace,
        [
          '-f',
          '-qq',
          '-e',
          'trace=%file,execve',
          '-o',
          out,
          process.execPath,
          HUB_BIN,
          'workspace',
          'terrain',
          '--detail',
          detail,
          '--json',
        ],
        { cwd: root, env: { ...process.env, HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off' }, encoding: 'utf8' },
      );
      expect(r.status, r.stderr).toBe(0);
      return readFileSync(out, 'utf8');
    };
    const inside = (text: string) =>
      text
        .split('\n')
        .filter(
          (l) => /"[^"]*\/(platform|storefront)\/[^/"]+\/[^"]+"/.test(l) && !l.includes(' = -1 ENOENT'),
        );
    const manifest = trace('manifest');
    expect(manifest).not.toMatch(/execve\("[^"]*git"/);
    expect(inside(manifest)).toEqual([]);
    // Enriched reads the checkouts: the filter above does match what it touches.
    const enriched = trace('enriched');
    expect(inside(enriched).some((l) => l.includes('.gitlab-ci.yml') || l.includes('.github'))).toBe(true);
    expect(enriched).toMatch(/execve\("[^"]*git"/);
  });
});

describe('GET /v3/ops/terrain', () => {
  it('answers both details, pages, and coerces query booleans', async () => {
    const m = await call(server.base, 'GET', '/v3/ops/terrain?detail=manifest&limit=2');
    expect(m.status, m.text).toBe(200);
    expect(m.json).toMatchObject({
      detail_level: 'manifest',
      node_count: 2,
      total: 6,
      next_offset: 2,
      enrichment: null,
    });
    const e = await call(
      server.base,
      'GET',
      '/v3/ops/terrain?project=storefront&include_pipelines=true&include_inferred=false',
    );
    expect(e.status, e.text).toBe(200);
    expect(e.json).toMatchObject({
      detail_level: 'enriched',
      project_filter: 'storefront',
      include_inferred: false,
      inferred: { requested: false },
    });
    expect(e.json.nodes[0].pipeline.providers[0].files[0]).toMatchObject({
      path: '.github/workflows/web.yml',
      jobs: ['test'],
    });
  });

  it('refuses a limit over 5000, an unknown detail and an unknown project, naming the field', async () => {
    const over = await call(server.base, 'GET', '/v3/ops/terrain?limit=5001');
    expect(over.status).toBe(400);
    expect(JSON.stringify(over.json.error)).toContain('limit');
    const detail = await call(server.base, 'GET', '/v3/ops/terrain?detail=full');
    expect(detail.status).toBe(400);
    expect(JSON.stringify(detail.json.error)).toContain('detail');
    const project = await call(server.base, 'GET', '/v3/ops/terrain?project=platfrom');
    expect(project.status).toBe(400);
    expect(project.json.error.message).toContain("did you mean 'platform'");
    const cli = runHub(['workspace', 'terrain', '--project', 'platfrom', '--json'], { cwd: root });
    expect(cli.json()).toEqual(project.json);
    await rpcError(mcp.callTool({ name: 'hub_workspace_terrain', arguments: { limit: 5001 } }), -32602);
  });

  it('is in the OpenAPI document', async () => {
    const doc = await call(server.base, 'GET', '/v3/openapi.json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.json.paths)).toEqual(
      expect.arrayContaining(['/v3/ops/terrain', '/v3/ops/repos/ci', '/v3/ops/repos/ci/detect']),
    );
  });
});

describe('progress', () => {
  it('stays quiet for a small workspace (lines start at 200 repositories)', () => {
    const r = runHub(['workspace', 'terrain'], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/terrain: git status/);
    expect(r.stdout).toMatch(/6 of 6 repositories \(enriched\)/);
  });
});
