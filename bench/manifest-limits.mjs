#!/usr/bin/env node
// `hub config validate` on the manifests of the input-bounds issue, at the limits and at half of them: every
// component depending on every later one (depends_on total; acyclic, so that the whole validation runs), one long list (entries per list) and a long depends_on
// chain (components per repo). Net time is the wall time less that of validating a one-component manifest (node
// start-up and loading), so `ratio` (limit / half) near 2 means linear. Also times the refusal of the issue's
// over-limit manifests (700 x 699 depends_on, a 1.45-million-entry list).
// Usage: npm run build && node bench/manifest-limits.mjs [--runs 3] [--quick]
// Quick mode (--quick): one run (the manifests stay at the limits: that is what it measures).
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  createTempDir,
  hubCase,
  progress,
  QUICK,
  round,
  runBench,
  timeInterleaved,
  timeSpawn,
} from './lib/measure.mjs';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: QUICK ? '1' : '3' }, quick: { type: 'boolean' } },
});
const RUNS = Number(values.runs);

// The limits as shipped (src/model/yaml-source.ts YAML_LIMITS, src/model/manifest-limits.ts MANIFEST_LIMITS).
const MAX_DEPENDS_ON_TOTAL = 250_000;
const MAX_ITEMS = 100_000;
const MAX_COMPONENTS_PER_REPO = 10_000;

const head =
  'workspace:\n  name: w\n  projects:\n    - name: p\n      repos:\n        - name: r\n          path: r\n          components:\n';
const component = (i, extra = '') => `            - name: c${i}\n              path: c${i}\n${extra}`;

/** n components, each depending on every other (`acyclic`: on every later one, so that it validates). */
function dense(n, acyclic = false) {
  const parts = [];
  for (let i = 0; i < n; i++) {
    const deps = [];
    for (let j = acyclic ? i + 1 : 0; j < n; j++) if (j !== i) deps.push(`c${j}`);
    parts.push(component(i, `              depends_on: [${deps.join(', ')}]\n`));
  }
  return head + parts.join('');
}

/** One component whose `produces` list has n entries. */
const longList = (n) => `${head}${component(0, `              produces: [${'a,'.repeat(n - 1)}a]\n`)}`;

/** n components, each depending on the next. */
function chain(n) {
  const parts = [];
  for (let i = 0; i < n; i++)
    parts.push(component(i, i + 1 < n ? `              depends_on: [c${i + 1}]\n` : ''));
  return head + parts.join('');
}

/** The largest n with n * (n - 1) / 2 <= total: an acyclic dense graph of n components within `total` edges. */
const denseSize = (total) => Math.floor((1 + Math.sqrt(1 + 8 * total)) / 2);

await runBench('manifest-limits', ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-limits-'));
  const write = (name, text) => {
    const d = join(dir, name);
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, '.hub.yml'), text);
    return join(d, '.hub.yml');
  };
  const validate = (file) => hubCase(['-c', file, 'config', 'validate', '--json'], { HUB_CACHE_DIR: 'off' });
  const nLimit = denseSize(MAX_DEPENDS_ON_TOTAL);
  const nHalf = denseSize(MAX_DEPENDS_ON_TOTAL / 2);
  const files = {
    baseline: write('baseline', chain(1)),
    dense_limit: write('dense-limit', dense(nLimit, true)),
    dense_half: write('dense-half', dense(nHalf, true)),
    list_limit: write('list-limit', longList(MAX_ITEMS)),
    list_half: write('list-half', longList(MAX_ITEMS / 2)),
    chain_limit: write('chain-limit', chain(MAX_COMPONENTS_PER_REPO)),
    chain_half: write('chain-half', chain(MAX_COMPONENTS_PER_REPO / 2)),
  };
  const over = {
    dense_over: write('dense-over', dense(700)),
    list_over: write('list-over', longList(1_450_000)),
  };
  progress(`generated ${Object.keys(files).length + 2} manifests in ${dir}`);
  const cases = Object.fromEntries(Object.entries(files).map(([k, f]) => [k, validate(f)]));
  for (const [name, c] of Object.entries(cases)) {
    const r = JSON.parse(timeSpawn(c.command, c.args, c).stdout);
    if (!r.valid) throw new Error(`${name} is not valid: ${JSON.stringify(r.problems?.slice(0, 2))}`);
  }
  const refusals = Object.fromEntries(
    Object.entries(over).map(([k, f]) => [k, { ...validate(f), expectStatus: 1 }]),
  );
  for (const [name, c] of Object.entries(refusals)) {
    const r = JSON.parse(timeSpawn(c.command, c.args, c).stdout);
    const rule = r.problems?.[0]?.rule;
    if (r.valid || !/^max_/.test(rule ?? '')) throw new Error(`${name} was not refused by a limit: ${rule}`);
  }
  const t = timeInterleaved({ ...cases, ...refusals }, { runs: RUNS, warmup: 1, label: 'validate' });
  const base = t.baseline.median_ms;
  const net = (k) => Math.max(1, t[k].median_ms - base);
  const pair = (kind, limit, half, unit) => ({
    [`${kind}_limit`]: limit,
    [`${kind}_half`]: half,
    [`${kind}_unit`]: unit,
    [`${kind}_limit_ms`]: t[`${kind}_limit`].median_ms,
    [`${kind}_half_ms`]: t[`${kind}_half`].median_ms,
    [`${kind}_bytes`]: statSync(files[`${kind}_limit`]).size,
    [`${kind}_ratio`]: round(net(`${kind}_limit`) / net(`${kind}_half`), 2),
  });
  return {
    baseline_ms: base,
    ...pair('dense', (nLimit * (nLimit - 1)) / 2, (nHalf * (nHalf - 1)) / 2, 'depends_on entries'),
    ...pair('list', MAX_ITEMS, MAX_ITEMS / 2, 'list entries'),
    ...pair('chain', MAX_COMPONENTS_PER_REPO, MAX_COMPONENTS_PER_REPO / 2, 'components'),
    dense_over_refused_ms: t.dense_over.median_ms,
    list_over_refused_ms: t.list_over.median_ms,
    target_ratio: 2,
    runs: RUNS,
    node: process.version,
  };
});
