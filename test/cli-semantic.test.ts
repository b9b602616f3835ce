// Concepts on the CLI, HTTP and MCP: validation errors returned as data (storing nothing), ingest and seed, and
// every GET of claims and concepts leaving the state byte-identical (an expired claim waiting to be recorded too).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, git, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { callJson, connectHub } from './mcp-client.js';
import { runHub } from './run-hub.js';

let dir: string;
let root: string;
let manifest: string;
let srv: RunningServer;
let mcp: Client;

beforeAll(async () => {
  dir = createTempDir('hub-cli-semantic-');
  const demo = createDemo(join(dir, 'demo'));
  root = demo.root;
  manifest = demo.manifestPath;
  srv = await startTestServer({ root });
  mcp = await connectHub(root);
});
afterAll(async () => {
  await mcp?.close();
  await srv?.close();
  removeTempDir(dir);
});

const hub = (...args: string[]) => runHub(['-c', manifest, ...args, '--json']);

/** Every file under .hub/ as path -> SHA-256. */
function snapshot(): Record<string, string> {
  const out: Record<string, string> = {};
  const stack = [join(root, '.hub')];
  while (stack.length) {
    const d = stack.pop()!;
    if (!existsSync(d)) continue;
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) stack.push(p);
      else out[relative(root, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  }
  return out;
}

describe('semantic declare returns validation errors as data', () => {
  it('on every surface, for a bad repository and empty patterns, storing nothing', async () => {
    const before = snapshot();
    const cli = hub('semantic', 'declare', '--concept', 'Auth', '--repository', 'platform/identty');
    expect(cli.code).toBe(1);
    const data = cli.json();
    expect(data.ok).toBe(false);
    expect(data.errors.map((e: { field: string; rule: string }) => [e.field, e.rule])).toEqual([
      ['repository', 'unknown_repository'],
      ['patterns', 'not_empty'],
    ]);
    expect(data.errors[0].message).toContain("did you mean 'identity'");
    const http = await call(srv.base, 'POST', '/v3/ops/semantic/concepts', {
      body: { concept: 'Auth', repository: 'platform/identty', patterns: [] },
    });
    expect(http.status).toBe(200);
    expect(http.json).toEqual(data);
    expect(
      await callJson(mcp, 'hub_semantic_declare', { concept: 'Auth', repository: 'platform/identty' }),
    ).toEqual(data);
    const badGlob = hub(
      'semantic',
      'declare',
      '--concept',
      '!!',
      '--repository',
      'nope',
      '--pattern',
      '../x',
    );
    expect(badGlob.json().errors.map((e: { field: string }) => e.field)).toEqual([
      'concept',
      'repository',
      'patterns[0]',
    ]);
    expect(snapshot()).toEqual(before);
  });

  it('declares, queries and finds owners when the input is good', () => {
    const r = hub(
      'semantic',
      'declare',
      '--concept',
      'Auth Flow',
      '--repository',
      'platform/identity',
      '--pattern',
      'services/api/plugins/auth/**',
      '--alias',
      'login',
    );
    expect(r.code, r.stdout).toBe(0);
    expect(r.json()).toMatchObject({ ok: true, concept: { concept_id: 'auth-flow' }, created_concept: true });
    expect(hub('semantic', 'query', '--concept', 'LOGIN').json()).toMatchObject({
      found: true,
      concepts: [{ concept_id: 'auth-flow' }],
    });
    expect(
      hub(
        'semantic',
        'owners',
        '--repository',
        'platform/identity',
        '--path',
        'services/api/plugins/auth/x.go',
      ).json(),
    ).toMatchObject({
      owners: [{ concept_id: 'auth-flow' }],
    });
    expect(
      hub('semantic', 'owners', '--repository', 'platform/identity', '--path', '/etc/passwd').json().error,
    ).toMatchObject({
      code: 'validation',
      details: { field: 'path', rule: 'relative' },
    });
  });
});

describe('ingest and seed', () => {
  it('ingests CODEOWNERS of checked-out repositories and seeds concepts from components', () => {
    const identity = join(root, 'platform', 'identity');
    writeFileSync(join(identity, 'CODEOWNERS'), '/services/api/ @org/api-team\n*.md @org/docs\n');
    git(identity, ['add', 'CODEOWNERS']);
    const ing = hub('semantic', 'ingest', '--repository', 'platform/identity');
    expect(ing.code, ing.stdout).toBe(0);
    expect(ing.json().repositories).toMatchObject([
      { file: 'CODEOWNERS', added: 2, concepts: ['org-api-team', 'org-docs'] },
    ]);
    const all = hub('semantic', 'ingest').json().repositories;
    expect(all.find((r: { repository: string }) => r.repository === 'platform/identity')).toMatchObject({
      unchanged: 2,
    });
    const seed = hub('semantic', 'seed', '--repository', 'platform/identity').json();
    expect(seed.repositories[0].concepts).toEqual(['api', 'auth-plugin', 'sdk', 'identity-chart']);
    const owners = hub(
      'semantic',
      'owners',
      '--repository',
      'platform/identity',
      '--path',
      'services/api/main.go',
    ).json();
    expect(
      owners.owners.map((o: { concept_id: string; source: string }) => `${o.concept_id}:${o.source}`).sort(),
    ).toEqual(['api:seed', 'org-api-team:ingest']);
  });
});

describe('GET never writes claims or concepts', () => {
  it('reads claims, checks, concepts, owners and conflicts with an unrecorded expiry pending, changing no byte', async () => {
    const declare = (agent: string, pattern: string, ttl = '1h') =>
      expect(
        hub(
          'claim',
          'declare',
          '--repository',
          'platform/identity',
          '--agent-id',
          agent,
          '--pattern',
          pattern,
          '--ttl',
          ttl,
        ).code,
      ).toBe(0);
    declare('g1', 'services/api/plugins/auth/a/**');
    declare('g2', 'services/api/plugins/auth/b/**');
    declare('g3', 'docs/**', '1s');
    await new Promise((r) => setTimeout(r, 1200));
    const before = snapshot();
    const gets = [
      '/v3/ops/claims',
      '/v3/ops/claims?status=all',
      '/v3/ops/claims?status=expired&repository=platform/identity',
      '/v3/ops/claims/check?repository=platform/identity&patterns=services/**',
      '/v3/ops/claims/check?repository=platform/identity&component=api&agent_id=g1',
      '/v3/ops/semantic/concepts',
      '/v3/ops/semantic/concepts?concept=auth-flow',
      '/v3/ops/semantic/owners?repository=platform/identity&path=services/api/plugins/auth/a/x',
      '/v3/ops/semantic/conflicts?repository=platform/identity',
    ];
    for (const path of gets) {
      const r = await call(srv.base, 'GET', path);
      expect(r.status, `${path}: ${r.text}`).toBe(200);
    }
    const conflicts = await call(srv.base, 'GET', '/v3/ops/semantic/conflicts?repository=platform/identity');
    expect(conflicts.json.conflicts).toContainEqual(
      expect.objectContaining({ concept_id: 'auth-flow', agent_ids: ['g1', 'g2'] }),
    );
    const expired = await call(srv.base, 'GET', '/v3/ops/claims?status=expired');
    expect(expired.json.claims.map((c: { agent_id: string }) => c.agent_id)).toEqual(['g3']);
    expect(snapshot()).toEqual(before);
  });
});
