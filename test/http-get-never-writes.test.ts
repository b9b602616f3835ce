// GET never changes state: every GET route of both servers, with sampled real inputs (every boolean switched on),
// against a workspace holding every kind of state document, leaves `.hub/` and the config files byte-identical.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { createDemo } from '../examples/demo-workspace.mjs';
import { type AnyOperation, loadOperations } from '../src/ops/index.js';
import { boundRoutes } from '../src/surfaces/http/routes-from-registry.js';
import { createTempDir, git, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { runHub } from './run-hub.js';
import { openSse } from './sse-client.js';

let dir: string;
let root: string;
let manifest: string;
let web: RunningServer;
let api: RunningServer;
const OPERATIONS = await loadOperations();

/** Every file under `.hub/` plus the two config files, as path -> SHA-256 of the bytes. */
function snapshot(): Record<string, string> {
  const out: Record<string, string> = {};
  const hash = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
  const stack = [join(root, '.hub')];
  while (stack.length) {
    const d = stack.pop()!;
    if (!existsSync(d)) continue;
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) stack.push(p);
      else out[relative(root, p)] = hash(p);
    }
  }
  for (const f of ['.hub.yml', 'hub.config.yaml'])
    if (existsSync(join(root, f))) out[f] = hash(join(root, f));
  return out;
}

/** Values for fields a route needs to do real work (not just answer 400). */
const SAMPLES: Record<string, string> = {
  path: 'platform/identity/README.md',
  ref: 'identity',
  q: 'a',
  query: 'identity',
  component: 'platform/identity',
  project: 'platform',
  repo: 'identity',
  since: '2000-01-01T00:00:00Z',
  repository: 'platform/identity',
  agent_id: 'agent-a',
  pattern: 'services/**',
};

const kindOf = (field: z.ZodType): string => {
  let cur = field as unknown as { _zod: { def: { type: string; innerType?: unknown } } };
  while (cur._zod.def.innerType) cur = cur._zod.def.innerType as typeof cur;
  return cur._zod.def.type;
};

/** Switches that make an operation write, tried on every route whether its schema has them or not. */
const WRITE_SWITCHES = ['advance', 'apply', 'save', 'fix', 'force'];

/** `{}`, the samples the route's input has, and each boolean (and write switch) turned on. */
function queriesFor(op: AnyOperation): Record<string, string>[] {
  const shape = op.input.shape as Record<string, z.ZodType>;
  const sampled = Object.fromEntries(
    Object.keys(shape).flatMap((k) => (SAMPLES[k] ? [[k, SAMPLES[k]]] : [])),
  );
  const flags = Object.keys(shape).filter((k) => kindOf(shape[k]!) === 'boolean');
  const switches = [...new Set([...flags, ...WRITE_SWITCHES])];
  return [{}, sampled, ...switches.map((f) => ({ ...sampled, [f]: 'true' }))];
}

const pathOf = (route: string, query: Record<string, string>) => {
  const p = route.replace('{name}', 'session').replace('{id}', 'obj-1');
  const q = new URLSearchParams(query).toString();
  return q ? `${p}?${q}` : p;
};

/** A streaming route held open a moment (it follows the feed), then left, as a client would. */
async function streamed(base: string, path: string): Promise<{ status: number; text: string }> {
  const s = await openSse(`${base}${path}`, { origin: 'https://evil.example' });
  if (s.status === 200) await s.next(1000).catch(() => undefined);
  s.close();
  return { status: s.status, text: s.text ?? '' };
}

beforeAll(async () => {
  dir = createTempDir('hub-get-');
  ({ manifestPath: manifest, root } = createDemo(join(dir, 'demo')));
  const hub = (...args: string[]) => {
    const r = runHub(['-c', manifest, ...args, '--json']);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  };
  writeFileSync(join(root, 'hub.config.yaml'), 'state:\n  backend: local\n');
  hub('session', 'begin', '--project-name', 'platform');
  hub('context', 'objective', 'set', '--id', 'obj-1', '--title', 'Ship it', '--status', 'in_progress');
  hub('context', 'handoff', 'create', '--id', 'h-1', '--title', 'Take over');
  hub('context', 'handoff', 'create', '--id', 'h-2', '--title', 'Claimed for good');
  hub('context', 'handoff', 'claim', '--id', 'h-2', '--by', 'agent-b');
  hub('context', 'approval', 'request', '--action', 'deploy');
  // A commit after the boundary: a digest that moved the boundary would record its HEAD.
  const repo = join(root, 'platform/identity');
  writeFileSync(join(repo, 'CHANGELOG.md'), 'x\n');
  git(repo, ['add', '.']);
  git(repo, ['commit', '-q', '-m', 'Add a changelog']);
  web = await startTestServer({ root });
  api = await startTestServer({ root, mode: 'api' });
});
afterAll(async () => {
  await web?.close();
  await api?.close();
  removeTempDir(dir);
});

describe('GET never changes state', () => {
  it('leaves .hub/ byte-identical after every GET route with sampled inputs, even cross-site', async () => {
    const before = snapshot();
    expect(Object.keys(before).some((p) => p.includes('session'))).toBe(true);
    const tried: string[] = [];
    for (const [server, families] of [
      [web, ['v2', 'v3']],
      [api, ['v1', 'v2']],
    ] as const) {
      for (const { op, binding } of boundRoutes(OPERATIONS, families)) {
        if (binding.method !== 'GET') continue;
        for (const query of queriesFor(op)) {
          const path = pathOf(binding.route, query);
          const r = binding.stream
            ? await streamed(server.base, path)
            : await call(server.base, 'GET', path, { headers: { origin: 'https://evil.example' } });
          expect(r.status, `GET ${path}: ${r.text.slice(0, 200)}`).toBeLessThan(500);
          tried.push(path);
          expect(snapshot(), `GET ${path} changed state`).toEqual(before);
        }
      }
    }
    // The whole-document and generic state routes (not in the registry).
    for (const path of ['/v3/ops/objectives', '/v3/ops/state/session', '/v3/ops/state/events']) {
      const r = await call(web.base, 'GET', path);
      expect(r.status, path).toBeLessThan(500);
      expect(snapshot(), `GET ${path} changed state`).toEqual(before);
    }
    expect(tried).toContain('/v3/ops/session?project=platform&repo=identity&advance=true');
  });

  it('refuses advance on GET /v3/ops/session and moves the boundary only by a write', async () => {
    const r = await call(web.base, 'GET', '/v3/ops/session?advance=true');
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('validation');
    const digest = (await call(web.base, 'GET', '/v3/ops/session?project=platform')).json;
    expect(
      digest.repo_changes.find((c: { repository: string }) => c.repository === 'platform/identity'),
    ).toMatchObject({ commit_count: 1 });
    // The write that moves it: POST /v3/ops/session (session update --advance), refused cross-site.
    const foreign = await call(web.base, 'POST', '/v3/ops/session', {
      body: { advance: true },
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    const moved = await call(web.base, 'POST', '/v3/ops/session', { body: { advance: true } });
    expect(moved.status, moved.text).toBe(200);
    const after = (await call(web.base, 'GET', '/v3/ops/session?project=platform')).json;
    expect(after.repo_changes.every((c: { commit_count: number }) => c.commit_count === 0)).toBe(true);
  });
});

describe('GET /v3/ops/handoffs with an expired claim', () => {
  // Listing is a pure view: the expired claim is shown released, and nothing is written.
  it('leaves .hub/ byte-identical', async () => {
    const file = join(root, '.hub/handoffs.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    for (const h of doc.handoffs) if (h.id === 'h-2') h.claim_expires_at = '2000-01-01T00:00:00.000Z';
    writeFileSync(file, JSON.stringify(doc));
    const before = snapshot();
    // With a query the route lists through the operation (without one it answers the stored document).
    const r = await call(web.base, 'GET', '/v3/ops/handoffs?status=claimed');
    expect(r.status).toBe(200);
    expect(snapshot()).toEqual(before);
  });
});
