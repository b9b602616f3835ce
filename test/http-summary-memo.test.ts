// GET /v2/workspace/summary (the browser UI header waits on it) on a real server: the manifest rules run once
// per loaded manifest, the filesystem rules on every request; an edit to the manifest is seen on the next one.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestRuleRuns } from '../src/ops/manifest-problems-memo.js';
import { buildWorkspace, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';

let root: string;
let manifestPath: string;
let server: RunningServer;

beforeAll(async () => {
  const ws = buildWorkspace({
    projects: [
      {
        name: 'p',
        repos: [
          {
            name: 'r',
            files: { 'a/x.txt': 'x\n', 'b/y.txt': 'y\n' },
            components: [
              { name: 'a', path: 'a' },
              { name: 'b', path: 'b' },
            ],
          },
        ],
      },
    ],
  });
  root = ws.root;
  manifestPath = ws.manifestPath;
  server = await startTestServer({ root });
});
afterAll(async () => {
  await server.close();
  removeTempDir(root);
});

const summary = async () => {
  const r = await call(server.base, 'GET', '/v2/workspace/summary');
  expect(r.status, r.text).toBe(200);
  const dim = (name: string) => r.json.dimensions.find((d: { name: string }) => d.name === name);
  return {
    tool: dim('tool_gate').detail as string,
    maintenance: dim('maintenance').detail as string,
    components: r.json.counts.components as number,
  };
};

describe('GET /v2/workspace/summary', () => {
  it('runs the manifest rules once per loaded manifest, sees an edit on the next request', async () => {
    const first = await summary();
    expect(first).toEqual({
      tool: 'valid .hub.yml: tools are active',
      maintenance: '0 critical, 0 warning finding(s)',
      components: 2,
    });
    const runs = manifestRuleRuns();
    expect(await summary()).toEqual(first);
    expect(await summary()).toEqual(first);
    expect(manifestRuleRuns()).toBe(runs);
    const text = readFileSync(manifestPath, 'utf8');
    // A third component whose folder does not exist: the new manifest is read and judged on the next request.
    writeFileSync(
      manifestPath,
      text.replace('path: b', 'path: b\n            - name: c\n              path: c'),
    );
    // (A missing component folder counts among the manifest's problems, as `config validate` reports it.)
    expect(await summary()).toEqual({
      tool: 'tools are active, but `hub config validate` finds 1 problem(s) in .hub.yml',
      maintenance: '0 critical, 1 warning finding(s)',
      components: 3,
    });
    expect(manifestRuleRuns()).toBe(runs + 1);
    // A duplicate component name: the manifest no longer loads, and the summary says why.
    writeFileSync(manifestPath, `${text.replace('name: b', 'name: a')}# edited\n`);
    expect((await summary()).tool).toContain("duplicate component name 'a'");
    writeFileSync(manifestPath, text);
    expect(await summary()).toEqual(first);
    expect(manifestRuleRuns()).toBe(runs + 2);
  });

  it('judges the filesystem on every request: a removed component folder shows at once', async () => {
    const before = await summary();
    expect(before.maintenance).toBe('0 critical, 0 warning finding(s)');
    const runs = manifestRuleRuns();
    rmSync(join(root, 'p/r/b'), { recursive: true });
    expect((await summary()).maintenance).toBe('0 critical, 1 warning finding(s)');
    expect(manifestRuleRuns()).toBe(runs);
  });
});
