#!/usr/bin/env node
// Start-up of the MCP tool server: time from spawn to the first tools/list answer, `hub mcp serve` on the demo
// workspace against a bare SDK server with one tool (McpServer + StdioServerTransport); plus the token size of
// the full and core tool lists.
// Usage: npm run build && node bench/mcp-startup.mjs [--runs 21] [--quick]   (--quick: 1 run, no warm-up)
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDemo } from '../examples/demo-workspace.mjs';
import {
  createTempDir,
  HUB_BIN,
  median,
  progress,
  QUICK,
  round,
  runBench,
  timeSpawn,
} from './lib/measure.mjs';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: QUICK ? '1' : '21' }, quick: { type: 'boolean' } },
});
const RUNS = Number(values.runs);
const WARMUP = QUICK ? 0 : 3;

const MESSAGES = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
]
  .map((m) => `${JSON.stringify(m)}\n`)
  .join('');

/** Spawns a server, sends initialize + tools/list at once, and resolves with the ms until the tools/list answer. */
function timeToToolsList(args, env) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let done = false;
    const timer = setTimeout(
      () => finish(new Error(`no tools/list answer in 30 s: ${err.slice(-400)}`)),
      30_000,
    );
    function finish(error, ms, tools) {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.stdin.end();
      child.once('close', () => (error ? reject(error) : resolve({ ms, tools })));
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    }
    child.stderr.on('data', (c) => {
      err += c;
    });
    child.stdout.on('data', (c) => {
      out += c;
      for (const line of out.split('\n').slice(0, -1)) {
        const m = JSON.parse(line);
        if (m.id === 2) {
          const ms = Number(process.hrtime.bigint() - start) / 1e6;
          if (!m.result?.tools) return finish(new Error(`tools/list failed: ${line.slice(0, 400)}`));
          return finish(undefined, ms, m.result.tools.length);
        }
      }
    });
    child.on('error', (e) => finish(e));
    child.stdin.write(MESSAGES);
  });
}

await runBench('mcp-startup', async ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-mcp-'));
  const cache = cleanup(createTempDir('hub-bench-mcp-cache-'));
  const demo = createDemo(join(dir, 'demo'));

  // The bare server imports the same SDK (and zod) this project installs.
  const sdkServer = import.meta.resolve('@modelcontextprotocol/sdk/server/mcp.js');
  const sdkStdio = import.meta.resolve('@modelcontextprotocol/sdk/server/stdio.js');
  const zod = import.meta.resolve('zod');
  const bare = join(dir, 'bare-server.mjs');
  writeFileSync(
    bare,
    `import { McpServer } from ${JSON.stringify(sdkServer)};
import { StdioServerTransport } from ${JSON.stringify(sdkStdio)};
import * as z from ${JSON.stringify(zod)};
const server = new McpServer({ name: 'bare', version: '1.0.0' });
server.registerTool('echo', { description: 'Echo the text.', inputSchema: { text: z.string() } }, async ({ text }) => ({
  content: [{ type: 'text', text }],
}));
await server.connect(new StdioServerTransport());
`,
  );

  const env = { ...process.env, HUB_CACHE_DIR: cache, HUB_OFFLINE: '1' };
  const cases = {
    hub: [HUB_BIN, 'mcp', 'serve', '--root', demo.root],
    bare_sdk: [bare],
  };
  const samples = { hub: [], bare_sdk: [] };
  const tools = {};
  for (let i = 0; i < WARMUP + RUNS; i++) {
    for (const [name, args] of Object.entries(cases)) {
      const r = await timeToToolsList(args, env);
      tools[name] = r.tools;
      if (i >= WARMUP) samples[name].push(r.ms);
    }
    if (i >= WARMUP && (i - WARMUP + 1) % Math.max(1, Math.floor(RUNS / 5)) === 0)
      progress(`runs: ${i - WARMUP + 1}/${RUNS}`);
  }
  const hubMs = median(samples.hub);
  const bareMs = median(samples.bare_sdk);

  const sizes = JSON.parse(timeSpawn(process.execPath, [HUB_BIN, 'mcp', 'tools', '--json'], { env }).stdout);
  return {
    hub_ms: round(hubMs),
    bare_sdk_ms: round(bareMs),
    ratio: round(hubMs / bareMs, 2),
    hub_min_ms: round(Math.min(...samples.hub)),
    bare_sdk_min_ms: round(Math.min(...samples.bare_sdk)),
    hub_tools: tools.hub,
    tools_full: sizes.full.tools,
    tokens_full: sizes.full.tokens,
    tools_core: sizes.core.tools,
    tokens_core: sizes.core.tokens,
    runs: RUNS,
    node: process.version,
  };
});
