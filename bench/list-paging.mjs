#!/usr/bin/env node
// Paged lists at scale: a generated workspace of 5,000 repositories x 10 components (quick: 200 x 10). On the CLI,
// the bytes, time and peak RSS of `component list --json` and `workspace repo list --json` for the agent page
// (HUB_AGENT_MODE=true, 50 rows), the default CLI page (1,000 rows) and the last page; the whole list's bytes are
// the sum of every page, read over HTTP (`hub web serve`, pages of 1,000). Over HTTP also the default page (100)
// and the terrain (`detail=manifest`, limit 5000) uncompressed, gzip and br as they come over the wire.
// Usage: npm run build && node bench/list-paging.mjs [--quick] [--repos 5000] [--components 10] [--runs 3]
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { parseArgs } from 'node:util';
import { generateWorkspace } from './lib/generate.mjs';
import {
  createTempDir,
  HUB_BIN,
  median,
  progress,
  QUICK,
  round,
  runBench,
  timeSpawnRss,
} from './lib/measure.mjs';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    repos: { type: 'string', default: QUICK ? '200' : '5000' },
    components: { type: 'string', default: '10' },
    runs: { type: 'string', default: QUICK ? '1' : '3' },
  },
});
const REPOS = Number(values.repos);
const COMPONENTS = Number(values.components);
const RUNS = Number(values.runs);
const ENV = { ...process.env, HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off', HUB_AGENT_MODE: '', NO_COLOR: '1' };

/** One CLI command `RUNS` times: median wall time, bytes printed, rows, the page fields and the largest peak RSS. */
function cli(manifest, args, env = {}, rowsKey) {
  const ms = [];
  let rss = 0;
  let out = '';
  for (let i = 0; i < RUNS; i++) {
    const r = timeSpawnRss(process.execPath, [HUB_BIN, '-c', manifest, ...args, '--json'], {
      env: { ...ENV, ...env },
    });
    ms.push(r.ms);
    rss = Math.max(rss, r.peak_rss_mb);
    out = r.stdout;
  }
  const json = JSON.parse(out);
  return {
    median_ms: round(median(ms)),
    bytes: Buffer.byteLength(out),
    rows: json[rowsKey].length,
    total: json.total,
    next_offset: json.next_offset,
    peak_rss_mb: rss,
  };
}

/** One GET over its own connection: status, the bytes on the wire and the time to the last byte. */
function get(base, path, headers = {}) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const req = request(`${base}${path}`, { headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({
          status: res.statusCode,
          encoding: res.headers['content-encoding'] ?? 'identity',
          bytes: body.length,
          body,
          ms: Number(process.hrtime.bigint() - start) / 1e6,
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** `hub web serve` on a free port; resolves with its base URL and a stop function. */
function serve(root) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HUB_BIN, 'web', 'serve', '--root', root, '--port', '0'], {
      env: ENV,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let seen = '';
    child.stdout.on('data', (c) => {
      seen += c;
      const m = /url=(http:\/\/\S+?)\/?\s/.exec(seen);
      if (m) resolve({ base: m[1], stop: () => child.kill('SIGTERM') });
    });
    child.on('exit', (code) => reject(new Error(`hub web serve exited ${code}: ${seen}`)));
  });
}

/** Every page of a list route (pages of 1,000): the whole list's bytes, rows, pages and time. */
async function wholeList(base, path, key) {
  let offset = 0;
  let bytes = 0;
  let rows = 0;
  let pages = 0;
  const start = process.hrtime.bigint();
  for (;;) {
    const sep = path.includes('?') ? '&' : '?';
    const r = await get(base, `${path}${sep}limit=1000&offset=${offset}`);
    if (r.status !== 200)
      throw new Error(`GET ${path} answered ${r.status}: ${r.body.toString().slice(0, 200)}`);
    const page = JSON.parse(r.body.toString('utf8'));
    bytes += r.bytes;
    rows += page[key].length;
    pages += 1;
    if (page.next_offset === null) break;
    offset = page.next_offset;
  }
  return { bytes, rows, pages, ms: round(Number(process.hrtime.bigint() - start) / 1e6) };
}

async function medianGet(base, path, headers) {
  const xs = [];
  let last;
  for (let i = 0; i < Math.max(RUNS, 3); i++) {
    last = await get(base, path, headers);
    if (last.status !== 200) throw new Error(`GET ${path} answered ${last.status}`);
    xs.push(last.ms);
  }
  return { encoding: last.encoding, bytes: last.bytes, median_ms: round(median(xs)) };
}

runBench('list-paging', async ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-paging-'));
  progress(`generating ${REPOS} repositories x ${COMPONENTS} components`);
  const ws = generateWorkspace(dir, { repos: REPOS, components: COMPONENTS });
  const m = ws.manifestPath;
  const components = ws.components;

  progress('CLI pages');
  const cliResult = {
    component_list: {
      agent_page: cli(m, ['component', 'list'], { HUB_AGENT_MODE: 'true' }, 'components'),
      default_page: cli(m, ['component', 'list'], {}, 'components'),
      last_page: cli(
        m,
        ['component', 'list', '--offset', String(Math.max(0, components - 1000))],
        {},
        'components',
      ),
    },
    workspace_repo_list: {
      agent_page: cli(m, ['workspace', 'repo', 'list'], { HUB_AGENT_MODE: 'true' }, 'repos'),
      default_page: cli(m, ['workspace', 'repo', 'list'], {}, 'repos'),
    },
  };

  progress('HTTP');
  const server = await serve(dir);
  try {
    const whole = {
      component_list: await wholeList(server.base, '/v3/ops/components', 'components'),
      workspace_repo_list: await wholeList(server.base, '/v2/workspace/repos', 'repos'),
    };
    const defaultPage = {
      component_list: await medianGet(server.base, '/v3/ops/components', {}),
      workspace_repo_list: await medianGet(server.base, '/v2/workspace/repos', {}),
    };
    const terrainPath = `/v3/ops/terrain?detail=manifest&limit=${Math.min(5000, REPOS)}`;
    const terrain = {
      identity: await medianGet(server.base, terrainPath, {}),
      gzip: await medianGet(server.base, terrainPath, { 'accept-encoding': 'gzip' }),
      br: await medianGet(server.base, terrainPath, { 'accept-encoding': 'br' }),
    };
    const componentsWhole = await medianGet(server.base, '/v3/ops/components?limit=1000', {});
    const componentsWholeGz = await medianGet(server.base, '/v3/ops/components?limit=1000', {
      'accept-encoding': 'gzip',
    });
    return {
      quick: QUICK,
      repos: REPOS,
      components,
      runs: RUNS,
      cli: cliResult,
      http: {
        default_page: defaultPage,
        whole_list_in_pages_of_1000: whole,
        component_page_of_1000: { identity: componentsWhole, gzip: componentsWholeGz },
        terrain_manifest: {
          ...terrain,
          gzip_ratio: round(terrain.gzip.bytes / terrain.identity.bytes, 3),
          br_ratio: round(terrain.br.bytes / terrain.identity.bytes, 3),
        },
      },
    };
  } finally {
    server.stop();
  }
});
