#!/usr/bin/env node
// `route query` over 1,000 request classes against the floor of reading and parsing the classes document alone,
// and `run list` over 10,000 runs against reading them all. In process, on the local backend (src/ bundled with
// esbuild into a temp file), warm (as a server or MCP process runs them) and then the CLI end to end.
// Usage: node bench/route-query.mjs [--classes 1000] [--runs 10000] [--repeat 7] [--quick]
// (--quick: 50 classes, 50 runs, 1 repeat, 1 CLI run, no warm-up.)
// (stdout: exactly one JSON object; progress on stderr).
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDemo } from '../examples/demo-workspace.mjs';
import { importSrc } from './lib/bundle.mjs';
import {
  createTempDir,
  hubCase,
  median,
  progress,
  QUICK,
  round,
  runBench,
  timeInterleaved,
} from './lib/measure.mjs';

const { values } = parseArgs({
  options: {
    classes: { type: 'string', default: QUICK ? '50' : '1000' },
    runs: { type: 'string', default: QUICK ? '50' : '10000' },
    repeat: { type: 'string', default: QUICK ? '1' : '7' },
    quick: { type: 'boolean' },
  },
});
const CLASSES = Number(values.classes);
const RUNS = Number(values.runs);
const REPEAT = Number(values.repeat);

async function bundle(dir) {
  return importSrc(join(dir, 'runs.mjs'), [
    "export { ClassesDocSchema, CLASSES_DOCUMENT, listRuns, pageRuns, readClasses, routeQuery, runIds, runDocument } from './src/runs/index.ts';",
    "export { createLocalStore } from './src/state/index.ts';",
  ]);
}

const VERBS = ['fix', 'update', 'bump', 'add', 'remove', 'migrate', 'rename', 'document', 'test', 'deploy'];
const NOUNS = [
  'login',
  'docs',
  'dependency',
  'schema',
  'api',
  'billing',
  'cache',
  'search',
  'chart',
  'queue',
];
const AREAS = [
  'service',
  'client',
  'pipeline',
  'module',
  'endpoint',
  'widget',
  'job',
  'table',
  'config',
  'page',
];

/** 1,000 classes, 4 triggers each of 3 words, spread over a small vocabulary so that asks hit many classes. */
function classesDoc() {
  const at = new Date().toISOString();
  return {
    classes: Array.from({ length: CLASSES }, (_, i) => ({
      id: `REQ-${String(i).padStart(4, '0')}`,
      title: `Class ${i}`,
      triggers: [0, 1, 2, 3].map(
        (k) => `${VERBS[(i + k) % 10]} ${NOUNS[Math.floor(i / 10) % 10]} ${AREAS[(i * 7 + k) % 10]} ${i}`,
      ),
      tier: ['novel', 'skilled', 'deterministic'][i % 3],
      mutates: i % 2 === 0,
      gates: [],
      promotion_state: 'stable',
      created_at: at,
      updated_at: at,
    })),
  };
}

/** Writes RUNS run documents, ids in time order, 10 actors, every other one closed. */
function writeRuns(hubDir) {
  mkdirSync(join(hubDir, 'runs'), { recursive: true });
  const t0 = Date.parse('2026-01-01T00:00:00.000Z');
  for (let i = 0; i < RUNS; i++) {
    const at = new Date(t0 + i * 1000).toISOString();
    const basic = `${at.slice(0, 4)}${at.slice(5, 7)}${at.slice(8, 10)}T${at.slice(11, 13)}${at.slice(14, 16)}${at.slice(17, 23)}Z`;
    const id = `run-${basic}-${i.toString(16).padStart(8, '0')}`;
    const closed = i % 2 === 0;
    const run = {
      run_id: id,
      status: closed ? 'closed' : 'open',
      actor: `agent-${i % 10}`,
      class: `REQ-${String(i % CLASSES).padStart(4, '0')}`,
      task_id: `t${i}`,
      repository: 'platform/identity',
      branch: `agent/t${i}`,
      tier: 'skilled',
      opened_at: at,
      gates: closed ? [{ name: 'test', result: 'pass' }] : [],
      ...(closed
        ? {
            closed_at: at,
            outcome: 'landed',
            evidence: { text: 'ok\n'.repeat(20), bytes: 60, redactions: 0 },
          }
        : {}),
    };
    writeFileSync(join(hubDir, 'runs', `${id}.json`), JSON.stringify({ run }));
  }
}

async function timed(fn) {
  for (let i = 0; i < (QUICK ? 0 : 2); i++) await fn();
  const xs = [];
  for (let i = 0; i < REPEAT; i++) {
    const t = process.hrtime.bigint();
    await fn();
    xs.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return median(xs);
}

await runBench('route-query', async ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-runs-'));
  const m = await bundle(dir);
  const demo = createDemo(join(dir, 'demo'));
  const hubDir = join(demo.root, '.hub');
  mkdirSync(join(hubDir, 'routing'), { recursive: true });
  const classesFile = join(hubDir, `${m.CLASSES_DOCUMENT}.json`);
  writeFileSync(classesFile, JSON.stringify(classesDoc()));
  progress(`wrote ${CLASSES} classes; writing ${RUNS} runs`);
  writeRuns(hubDir);
  const store = m.createLocalStore({ dir: hubDir });
  const deps = { store, retries: 1, now: () => new Date() };
  const ask = 'please fix the login service and update the docs';

  // Route query against reading (and validating) the classes document.
  const first = m.routeQuery(await m.readClasses(deps), ask, 5);
  if (!first.ok) throw new Error('the ask matched nothing');
  const read_ms = await timed(() => store.read(m.CLASSES_DOCUMENT));
  const read_parse_ms = await timed(async () =>
    m.ClassesDocSchema.parse((await store.read(m.CLASSES_DOCUMENT)).value),
  );
  const query_ms = await timed(async () => m.routeQuery(await m.readClasses(deps), ask, 5));
  const route = {
    classes: CLASSES,
    document_bytes: statSync(classesFile).size,
    matched: first.count,
    top: first.matches[0].id,
    read_ms: round(read_ms),
    read_parse_ms: round(read_parse_ms),
    query_ms: round(query_ms),
    ratio_to_read_parse: round(query_ms / read_parse_ms, 2),
    ratio_to_read: round(query_ms / read_ms, 2),
  };
  progress(`route: ${JSON.stringify(route)}`);

  // Run list against reading every run document.
  const readAll = async () => {
    for (const id of await m.runIds(deps)) await store.read(m.runDocument(id));
  };
  const read_all_ms = await timed(readAll);
  const filtered_ms = await timed(() => m.listRuns(deps, { actor: 'agent-4', open: false }));
  const first_page_ms = await timed(() => m.pageRuns(deps, {}, { limit: 100 }));
  const filtered_page_ms = await timed(() => m.pageRuns(deps, { actor: 'agent-4' }, { limit: 100 }));
  const runs = {
    runs: RUNS,
    read_all_ms: round(read_all_ms),
    list_filtered_all_ms: round(filtered_ms),
    first_page_100_ms: round(first_page_ms),
    filtered_page_100_ms: round(filtered_page_ms),
    ratio_filtered_all: round(filtered_ms / read_all_ms, 2),
    ratio_first_page: round(first_page_ms / read_all_ms, 3),
    ratio_filtered_page: round(filtered_page_ms / read_all_ms, 3),
  };
  progress(`runs: ${JSON.stringify(runs)}`);

  const env = { HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off' };
  const c = ['-c', demo.manifestPath];
  const cli = timeInterleaved(
    {
      node: { command: process.execPath, args: ['-e', '0'], env: process.env },
      route_query: hubCase([...c, 'route', 'query', ask, '--json'], env),
      run_list_page: hubCase([...c, 'run', 'list', '--limit', '100', '--json'], env),
      run_list_filtered: hubCase(
        [...c, 'run', 'list', '--actor', 'agent-4', '--outcome', 'landed', '--limit', '1000', '--json'],
        env,
      ),
    },
    { runs: QUICK ? 1 : 5, warmup: QUICK ? 0 : 1, label: 'cli' },
  );
  return {
    route,
    runs,
    cli: Object.fromEntries(Object.entries(cli).map(([k, v]) => [`${k}_ms`, v.median_ms])),
    node: process.version,
  };
});
