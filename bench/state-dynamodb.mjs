#!/usr/bin/env node
// Compare-and-swap writes per second through hub's dynamodb state backend on dynalite (a DynamoDB API on
// loopback, in its own process) against raw conditional puts of the same items with the AWS SDK; and through the
// http backend against a real `hub web serve` (local store behind it) against that local store written directly.
// Usage: node bench/state-dynamodb.mjs [--ops 400] [--quick]
// (stdout: exactly one JSON object; progress on stderr). src/state is bundled with esbuild into a temp file.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleSrc } from './lib/bundle.mjs';
import { createTempDir, HUB_BIN, progress, QUICK, runBench } from './lib/measure.mjs';

const SELF = fileURLToPath(import.meta.url);
const CREDENTIALS = { accessKeyId: 'bench', secretAccessKey: 'bench-secret' };
const REGION = 'us-east-1';

if (process.argv[2] === '--dynalite') await serveDynalite();
else if (process.argv[2] === '--bare-http') await serveBareHttp(process.argv[3], process.argv[4]);
else await runBench('state-dynamodb', main);

/** The dynalite child: listens on a loopback port, prints it, serves until stdin closes. */
async function serveDynalite() {
  const { default: dynalite } = await import('dynalite');
  const server = dynalite({ createTableMs: 0 });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  process.stdout.write(`${server.address().port}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}

/**
 * The floor of any HTTP hop: a bare node:http server (no fastify, no hub checks) in its own process, writing
 * through the same local store. PUT /<name> with If-Match; answers the new ETag. Serves until stdin closes.
 */
async function serveBareHttp(bundle, dir) {
  const { createServer } = await import('node:http');
  const mod = await import(pathToFileURL(bundle).href);
  const store = mod.createLocalStore({ dir });
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    try {
      const etag = await store.write(
        decodeURIComponent(req.url.slice(1)),
        JSON.parse(Buffer.concat(chunks).toString('utf8')),
        req.headers['if-match'],
      );
      res.writeHead(200, { etag, 'content-type': 'application/json' }).end('{"ok":true}');
    } catch (err) {
      res.writeHead(412).end(JSON.stringify({ error: String(err) }));
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  process.stdout.write(`${server.address().port}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}

/** A keep-alive node:http client of serveBareHttp, with the store's write signature. */
async function bareHttpClient(port) {
  const http = await import('node:http');
  const agent = new http.Agent({ keepAlive: true });
  return {
    write: (name, value, ifMatch) =>
      new Promise((resolve, reject) => {
        const body = JSON.stringify(value);
        const req = http.request(
          {
            agent,
            host: '127.0.0.1',
            port,
            method: 'PUT',
            path: `/${encodeURIComponent(name)}`,
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              'if-match': ifMatch,
            },
          },
          (res) => {
            res.resume();
            res.on('end', () =>
              res.statusCode === 200
                ? resolve(res.headers.etag)
                : reject(new Error(`HTTP ${res.statusCode}`)),
            );
          },
        );
        req.on('error', reject);
        req.end(body);
      }),
    read: async () => ({ etag: undefined }),
    close: () => agent.destroy(),
  };
}

/** A child process that prints one line once ready; returns the line and the child. */
async function startChild(args, env, pattern) {
  const child = spawn(process.execPath, args, {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    const m = pattern.exec(line);
    if (m) return { child, match: m };
  }
  throw new Error(`${args.join(' ')} exited before it was ready`);
}

async function bundleState(dir) {
  // The AWS SDK is bundled in too: hub's store and the raw baseline use this one copy.
  return bundleSrc(
    join(dir, 'state.mjs'),
    [
      "export { createDynamoStore, createHttpStore, createLocalStore, dynamoItem, loadDynamoSdk } from './src/state/index.ts';",
    ],
    { external: ['yaml'] },
  );
}

/** ops/s of `count` sequential calls of `step(i)` (after a warm-up of 20). */
async function rate(count, step) {
  for (let i = 0; i < 20; i++) await step(-1 - i);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await step(i);
  return count / (Number(process.hrtime.bigint() - t0) / 1e9);
}

/** Runs `a` and `b` alternately `rounds` times; medians of each (loopback and CPU drift on shared machines). */
async function interleaved(rounds, a, b) {
  const as = [];
  const bs = [];
  // Who goes first alternates: the second of a pair runs on a warmer JIT and a fuller table.
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      as.push(await a(r));
      bs.push(await b(r));
    } else {
      bs.push(await b(r));
      as.push(await a(r));
    }
  }
  const med = (v) => [...v].sort((x, y) => x - y)[Math.floor(v.length / 2)];
  return [med(as), med(bs)];
}

async function main({ cleanup }) {
  const { values } = parseArgs({
    options: { ops: { type: 'string', default: QUICK ? '60' : '400' }, quick: { type: 'boolean' } },
  });
  const ops = Number(values.ops);
  const rounds = QUICK ? 1 : 4;
  const dir = cleanup(createTempDir('hub-bench-ddb-'));
  const mod = await import(pathToFileURL(await bundleState(dir)).href);
  const children = [];
  try {
    // --- dynamodb: hub's store against raw SDK conditional puts of the same items, one dynalite.
    const dl = await startChild([SELF, '--dynalite'], {}, /^(\d+)$/);
    children.push(dl.child);
    const endpoint = `http://127.0.0.1:${dl.match[1]}`;
    const opts = (ws) => ({
      endpoint,
      region: REGION,
      orgId: 'bench',
      workspaceId: ws,
      env: {},
      clientConfig: { credentials: CREDENTIALS },
    });
    const store = mod.createDynamoStore(opts('hub'));
    await store.init();
    const sdk = await mod.loadDynamoSdk();
    const raw = new sdk.DynamoDBClient({ endpoint, region: REGION, credentials: CREDENTIALS });
    const value = (i) => ({ objectives: [{ id: 'o1', title: 'Bench', n: i, notes: 'x'.repeat(200) }] });

    // write: one conditional put each, If-Match the ETag the previous write returned.
    const hubWrite = async (r) => {
      let etag = (await store.read(`bench/w${r}`)).etag ?? '""';
      return rate(ops, async (i) => {
        etag = await store.write(`bench/w${r}`, value(i), etag);
      });
    };
    const rawPut = async (r) => {
      let etag;
      return rate(ops, async (i) => {
        const { item, etag: next } = mod.dynamoItem('bench', 'raw', `bench/w${r}`, value(i));
        await raw.send(
          new sdk.PutItemCommand({
            TableName: 'hub_state',
            Item: item,
            ConditionExpression: etag ? '#e = :m' : 'attribute_not_exists(pk)',
            ExpressionAttributeNames: etag ? { '#e': 'etag' } : undefined,
            ExpressionAttributeValues: etag ? { ':m': { S: etag } } : undefined,
          }),
        );
        etag = next;
      });
    };
    progress('dynamodb: conditional writes');
    const [hubWriteOps, rawPutOps] = await interleaved(rounds, hubWrite, rawPut);

    // update: read-modify-write (GetItem, then a conditional put), hub's atomic update against the same two calls.
    const hubUpdate = async (r) =>
      rate(ops, () =>
        store.update(`bench/u${r}`, (cur) => ({
          value: { n: (cur?.n ?? 0) + 1, pad: 'x'.repeat(200) },
          result: 0,
        })),
      );
    const rawUpdate = async (r) =>
      rate(ops, async () => {
        const key = { pk: { S: 'ORG#bench#WS#raw' }, sk: { S: `DOC#bench/u${r}` } };
        const got = await raw.send(
          new sdk.GetItemCommand({ TableName: 'hub_state', Key: key, ConsistentRead: true }),
        );
        const cur = got.Item ? JSON.parse(got.Item.body.S) : undefined;
        const { item } = mod.dynamoItem('bench', 'raw', `bench/u${r}`, {
          n: (cur?.n ?? 0) + 1,
          pad: 'x'.repeat(200),
        });
        await raw.send(
          new sdk.PutItemCommand({
            TableName: 'hub_state',
            Item: item,
            ConditionExpression: got.Item ? '#e = :m' : 'attribute_not_exists(pk)',
            ExpressionAttributeNames: got.Item ? { '#e': 'etag' } : undefined,
            ExpressionAttributeValues: got.Item ? { ':m': got.Item.etag } : undefined,
          }),
        );
      });
    progress('dynamodb: read-modify-write updates');
    const [hubUpdateOps, rawUpdateOps] = await interleaved(rounds, hubUpdate, rawUpdate);
    await store.close();
    raw.destroy();

    // --- http: a real hub server (local store behind it) against that local store written directly.
    const root = join(dir, 'ws');
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(root);
    mkdirSync(join(dir, 'direct'));
    writeFileSync(join(root, '.hub.yml'), 'name: bench\nprojects: []\n');
    const srv = await startChild(
      [HUB_BIN, 'web', 'serve', '--root', root, '--port', '0'],
      { HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off' },
      /url=(http:\/\/\S+?)\/?(\s|$)/,
    );
    children.push(srv.child);
    const http = mod.createHttpStore({ url: srv.match[1], timeoutMs: 30_000 });
    const local = mod.createLocalStore({ dir: join(dir, 'direct', '.hub') });
    const chain = (s, name) => async () => {
      let etag = (await s.read(name)).etag ?? '""';
      return rate(ops, async (i) => {
        etag = await s.write(name, value(i), etag);
      });
    };
    progress('http: conditional writes');
    const [httpOps, localOps] = await interleaved(
      rounds,
      (r) => chain(http, `bench/h${r}`)(),
      (r) => chain(local, `bench/l${r}`)(),
    );

    // The same writes through a bare node:http server and client (both in their own process, as hub's are).
    mkdirSync(join(dir, 'bare'));
    const bareSrv = await startChild(
      [SELF, '--bare-http', join(dir, 'state.mjs'), join(dir, 'bare', '.hub')],
      {},
      /^(\d+)$/,
    );
    children.push(bareSrv.child);
    const bare = await bareHttpClient(Number(bareSrv.match[1]));
    progress('http: bare node:http floor');
    const [bareOps, localOps2] = await interleaved(
      rounds,
      (r) => chain(bare, `bench/b${r}`)(),
      (r) => chain(local, `bench/m${r}`)(),
    );
    bare.close();

    // A server has many clients: CLIENTS writers at once, each its own document, against as many in process.
    const CLIENTS = 8;
    const concurrent = (s, tag) => async (r) => {
      const per = Math.ceil(ops / CLIENTS);
      const t0 = process.hrtime.bigint();
      await Promise.all(
        Array.from({ length: CLIENTS }, async (_, c) => {
          let etag = (await s.read(`bench/${tag}${r}c${c}`)).etag ?? '""';
          for (let i = 0; i < per; i++) etag = await s.write(`bench/${tag}${r}c${c}`, value(i), etag);
        }),
      );
      return (per * CLIENTS) / (Number(process.hrtime.bigint() - t0) / 1e9);
    };
    progress(`http: ${CLIENTS} concurrent clients`);
    const [httpConc, localConc] = await interleaved(rounds, concurrent(http, 'hc'), concurrent(local, 'lc'));

    const r3 = (x) => Number(x.toFixed(3));
    return {
      ops_per_round: ops,
      rounds,
      dynamodb_write_ops: Math.round(hubWriteOps),
      raw_conditional_put_ops: Math.round(rawPutOps),
      ratio_write: r3(hubWriteOps / rawPutOps),
      dynamodb_update_ops: Math.round(hubUpdateOps),
      raw_get_put_ops: Math.round(rawUpdateOps),
      ratio_update: r3(hubUpdateOps / rawUpdateOps),
      http_write_ops: Math.round(httpOps),
      local_write_ops: Math.round(localOps),
      ratio_http: r3(httpOps / localOps),
      bare_http_write_ops: Math.round(bareOps),
      ratio_bare_http: r3(bareOps / localOps2),
      ratio_http_to_bare: r3(httpOps / bareOps),
      concurrent_clients: CLIENTS,
      http_concurrent_write_ops: Math.round(httpConc),
      local_concurrent_write_ops: Math.round(localConc),
      ratio_http_concurrent: r3(httpConc / localConc),
      quick: QUICK,
      node: process.version,
    };
  } finally {
    for (const c of children) c.kill();
  }
}
