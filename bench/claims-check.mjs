#!/usr/bin/env node
// `claim check` against 10,000 live claims of one repository, against the cost of reading and parsing the claims
// document alone (the goal: a check under 2x that). In process, on the local backend: a cold check (no compiled
// pattern cached, as in a fresh CLI process) and a warm one (a long-running server or MCP process), for three
// shapes of claims: folders (`pkg/m<i>/**`), extensions under folders (`src/m<i>/**/*.ts`) and the worst case for
// the prefilter, globs with no literal head or tail (`**/m<i>/**`), checked against a pattern they all overlap and
// one none overlaps. Plus the CLI end to end: `claim check` against
// `claim list` (which reads and parses the same document) on the folders.
// Usage: node bench/claims-check.mjs [--claims 10000] [--runs 7] [--quick]   (--quick: 50 claims, 1 run)
// (stdout: exactly one JSON object; progress on stderr). src/ is bundled with esbuild into a temp file.
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
    claims: { type: 'string', default: QUICK ? '50' : '10000' },
    runs: { type: 'string', default: QUICK ? '1' : '7' },
    quick: { type: 'boolean' },
  },
});
const N = Number(values.claims);
const RUNS = Number(values.runs);

async function bundle(dir) {
  return importSrc(join(dir, 'acl.mjs'), [
    "export { checkClaims, ClaimsDocSchema, claimsDocument } from './src/acl/index.ts';",
    "export { clearGlobCache } from './src/acl/glob/index.ts';",
    "export { createLocalStore } from './src/state/index.ts';",
  ]);
}

const SHAPES = {
  folders: { claim: (i) => [`pkg/m${i}/**`], check: ['pkg/m4242/src/*.ts', 'docs/**'] },
  extensions: { claim: (i) => [`src/m${i}/**/*.ts`], check: ['src/m4242/lib/*.ts', 'src/*/README.md'] },
  // Globs with no literal head or tail: every claim overlaps the check, which stops at the 100 it lists.
  headless_overlapping: { claim: (i) => [`**/m${i}/**`], check: ['**/x/**'] },
  // The prefilter's worst case: nothing overlaps, nothing can be ruled out by the text, every pattern compiles.
  headless_disjoint: { claim: (i) => [`**/m${i}/**`], check: ['docs/*.md'] },
};

function claimsDoc(repository, shape) {
  const now = Date.now();
  const at = new Date(now).toISOString();
  const expires = new Date(now + 86_400_000).toISOString();
  return {
    claims: Array.from({ length: N }, (_, i) => ({
      claim_id: `cl-${i.toString(16).padStart(12, '0')}`,
      repository,
      agent_id: `agent-${i}`,
      patterns: shape.claim(i),
      status: 'active',
      ttl: '24h',
      expires_at: expires,
      created_at: at,
      updated_at: at,
      last_heartbeat_at: at,
    })),
  };
}

/** Median ms of `fn` over RUNS runs (after one untimed run when `warm`). */
async function timed(fn, { warm, before = () => {}, runs = RUNS }) {
  if (warm) for (let i = 0; i < (QUICK ? 1 : 3); i++) await fn();
  const xs = [];
  for (let i = 0; i < runs; i++) {
    before();
    const t = process.hrtime.bigint();
    await fn();
    xs.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return median(xs);
}

await runBench('claims-check', async ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-claims-'));
  const acl = await bundle(dir);
  const hubDir = join(dir, 'state', '.hub');
  mkdirSync(join(hubDir, 'claims'), { recursive: true });
  const store = acl.createLocalStore({ dir: hubDir });
  const deps = { store, retries: 1, now: () => new Date() };
  const shapes = {};
  for (const [name, shape] of Object.entries(SHAPES)) {
    const repository = `bench/${name}`;
    const doc = acl.claimsDocument(repository);
    writeFileSync(join(hubDir, `${doc}.json`), JSON.stringify(claimsDoc(repository, shape)));
    const readParse = () => store.read(doc).then((r) => acl.ClaimsDocSchema.parse(r.value));
    const check = () => acl.checkClaims(deps, { repository, patterns: shape.check, agent_id: 'asker' });
    const first = await check();
    const conflicts = first.conflicts.length;
    const read_parse_ms = await timed(readParse, { warm: true });
    const check_cold_ms = await timed(check, {
      warm: false,
      before: acl.clearGlobCache,
      runs: QUICK ? 1 : 3,
    });
    const check_warm_ms = await timed(check, { warm: true });
    shapes[name] = {
      document_bytes: statSync(join(hubDir, `${doc}.json`)).size,
      conflicts,
      conflicts_truncated: first.truncated,
      read_parse_ms: round(read_parse_ms),
      check_cold_ms: round(check_cold_ms),
      check_warm_ms: round(check_warm_ms),
      cold_ratio: round(check_cold_ms / read_parse_ms, 2),
      warm_ratio: round(check_warm_ms / read_parse_ms, 2),
    };
    progress(`${name}: ${JSON.stringify(shapes[name])}`);
  }

  // End to end on the demo workspace: the same 10,000 folder claims in platform/identity.
  const demo = createDemo(join(dir, 'demo'));
  const doc = acl.claimsDocument('platform/identity');
  mkdirSync(join(demo.root, '.hub', 'claims'), { recursive: true });
  writeFileSync(
    join(demo.root, '.hub', `${doc}.json`),
    JSON.stringify(claimsDoc('platform/identity', SHAPES.folders)),
  );
  const env = { HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off' };
  const c = ['-c', demo.manifestPath];
  const cli = timeInterleaved(
    {
      list: hubCase([...c, 'claim', 'list', '--repository', 'platform/identity', '--json'], env),
      check: hubCase(
        [
          ...c,
          'claim',
          'check',
          '--repository',
          'platform/identity',
          '--pattern',
          'pkg/m4242/src/*.ts',
          '--json',
        ],
        env,
      ),
    },
    { runs: RUNS, warmup: QUICK ? 0 : 1, label: 'cli' },
  );
  return {
    claims: N,
    runs: RUNS,
    in_process: shapes,
    cli: {
      list_ms: cli.list.median_ms,
      check_ms: cli.check.median_ms,
      ratio: round(cli.check.median_ms / cli.list.median_ms, 2),
    },
  };
});
