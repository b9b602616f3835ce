#!/usr/bin/env node
// Renders all ten bundled agent templates for the eight vendors (resolve: read and merge template.yaml, check
// every variable and partial, build the front-matter) against the floor of reading the same template files alone.
// In process (src/agents bundled with esbuild into a temp file), then the CLI end to end (`agent validate`, which
// renders every template for every vendor, and one `agent preview`) against bare `node -e 0`.
// Usage: node bench/agent-render.mjs [--repeat 15] [--runs 7] [--quick]   (stdout: exactly one JSON object;
// --quick: 1 repeat, 1 run, no warm-up).
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { importSrc } from './lib/bundle.mjs';
import {
  createTempDir,
  hubCase,
  median,
  progress,
  QUICK,
  ROOT,
  round,
  runBench,
  timeInterleaved,
} from './lib/measure.mjs';

const { values } = parseArgs({
  options: {
    repeat: { type: 'string', default: QUICK ? '1' : '15' },
    runs: { type: 'string', default: QUICK ? '1' : '7' },
    quick: { type: 'boolean' },
  },
});
const REPEAT = Number(values.repeat);
const RUNS = Number(values.runs);
const BUNDLED = join(ROOT, 'templates', 'agents');

async function bundle() {
  // Beside node_modules: the model room loads `yaml` with require() at run time, resolved from the bundle's folder.
  const outfile = join(ROOT, 'node_modules', '.cache', `hub-bench-agent-render-${process.pid}.mjs`);
  try {
    return await importSrc(outfile, [
      "export { listTemplates, renderTemplate, resolveTemplate, VENDOR_IDS, VENDORS } from './src/agents/index.ts';",
    ]);
  } finally {
    rmSync(outfile, { force: true });
  }
}

/** Every file a template renders from: its own folder and the shared partials. */
function templateFiles(id) {
  const own = readdirSync(join(BUNDLED, id)).map((f) => join(BUNDLED, id, f));
  const shared = readdirSync(join(BUNDLED, '_shared')).map((f) => join(BUNDLED, '_shared', f));
  return [...own, ...shared];
}

function timeMs(fn) {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

await runBench('agent-render', async ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-agent-render-'));
  const m = await bundle();
  const roots = { bundledDir: BUNDLED };
  const ids = m.listTemplates(roots).templates.map((t) => t.id);
  const files = ids.flatMap(templateFiles);
  const bytes = files.reduce((n, f) => n + readFileSync(f).length, 0);

  const readAll = () => {
    for (const f of files) readFileSync(f, 'utf8');
  };
  let renders = 0;
  let outputBytes = 0;
  const renderAll = () => {
    renders = 0;
    outputBytes = 0;
    for (const id of ids) {
      const t = m.resolveTemplate(id, roots);
      for (const v of m.VENDOR_IDS) {
        const r = m.renderTemplate(t, {}, { vendor: m.VENDORS[v] });
        renders++;
        outputBytes += r.content.length + (r.fragment?.length ?? 0);
      }
    }
  };
  // Warm the JIT and the page cache alike, then interleave.
  for (let i = 0; i < (QUICK ? 1 : 3); i++) {
    readAll();
    renderAll();
  }
  const read = [];
  const render = [];
  for (let i = 0; i < REPEAT; i++) {
    read.push(timeMs(readAll));
    render.push(timeMs(renderAll));
  }
  progress(`in process: read ${round(median(read), 2)} ms, render ${round(median(render), 2)} ms`);

  const manifest = join(dir, '.hub.yml');
  writeFileSync(manifest, 'workspace:\n  name: bench\n  projects: []\n');
  const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, 'xdg'), HUB_CONFIG_DIR: join(dir, 'hub') };
  const cases = {
    node: { command: process.execPath, args: ['-e', '0'] },
    validate: hubCase(['-c', manifest, 'agent', 'validate', '--json'], env),
    preview: hubCase(
      ['-c', manifest, 'agent', 'preview', 'repo-implementer', '--vendor', 'claude_code', '--json'],
      env,
    ),
  };
  const t = timeInterleaved(cases, { runs: RUNS, warmup: QUICK ? 0 : 2, label: 'cli' });
  const ms = (k) => t[k].median_ms;
  return {
    templates: ids.length,
    vendors: m.VENDOR_IDS.length,
    renders,
    template_files: files.length,
    template_bytes: bytes,
    output_bytes: outputBytes,
    read_ms: round(median(read), 3),
    render_ms: round(median(render), 3),
    ratio: round(median(render) / median(read), 1),
    per_render_ms: round(median(render) / renders, 3),
    node_e0_ms: ms('node'),
    cli_validate_ms: ms('validate'),
    cli_preview_ms: ms('preview'),
    ratio_cli_validate: round(ms('validate') / ms('node'), 2),
    ratio_cli_preview: round(ms('preview') / ms('node'), 2),
    repeat: REPEAT,
    runs: RUNS,
    node: process.version,
  };
});
