import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { connectHub, rpcError } from './mcp-client.js';
import { runHub } from './run-hub.js';

let dir: string;
let root: string;

beforeAll(() => {
  dir = createTempDir('hub-errors-');
  root = createDemo(join(dir, 'demo')).root;
});
afterAll(() => removeTempDir(dir));

const hub = (args: string[], cwd = root) => runHub(args, { cwd });

describe('human-mode errors say what --json carries', () => {
  it('prints the hint to run hub init when there is no manifest', () => {
    const r = hub(['component', 'list'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/hint: run `hub init`/);
  });

  it('prints the known projects and a did-you-mean for an unknown project', () => {
    const json = hub(['component', 'list', '--project', 'platfrom', '--json']).json().error;
    expect(json.message).toMatch(/did you mean 'platform'\?/);
    expect(json.details).toMatchObject({ field: 'project', value: 'platfrom', suggestions: ['platform'] });
    expect(json.details.known_projects).toEqual(['platform', 'storefront']);
    const r = hub(['component', 'list', '--project', 'platfrom']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/did you mean 'platform'\?/);
    expect(r.stderr).toMatch(/known projects: platform, storefront/);
  });

  it('suggests the close repository and component name', () => {
    const repo = hub(['component', 'list', '--project', 'platform', '--repo', 'identiy', '--json']).json()
      .error;
    expect(repo.message).toMatch(/did you mean 'identity'\?/);
    expect(repo.details.suggestions).toEqual(['identity']);
    const show = hub(['component', 'show', 'apii', '--json']).json().error;
    expect(show.message).toMatch(/did you mean 'api'\?/);
    expect(show.details.suggestions).toEqual(['api']);
    const compile = hub([
      'context',
      'compile',
      '--project',
      'platform',
      '--repo',
      'identity',
      '--component',
      'apx',
    ]);
    expect(compile.code).toBe(1);
    expect(compile.stderr).toMatch(/did you mean 'api'\?/);
    const far = hub(['component', 'show', 'zzzzzz', '--json']).json().error;
    expect(far.message).not.toMatch(/did you mean/);
  });

  it('never shows an internal operation id; names the field instead', () => {
    const r = hub(['context', 'pack', '--tier', '7']);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('context.pack');
    expect(r.stderr).toMatch(/^error: tier: /);
    expect(hub(['context', 'pack', '--tier', '7', '--json']).json().error.message).toMatch(/^tier: /);
  });
});

describe('the same messages on HTTP and MCP', () => {
  let server: RunningServer;
  let client: Client;
  beforeAll(async () => {
    server = await startTestServer({ root });
    client = await connectHub(root);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('HTTP: no operation id, and the did-you-mean in message and details', async () => {
    const pack = await call(server.base, 'POST', '/v3/ops/context/pack', { body: { tier: 7 } });
    expect(pack.status).toBe(400);
    expect(pack.json.error.message).toMatch(/^tier: /);
    const list = await call(server.base, 'GET', '/v3/ops/components?project=storefrnt');
    expect(list.json.error.message).toMatch(/did you mean 'storefront'\?/);
    expect(list.json.error.details.suggestions).toEqual(['storefront']);
  });

  it('MCP: no operation id, and the did-you-mean in the message', async () => {
    const tier = await rpcError(
      client.callTool({ name: 'hub_context_pack', arguments: { tier: 7 } }),
      -32602,
    );
    expect(tier.message).toMatch(/tier: /);
    expect(tier.message).not.toContain('context.pack');
    const show = await rpcError(
      client.callTool({ name: 'hub_component_show', arguments: { component: 'gatway' } }),
      -32602,
    );
    expect(show.message).toMatch(/did you mean 'gateway'\?/);
  });
});
