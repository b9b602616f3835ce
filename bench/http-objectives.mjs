#!/usr/bin/env node
// GET /v3/ops/objectives requests per second from the hub server against a bare node:http server that answers the
// same bytes and headers, in one run; plus sequential read-modify-write PUTs with If-Match (local backend).
// Usage: node bench/http-objectives.mjs [--connections 10] [--seconds 5] [--rounds 3] [--objectives 20] [--puts 300]
// [--quick]   (--quick: 2 connections, 1 round of 1 s, no warm-up, 10 PUTs)
// (stdout: exactly one JSON object; progress on stderr). src/surfaces/http is bundled with esbuild into a temp
// file; each server runs in a child process of its own, autocannon (as a library) in this one.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createTempDir, median, progress, QUICK, ROOT } from './lib/measure.mjs';

const SELF = fileURLToPath(import.meta.url);
const PATH = '/v3/ops/objectives';
// The bundle keeps packages external, so it must sit where node resolves them: inside the project, never in a
// temp folder (from /tmp, `import 'zod'` finds nothing and the server never starts).
const BUNDLE_DIR = join(ROOT, 'node_modules', '.cache', `hub-bench-http-${process.pid}`);

if (process.argv[2] === '--serve') await serve(process.argv.slice(3));
else await main();

/** A child process: the hub server (bundle, root) or the bare server (body file, headers JSON); prints its port. */
async function serve([kind, ...args]) {
  if (kind === 'hub') {
    const [bundle, root] = args;
    const { startHubServer } = await import(pathToFileURL(bundle).href);
    const server = await startHubServer({
      mode: 'web',
      root,
      env: { HUB_CACHE_DIR: 'off' },
      host: '127.0.0.1',
      port: 0,
      explicitPort: true,
      uiDir: null,
    });
    process.stdout.write(`${server.listening.port}\n`);
  } else {
    const [bodyJson, headersJson] = args;
    const body = Buffer.from(JSON.parse(bodyJson), 'utf8');
    const headers = JSON.parse(headersJson);
    const server = createServer((_req, res) => {
      res.writeHead(200, { ...headers, 'content-length': body.length });
      res.end(body);
    });
    // The same keep-alive window as fastify's default, so both servers treat connections alike.
    server.keepAliveTimeout = 72_000;
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    process.stdout.write(`${server.address().port}\n`);
  }
  process.stdin.resume();
  await once(process.stdin, 'end');
  process.exit(0);
}

async function bundleServer() {
  const { build } = await import('esbuild');
  mkdirSync(BUNDLE_DIR, { recursive: true });
  const outfile = join(BUNDLE_DIR, 'http.mjs');
  await build({
    stdin: {
      contents: "export { startHubServer } from './src/surfaces/http/index.ts';",
      resolveDir: ROOT,
      loader: 'ts',
    },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
  return outfile;
}

async function startChild(args) {
  const child = spawn(process.execPath, [SELF, '--serve', ...args], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const { value } = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
  const port = Number(value);
  if (!port) throw new Error(`server did not start: ${value}`);
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.stdin.end();
      await once(child, 'exit');
    },
  };
}

async function load(url, connections, seconds) {
  const { default: autocannon } = await import('autocannon');
  const r = await autocannon({ url: `${url}${PATH}`, connections, duration: seconds, pipelining: 1 });
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r.requests.average;
}

/** Sequential read-modify-write: GET for the ETag, append one objective, PUT with If-Match. */
async function putLoop(url, count) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    const got = await fetch(`${url}${PATH}`);
    const etag = got.headers.get('etag') ?? '""';
    const doc = await got.json();
    doc.objectives.push({
      id: `put-${i}`,
      title: `Put ${i}`,
      status: 'pending',
      repos: [],
      created_at: 'x',
      updated_at: 'x',
    });
    doc.objectives.shift();
    const put = await fetch(`${url}${PATH}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'if-match': etag },
      body: JSON.stringify(doc),
    });
    if (put.status !== 200) throw new Error(`PUT answered ${put.status}: ${await put.text()}`);
    await put.arrayBuffer();
  }
  return count / (Number(process.hrtime.bigint() - start) / 1e9);
}

async function main() {
  const { values } = parseArgs({
    options: {
      connections: { type: 'string', default: QUICK ? '2' : '10' },
      seconds: { type: 'string', default: QUICK ? '1' : '5' },
      rounds: { type: 'string', default: QUICK ? '1' : '3' },
      objectives: { type: 'string', default: '20' },
      puts: { type: 'string', default: QUICK ? '10' : '300' },
      quick: { type: 'boolean' },
    },
  });
  const connections = Number(values.connections);
  const seconds = Number(values.seconds);
  const rounds = Number(values.rounds);
  const dir = createTempDir('hub-bench-http-');
  let result;
  const children = [];
  try {
    // A workspace root with a realistic objectives document in the local backend.
    const root = join(dir, 'ws');
    mkdirSync(join(root, '.hub'), { recursive: true });
    writeFileSync(join(root, '.hub.yml'), 'workspace:\n  name: bench\n  projects: []\n');
    const now = new Date().toISOString();
    const objectives = Array.from({ length: Number(values.objectives) }, (_, i) => ({
      id: `objective-${i}`,
      title: `Objective number ${i}: make the thing work`,
      status: i % 3 ? 'pending' : 'in_progress',
      repos: ['./platform/identity', './storefront/web'],
      acceptance: 'All tests pass and the change is reviewed.',
      agent_notes: `[${now}] left off: step ${i}`,
      created_at: now,
      updated_at: now,
    }));
    writeFileSync(join(root, '.hub', 'objectives.json'), `${JSON.stringify({ objectives }, null, 2)}\n`);

    const bundle = await bundleServer();
    const hub = await startChild(['hub', bundle, root]);
    children.push(hub);
    // The bare server answers exactly what hub answers: same body bytes, same headers.
    const sample = await fetch(`${hub.url}${PATH}`);
    const body = await sample.text();
    const headers = {};
    for (const name of ['content-type', 'etag', 'x-content-type-options', 'x-frame-options'])
      headers[name] = sample.headers.get(name);
    if (!headers.etag) throw new Error('hub answered without an ETag');
    const bare = await startChild(['bare', JSON.stringify(body), JSON.stringify(headers)]);
    children.push(bare);

    if (!QUICK) {
      progress(`warm-up (${body.length} bytes per answer)`);
      await load(hub.url, connections, 1);
      await load(bare.url, connections, 1);
    }
    const hubRps = [];
    const bareRps = [];
    for (let i = 0; i < rounds; i++) {
      bareRps.push(await load(bare.url, connections, seconds));
      hubRps.push(await load(hub.url, connections, seconds));
      progress(
        `round ${i + 1}/${rounds}: bare ${bareRps.at(-1).toFixed(0)} req/s, hub ${hubRps.at(-1).toFixed(0)} req/s`,
      );
    }
    progress('sequential read-modify-write PUTs');
    const putRate = await putLoop(hub.url, Number(values.puts));
    const hubMedian = median(hubRps);
    const bareMedian = median(bareRps);
    // Each round measures bare and hub back to back: the median of their ratios cancels drift in machine load.
    const ratios = hubRps.map((h, i) => h / bareRps[i]);
    result = {
      bench: 'http-objectives',
      route: `GET ${PATH}`,
      body_bytes: Buffer.byteLength(body),
      objectives: objectives.length,
      connections,
      seconds_per_run: seconds,
      rounds,
      hub_rps: Math.round(hubMedian),
      bare_node_rps: Math.round(bareMedian),
      ratio: Number(median(ratios).toFixed(3)),
      ratio_samples: ratios.map((r) => Number(r.toFixed(3))),
      target_ratio: 0.8,
      hub_rps_samples: hubRps.map(Math.round),
      bare_node_rps_samples: bareRps.map(Math.round),
      put_if_match_rmw_per_s: Math.round(putRate),
      puts: Number(values.puts),
      backend: 'local',
      node: process.version,
    };
  } catch (err) {
    result = { bench: 'http-objectives', error: err instanceof Error ? err.message : String(err) };
    process.exitCode = 1;
  } finally {
    for (const c of children) await c.stop().catch(() => {});
    if (process.env.BENCH_KEEP === '1') progress(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
    rmSync(BUNDLE_DIR, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
