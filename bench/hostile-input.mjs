#!/usr/bin/env node
// Throws hostile and careless inputs at the built hub (CLI, `hub web serve`, `hub mcp serve`) and counts what came
// back: refused cleanly, accepted, unclean (refused in an undocumented form) and crashes (target 0).
// Usage: node bench/hostile-input.mjs [--area <name>] [--case <substring>] [--list] [--quick]
// (--quick: every area file is loaded and its cases checked for shape, and one case runs: the kit works.)
// The cases live in bench/hostile/<area>.mjs; each exports `cases`: [{name, expect, run(kit)}], where run returns
// {verdict, detail} (kit.judgeCli / judgeHttp / judgeRpc) and `expect` is the verdict a correct hub gives.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createKit, VERDICTS } from './hostile/kit.mjs';
import { progress, QUICK } from './lib/measure.mjs';

const { values } = parseArgs({
  options: {
    area: { type: 'string' },
    case: { type: 'string' },
    list: { type: 'boolean' },
    quick: { type: 'boolean' },
  },
});
const dir = fileURLToPath(new URL('./hostile/', import.meta.url));
const areas = readdirSync(dir)
  .filter((f) => f.endsWith('.mjs') && f !== 'kit.mjs')
  .map((f) => f.replace(/\.mjs$/, ''))
  .filter((a) => !values.area || a === values.area)
  .sort();

const kit = createKit();
const rows = [];
try {
  for (const area of areas) {
    const { cases } = await import(pathToFileURL(join(dir, `${area}.mjs`)).href);
    if (QUICK) {
      const bad = cases.find((c) => !c.name || !VERDICTS.includes(c.expect) || typeof c.run !== 'function');
      if (bad) throw new Error(`${area}: a case is not {name, expect, run}: ${JSON.stringify(bad)}`);
    }
    for (const c of QUICK ? cases.slice(0, rows.length === 0 ? 1 : 0) : cases) {
      if (values.case && !c.name.includes(values.case)) continue;
      if (values.list) {
        rows.push({ area, name: c.name, expect: c.expect });
        continue;
      }
      let out;
      try {
        out = await c.run(kit);
      } catch (err) {
        out = { verdict: 'crash', detail: `case threw: ${err?.message ?? err}` };
      }
      if (!VERDICTS.includes(out?.verdict))
        out = { verdict: 'crash', detail: `bad verdict ${JSON.stringify(out)}` };
      rows.push({ area, name: c.name, expect: c.expect, ...out });
      progress(
        `${area}: ${c.name}: ${out.verdict}${out.verdict === c.expect ? '' : ` (expected ${c.expect})`}`,
      );
    }
  }
} finally {
  await kit.cleanup();
}

if (values.list) {
  process.stdout.write(`${JSON.stringify({ bench: 'hostile-input', cases: rows })}\n`);
} else {
  const count = (pred) => rows.filter(pred).length;
  const byArea = {};
  for (const r of rows) {
    byArea[r.area] ??= { cases: 0, refused: 0, accepted: 0, unclean: 0, crash: 0 };
    byArea[r.area].cases++;
    byArea[r.area][r.verdict]++;
  }
  const unexpected = rows
    .filter((r) => r.verdict !== r.expect)
    .map((r) => `${r.area}: ${r.name}: ${r.verdict} (${r.detail})`);
  process.stdout.write(
    `${JSON.stringify({
      bench: 'hostile-input',
      inputs_tried: rows.length,
      refused_cleanly: count((r) => r.verdict === 'refused'),
      accepted: count((r) => r.verdict === 'accepted'),
      unclean: count((r) => r.verdict === 'unclean'),
      crashes: count((r) => r.verdict === 'crash'),
      as_expected: count((r) => r.verdict === r.expect),
      unexpected,
      by_area: byArea,
      node: process.version,
    })}\n`,
  );
  if (unexpected.length) process.exitCode = 1;
}
