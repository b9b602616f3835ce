#!/usr/bin/env node
// Tier-0 context pack (the paged workspace map) on a 5,000-repo generated manifest and on the AOSP manifest
// imported with `hub import repo-manifest`; each against bare `node -e 0`.
// Usage: npm run build && node bench/context-tier0.mjs [--repos 5000] [--runs 10] [--xml <aosp.xml>] [--quick]
// (--quick: 20 repos, 1 run, no warm-up; the AOSP manifest of bench/data as always.)
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateWorkspace } from './lib/generate.mjs';
import {
  createTempDir,
  hubCase,
  progress,
  QUICK,
  ROOT,
  runBench,
  timeInterleaved,
  timeSpawn,
} from './lib/measure.mjs';
import { peakRss } from './lib/peak-rss.mjs';

const { values } = parseArgs({
  options: {
    repos: { type: 'string', default: QUICK ? '20' : '5000' },
    runs: { type: 'string', default: QUICK ? '1' : '10' },
    xml: { type: 'string', default: join(ROOT, 'bench', 'data', 'aosp-platform-manifest.xml') },
    quick: { type: 'boolean' },
  },
});
const RUNS = Number(values.runs);

function packOnce(c) {
  const p = JSON.parse(timeSpawn(c.command, c.args, c).stdout);
  return {
    tokens: p.token_estimate,
    rows: p.map.repos.length,
    total: p.map.total,
    next_offset: p.map.next_offset,
  };
}

await runBench('context-tier0', ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-tier0-'));
  const cache = cleanup(createTempDir('hub-bench-cache-'));
  const ws = generateWorkspace(join(dir, 'gen'), { repos: Number(values.repos), components: 10 });
  progress(`generated ${ws.repos} repos (${ws.bytes} bytes)`);
  const pack = (manifest, env, extra = []) =>
    hubCase(['-c', manifest, 'context', 'pack', '--tier', '0', ...extra, '--json'], env);
  const cases = {
    node: { command: process.execPath, args: ['-e', '0'] },
    gen_warm: pack(ws.manifestPath, { HUB_CACHE_DIR: cache }),
    gen_cold: pack(ws.manifestPath, { HUB_CACHE_DIR: 'off' }),
    gen_budget_400: pack(ws.manifestPath, { HUB_CACHE_DIR: cache }, ['--max-tokens', '400']),
  };
  const shapes = {
    gen: packOnce(cases.gen_warm),
    gen_budget_400: packOnce(cases.gen_budget_400),
  };
  let aosp = { skipped: `repo manifest not found: ${values.xml}` };
  if (existsSync(values.xml)) {
    mkdirSync(join(dir, 'aosp'));
    const manifest = join(dir, 'aosp', '.hub.yml');
    const imp = hubCase(['import', 'repo-manifest', values.xml, '--output', manifest, '--force', '--json']);
    const imported = JSON.parse(timeSpawn(imp.command, imp.args, imp).stdout);
    progress(`imported AOSP: ${imported.counts.repos} repos`);
    cases.aosp_warm = pack(manifest, { HUB_CACHE_DIR: cache });
    cases.aosp_cold = pack(manifest, { HUB_CACHE_DIR: 'off' });
    shapes.aosp = packOnce(cases.aosp_warm);
    aosp = { repos: imported.counts.repos, projects: imported.counts.projects };
  }
  const t = timeInterleaved(cases, { runs: RUNS, warmup: QUICK ? 0 : 2, label: 'tier0' });
  const ms = (k) => t[k]?.median_ms ?? null;
  const { node: _node, ...packs } = cases;
  const rss = peakRss(packs);
  return {
    generated: { repos: ws.repos, components: ws.components, manifest_bytes: ws.bytes },
    aosp,
    node_e0_ms: ms('node'),
    gen_warm_ms: ms('gen_warm'),
    gen_cold_ms: ms('gen_cold'),
    gen_budget_400_ms: ms('gen_budget_400'),
    aosp_warm_ms: ms('aosp_warm'),
    aosp_cold_ms: ms('aosp_cold'),
    pack_shapes: shapes,
    peak_rss_mb: {
      gen_warm: rss.gen_warm,
      gen_cold: rss.gen_cold,
      aosp_warm: rss.aosp_warm ?? null,
      aosp_cold: rss.aosp_cold ?? null,
    },
    runs: RUNS,
    node: process.version,
  };
});
