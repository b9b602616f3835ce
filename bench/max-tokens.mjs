#!/usr/bin/env node
// `--max-tokens` exactness: 1,000 random budgets over packs of the demo workspace (real git repositories) and of
// generated workspaces; every pack must fit its budget and report its exact token count.
// Usage: node bench/max-tokens.mjs [--budgets 1000] [--seed 7] [--quick]   (bundles src/context with esbuild; no
// build needed; --quick: 20 budgets over the demo and generated workspaces of 20 and 50 repositories)
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDemo } from '../examples/demo-workspace.mjs';
import { importSrc } from './lib/bundle.mjs';
import { generateWorkspace } from './lib/generate.mjs';
import { createTempDir, progress, QUICK, ROOT, round, runBench } from './lib/measure.mjs';

const { values } = parseArgs({
  options: {
    budgets: { type: 'string', default: QUICK ? '20' : '1000' },
    seed: { type: 'string', default: '7' },
    quick: { type: 'boolean' },
  },
});
const BUDGETS = Number(values.budgets);

async function bundle() {
  // Beside node_modules: the model room loads `yaml` with require() at run time, resolved from the bundle's folder
  // (from a temp folder it is not found).
  const outfile = join(ROOT, 'node_modules', '.cache', `hub-bench-max-tokens-${process.pid}.mjs`);
  try {
    return await importSrc(outfile, [
      "export { assemblePack, buildRepoCards, buildWorkspaceMap, compactDigest, loadTokenCounter, openCommitCache, serialize } from './src/context/index.ts';",
      "export { Catalog } from './src/catalog/index.ts';",
      "export { readManifestFile } from './src/model/index.ts';",
      "export { sessionDigest } from './src/coord/index.ts';",
      "export { createMemoryStore } from './src/state/index.ts';",
    ]);
  } finally {
    rmSync(outfile, { force: true });
  }
}

/** mulberry32, so a seed reproduces the budgets. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

await runBench('max-tokens', async ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-maxtok-'));
  const m = await bundle();
  const counter = await m.loadTokenCounter();
  const now = new Date();
  const sources = [];
  // Demo: real repositories, cards from git, a first-session digest.
  const demo = createDemo(join(dir, 'demo'));
  const demoCatalog = new m.Catalog(m.readManifestFile(demo.manifestPath));
  const store = m.createMemoryStore();
  const demoRepos = demoCatalog.repos;
  const cards = await m.buildRepoCards(demoCatalog, demoRepos, { now, cache: m.openCommitCache() });
  const digest = m.compactDigest(
    await m.sessionDigest(
      store,
      demoRepos.map((r) => ({ id: r.id, root: r.root })),
      { manifestHash: 'x' },
    ),
  );
  sources.push({ name: 'demo', catalog: demoCatalog, cards, digest });
  // Generated: 200 and 1,000 repositories (no checkouts: cards say missing).
  for (const repos of QUICK ? [20, 50] : [200, 1000]) {
    const ws = generateWorkspace(join(dir, `gen-${repos}`), { repos, components: 10 });
    const catalog = new m.Catalog(m.readManifestFile(ws.manifestPath));
    const genCards = await m.buildRepoCards(catalog, catalog.repos.slice(0, 40), {
      now,
      cache: m.openCommitCache(),
    });
    sources.push({ name: `generated-${repos}`, catalog, cards: genCards, digest: null });
  }
  progress(`sources ready: ${sources.map((s) => s.name).join(', ')}`);
  const next = rng(Number(values.seed));
  let over = 0;
  let inexact = 0;
  let refused = 0;
  let refusedWrongly = 0;
  let fitted = 0;
  let droppedSome = 0;
  let slack = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < BUDGETS; i++) {
    const src = sources[i % sources.length];
    const tier = Math.floor(next() * 3);
    const pageSize = 1 + Math.floor(next() * Math.min(200, src.catalog.repos.length));
    const map = m.buildWorkspaceMap(src.catalog, { limit: pageSize });
    const input = {
      tier,
      workspaceName: src.name,
      map,
      cards: tier >= 1 ? src.cards.slice(0, pageSize) : [],
      digest: tier === 2 ? src.digest : null,
    };
    const full = m.assemblePack(counter, input).tokens;
    // Budgets from far below the smallest pack to above the full one.
    const budget = 1 + Math.floor(next() * full * 1.2);
    try {
      const { pack, tokens } = m.assemblePack(counter, { ...input, maxTokens: budget });
      const exact = counter.count(m.serialize(pack));
      if (exact > budget) over++;
      if (exact !== pack.token_estimate || exact !== tokens) inexact++;
      if (pack.dropped_sections.length > 0) droppedSome++;
      slack += budget - exact;
      fitted++;
    } catch (err) {
      if (err?.details?.rule !== 'budget_too_small') throw err;
      refused++;
      if (!(err.details.minimum > budget)) refusedWrongly++;
      // The minimum a refusal names must itself work.
      const { tokens } = m.assemblePack(counter, { ...input, maxTokens: err.details.minimum });
      if (tokens > err.details.minimum) refusedWrongly++;
    }
  }
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (over > 0 || inexact > 0 || refusedWrongly > 0)
    throw new Error(`over budget: ${over}, inexact counts: ${inexact}, wrong refusals: ${refusedWrongly}`);
  return {
    budgets: BUDGETS,
    sources: sources.map((s) => s.name),
    fitted,
    over_budget: over,
    inexact_counts: inexact,
    refused_below_minimum: refused,
    wrongly_refused: refusedWrongly,
    packs_with_drops: droppedSome,
    mean_unused_tokens: round(slack / Math.max(1, fitted)),
    ms_per_budget: round(ms / BUDGETS, 2),
    tokenizer: counter.encoding,
    node: process.version,
  };
});
