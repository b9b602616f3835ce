// Config Studio's backend on real files: config tree, config preview, config patch (CLI, built), the two preview
// routes on a real server, and the application config's preview with its secrets redacted.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffLines } from 'diff';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, makeGitRepo, removeTempDir } from './fixtures/index.js';
import { call, startTestServer } from './http-server.js';
import { runHub } from './run-hub.js';

const MANIFEST = `# Team workspace: edited by hand; keep the comments.
workspace:
  name: "acme"   # quoted on purpose
  projects:
  - name: platform
    tags: {team: platform}
    repos:
      - name: api
        path: ./platform/api      # the checkout
        description: 'the API'
        components:
          - {name: server, path: services/server, kind: service}
          - name: client
            path:   "packages/client"
            depends_on: [server]      # same repo
graph:
  relationships: []   # none yet
`;

const CONFIG = `# settings (a comment stays)
state:
  backend: local   # default
  token: state-token-SECRET1234
coordination:
  allowed_branch_prefixes: [ "agent/" ]
`;

let dir: string;
let ws: string;
let manifest: string;

beforeAll(() => {
  dir = createTempDir('hub-studio-');
  ws = join(dir, 'ws');
  makeGitRepo(join(ws, 'platform', 'api'), {
    'services/server/main.go': 'package main\n',
    'packages/client/package.json': '{}\n',
    'cmd/tool/main.go': 'package main\n',
  });
  manifest = join(ws, '.hub.yml');
  writeFileSync(join(ws, 'hub.config.yaml'), CONFIG);
});
afterAll(() => removeTempDir(dir));

/** A fresh copy of the hand-written manifest before each test that writes. */
function reset(text = MANIFEST): void {
  writeFileSync(manifest, text);
}

function opsFile(name: string, ops: unknown): string {
  const p = join(ws, name);
  writeFileSync(p, JSON.stringify(ops));
  return p;
}

function changed(before: string, after: string): { removed: string[]; added: string[] } {
  const removed: string[] = [];
  const added: string[] = [];
  for (const part of diffLines(before, after)) {
    const lines = part.value.replace(/\n$/, '').split('\n');
    if (part.removed) removed.push(...lines);
    if (part.added) added.push(...lines);
  }
  return { removed, added };
}

const API = '/workspace/projects/platform/repos/api';

describe('config tree', () => {
  it('prints the manifest as a schema-annotated tree', () => {
    reset();
    const r = runHub(['config', 'tree', '--json'], { cwd: ws });
    expect(r.code, r.stderr).toBe(0);
    const { tree } = r.json();
    const byPath = new Map<string, Record<string, unknown>>();
    const stack = [tree];
    while (stack.length) {
      const n = stack.pop();
      byPath.set(n.path, n);
      stack.push(...(n.children ?? []));
    }
    expect(byPath.get(`${API}/components/client/path`)).toMatchObject({
      type: 'string',
      value: 'packages/client',
      set: true,
    });
    expect(byPath.get(`${API}/default_branch`)).toMatchObject({ set: false, value: null });
    expect(byPath.get('/workspace/projects/platform/repos')).toMatchObject({ default: [], set: true });
    const sub = runHub(['config', 'tree', '--path', `${API}/components/server`, '--json'], { cwd: ws });
    expect(sub.json().tree.children.map((c: { key: string }) => c.key)).toContain('depends_on');
    const human = runHub(['config', 'tree'], { cwd: ws });
    expect(human.stdout).toContain('kind: "service"  [string]');
    const miss = runHub(['config', 'tree', '--path', '/workspace/projects/ghost', '--json'], { cwd: ws });
    expect(miss.code).toBe(1);
    expect(miss.json().error).toMatchObject({ code: 'not_found', details: { rule: 'no_such_path' } });
  });
});

describe('config preview', () => {
  it('shows the draft normalized, minimal and on disk, without writing', () => {
    reset();
    const ops = opsFile('ok.json', [
      { op: 'set', path: `${API}/description`, value: 'the public API' },
      {
        op: 'append',
        path: '/graph/relationships',
        value: {
          id: 'r1',
          from: { project: 'platform', repo: 'api' },
          to: { project: 'platform', repo: 'api' },
          type: 'self',
        },
      },
    ]);
    const norm = runHub(['config', 'preview', '--file', ops, '--json'], { cwd: ws });
    expect(norm.code, norm.stdout).toBe(0);
    expect(norm.json()).toMatchObject({ style: 'normalized', operations: 2, changed: true, valid: true });
    expect(norm.json().model.graph.relationships[0]).toMatchObject({
      status: 'active',
      provenance: 'manual',
    });
    expect(norm.json().text).toContain('description: the public API');
    const min = runHub(['config', 'preview', '--file', ops, '--style', 'minimal', '--json'], { cwd: ws });
    expect(min.json().model.graph.relationships[0]).toEqual({
      id: 'r1',
      from: { project: 'platform', repo: 'api' },
      to: { project: 'platform', repo: 'api' },
      type: 'self',
    });
    const disk = runHub(['config', 'preview', '--file', ops, '--style', 'on-disk', '--json'], { cwd: ws });
    expect(disk.json()).toMatchObject({ text: MANIFEST, model: null, changed: true });
    expect(readFileSync(manifest, 'utf8')).toBe(MANIFEST);
  });

  it("reports the draft's validation errors with their paths, lines and operations, and exits 1", () => {
    reset();
    const ops = opsFile('bad.json', {
      operations: [
        { op: 'set', path: `${API}/components/client/depends_on`, value: ['ghost'] },
        { op: 'set', path: `${API}/colour`, value: 'red' },
        { op: 'remove', path: `${API}/components`, value: 'nobody' },
      ],
    });
    const r = runHub(['config', 'preview', '--file', ops, '--json'], { cwd: ws });
    expect(r.code).toBe(1);
    const out = r.json();
    expect(out.valid).toBe(false);
    expect(out.model).toBeNull();
    const errs = out.validation_errors;
    expect(errs).toContainEqual(
      expect.objectContaining({ operation: 2, rule: 'no_match', path: `${API}/components` }),
    );
    const unknown = errs.find((e: { rule: string }) => e.rule === 'schema.unrecognized_keys');
    expect(unknown).toMatchObject({
      path: expect.stringContaining('workspace.projects[0].repos[0]'),
      new: true,
    });
    expect(unknown.line).toBeGreaterThan(0);
    const human = runHub(['config', 'preview', '--file', ops], { cwd: ws });
    expect(human.stdout).toContain('validation error(s)');
    expect(human.stdout).toContain('(operation 2)');
  });

  it('refuses an operations file that is not a list of operations, naming the field', () => {
    const bad = opsFile('shape.json', [{ op: 'move', path: '/a' }]);
    const r = runHub(['config', 'preview', '--file', bad, '--json'], { cwd: ws });
    expect(r.code).toBe(1);
    expect(r.json().error.details).toMatchObject({ field: 'file', rule: 'patch_operations' });
    writeFileSync(join(ws, 'broken.json'), '[{');
    const j = runHub(['config', 'preview', '--file', join(ws, 'broken.json'), '--json'], { cwd: ws });
    expect(j.json().error.details).toMatchObject({ field: 'file', rule: 'json' });
  });

  it('refuses an operations file whose value nests 100,000 deep, naming the file (issue 25)', () => {
    reset();
    const n = 100_000;
    const deep = join(ws, 'deep.json');
    writeFileSync(
      deep,
      `[{"op": "set", "path": "${API}/description", "value": ${'['.repeat(n)}${']'.repeat(n)}}]`,
    );
    for (const cmd of ['preview', 'patch']) {
      const r = runHub(['config', cmd, '--file', deep, '--json'], { cwd: ws });
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).not.toMatch(/Maximum call stack|"internal"/);
      expect(r.json().error).toMatchObject({ code: 'validation', details: { rule: 'max_depth' } });
      expect(r.json().error.message).toContain(deep);
    }
  });
});

describe('config patch', () => {
  it('--save changes only the lines the operations change', () => {
    reset();
    const ops = opsFile('save.json', [
      { op: 'set', path: `${API}/description`, value: 'the public API' },
      { op: 'append', path: `${API}/components`, value: { name: 'tool', path: 'cmd/tool', kind: 'cli' } },
      { op: 'unset', path: '/workspace/projects/platform/tags' },
    ]);
    const preview = runHub(['config', 'patch', '--file', ops, '--json'], { cwd: ws });
    expect(preview.json()).toMatchObject({ saved: false, changed: true, valid: true });
    expect(readFileSync(manifest, 'utf8')).toBe(MANIFEST);
    const r = runHub(['config', 'patch', '--file', ops, '--save'], { cwd: ws });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const after = readFileSync(manifest, 'utf8');
    expect(after).toBe(preview.json().text);
    const d = changed(MANIFEST, after);
    expect(d.removed).toEqual(['    tags: {team: platform}', "        description: 'the API'"]);
    expect(d.added).toEqual([
      "        description: 'the public API'",
      '          - name: tool',
      '            path: cmd/tool',
      '            kind: cli',
    ]);
    expect(runHub(['config', 'validate'], { cwd: ws }).code).toBe(0);
  });

  it('writes nothing when the draft adds a validation error, and reports it', () => {
    reset();
    const ops = opsFile('invalid.json', [
      { op: 'set', path: `${API}/components/server/path`, value: 'missing/dir' },
    ]);
    const r = runHub(['config', 'patch', '--file', ops, '--save', '--json'], { cwd: ws });
    expect(r.code).toBe(1);
    expect(r.json()).toMatchObject({ saved: false, valid: false });
    expect(r.json().validation_errors).toContainEqual(
      expect.objectContaining({ rule: 'missing_directory', new: true }),
    );
    expect(readFileSync(manifest, 'utf8')).toBe(MANIFEST);
  });

  it('is not blocked by a problem the file on disk has already', () => {
    const broken = MANIFEST.replace('path: services/server', 'path: services/gone');
    reset(broken);
    const ops = opsFile('other.json', [{ op: 'set', path: `${API}/default_branch`, value: 'main' }]);
    const r = runHub(['config', 'patch', '--file', ops, '--save', '--json'], { cwd: ws });
    expect(r.code, r.stdout).toBe(0);
    expect(r.json()).toMatchObject({ saved: true, valid: true });
    expect(r.json().validation_errors).toContainEqual(
      expect.objectContaining({ rule: 'missing_directory', new: false }),
    );
    expect(changed(broken, readFileSync(manifest, 'utf8')).added).toEqual(['        default_branch: main']);
  });

  it('fails on an operation that cannot apply, writing nothing', () => {
    reset();
    const ops = opsFile('stale.json', [
      { op: 'set', path: '/workspace/projects/gone/description', value: 'x' },
    ]);
    const r = runHub(['config', 'patch', '--file', ops, '--save', '--json'], { cwd: ws });
    expect(r.code).toBe(1);
    expect(r.json().error.details).toMatchObject({ operation: 0, rule: 'no_item' });
    expect(readFileSync(manifest, 'utf8')).toBe(MANIFEST);
  });
});

describe('appconfig preview', () => {
  it('redacts tokens as *** plus the last four characters in every style', () => {
    const ops = opsFile('cfg.json', [
      // (server.token is for the user's own config only: a workspace draft setting it is a validation error.)
      { op: 'set', path: 'state.api_key', value: 'new-key-SECRET7777' },
      { op: 'append', path: '/coordination/allowed_branch_prefixes', value: 'bot/' },
    ]);
    for (const style of ['normalized', 'minimal', 'on-disk']) {
      const r = runHub(['appconfig', 'preview', '--file', ops, '--style', style, '--json'], { cwd: ws });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout, style).not.toContain('SECRET');
      expect(r.stdout, style).toContain('***1234');
    }
    const min = runHub(['appconfig', 'preview', '--file', ops, '--style', 'minimal', '--json'], { cwd: ws });
    expect(min.json().model).toEqual({
      state: { token: '***1234', api_key: '***7777' },
      coordination: { allowed_branch_prefixes: ['agent/', 'bot/'] },
    });
    expect(readFileSync(join(ws, 'hub.config.yaml'), 'utf8')).toBe(CONFIG);
  });

  it('reports invalid values with their paths', () => {
    const ops = opsFile('cfg-bad.json', [
      { op: 'set', path: '/state/backend', value: 's3' },
      { op: 'set', path: 'state.nope', value: 1 },
    ]);
    const r = runHub(['appconfig', 'preview', '--file', ops, '--json'], { cwd: ws });
    expect(r.code).toBe(1);
    const errs = r.json().validation_errors;
    expect(errs).toContainEqual(expect.objectContaining({ operation: 1, rule: 'unknown_key' }));
    expect(errs).toContainEqual(expect.objectContaining({ path: 'state.backend', operation: 0 }));
    expect(r.stdout).not.toContain('SECRET');
  });
});

describe('appconfig tree', () => {
  it('prints hub.config.yaml as a schema-annotated tree, secrets redacted, on the CLI and over HTTP', async () => {
    const r = runHub(['appconfig', 'tree', '--json'], { cwd: ws });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('SECRET');
    const { file, tree } = r.json();
    expect(file).toBe(join(ws, 'hub.config.yaml'));
    const byPath = new Map<string, Record<string, unknown>>();
    const stack = [tree];
    while (stack.length) {
      const n = stack.pop();
      byPath.set(n.path, n);
      stack.push(...(n.children ?? []));
    }
    expect(byPath.get('/state/token')).toMatchObject({ set: true, value: '***1234' });
    expect(byPath.get('/state/backend')).toMatchObject({ type: 'enum', set: true, value: 'local' });
    expect(byPath.get('/state/conflict_retries')).toMatchObject({ set: false, default: 1, value: 1 });
    expect(byPath.get('/coordination/allowed_branch_prefixes/0')).toMatchObject({ value: 'agent/' });
    const sub = runHub(['appconfig', 'tree', '--path', '/state', '--json'], { cwd: ws });
    expect(sub.json().tree.path).toBe('/state');
    // A mapping the file leaves out, asked for by its path, lists its fields (what Config Studio expands).
    const unset = runHub(['appconfig', 'tree', '--path', '/merge', '--json'], { cwd: ws }).json().tree;
    expect(unset).toMatchObject({ path: '/merge', set: false });
    expect(unset.children).toContainEqual(
      expect.objectContaining({ path: '/merge/timeout_ms', set: false, default: 600000 }),
    );
    expect(runHub(['appconfig', 'tree'], { cwd: ws }).stdout).toContain('token: "***1234"');
    const srv = await startTestServer({ root: ws });
    try {
      const http = await call(srv.base, 'GET', '/v3/config/appconfig/tree');
      expect(http.status, http.text).toBe(200);
      expect(http.json).toEqual(r.json());
      expect(http.text).not.toContain('SECRET');
    } finally {
      await srv.close();
    }
    expect(readFileSync(join(ws, 'hub.config.yaml'), 'utf8')).toBe(CONFIG);
  });
});

describe('the preview routes', () => {
  it('POST /v3/config/hub/preview and /v3/config/appconfig/preview take {style, operations}', async () => {
    reset();
    const srv = await startTestServer({ root: ws });
    try {
      const hub = await call(srv.base, 'POST', '/v3/config/hub/preview', {
        body: {
          style: 'minimal',
          operations: [{ op: 'set', path: `${API}/description`, value: 'via http' }],
        },
      });
      expect(hub.status, hub.text).toBe(200);
      expect(hub.json).toMatchObject({ style: 'minimal', valid: true, changed: true });
      expect(hub.json.text).toContain('description: via http');
      const app = await call(srv.base, 'POST', '/v3/config/appconfig/preview', {
        body: { style: 'normalized', operations: [{ op: 'set', path: 'state.conflict_retries', value: 3 }] },
      });
      expect(app.status, app.text).toBe(200);
      expect(app.json.model.state).toMatchObject({ conflict_retries: 3, token: '***1234' });
      expect(app.text).not.toContain('SECRET');
      const bad = await call(srv.base, 'POST', '/v3/config/hub/preview', {
        body: { operations: [{ op: 'set', path: '/x' }] },
      });
      expect(bad.status).toBe(400);
      const tree = await call(srv.base, 'GET', `/v3/config/hub/tree?path=${encodeURIComponent(API)}`);
      expect(tree.status).toBe(200);
      expect(tree.json.tree.path).toBe(API);
      expect(readFileSync(manifest, 'utf8')).toBe(MANIFEST);
    } finally {
      await srv.close();
    }
  });

  it('reads an operations file over HTTP only inside the workspace', async () => {
    const outside = join(dir, 'outside');
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'ops.json'), '[]');
    const srv = await startTestServer({ root: ws });
    try {
      const r = await call(srv.base, 'POST', '/v3/config/hub/preview', {
        body: { file: join(outside, 'ops.json') },
      });
      expect(r.status).toBe(400);
      expect(r.json.error.details).toMatchObject({ field: 'file', rule: 'inside_workspace' });
    } finally {
      await srv.close();
    }
  });
});
