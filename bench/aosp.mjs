#!/usr/bin/env node
// Imports the AOSP platform repo manifest with `hub import repo-manifest`, then times everyday commands on it.
// Usage: npm run build && node bench/aosp.mjs [manifest.xml] [--runs 10] [--quick]   (--quick: 1 run, no warm-up)
// The default manifest is the AOSP platform manifest kept in bench/data (so a fresh clone has it).
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  createTempDir,
  hubCase,
  progress,
  QUICK,
  ROOT,
  round,
  runBench,
  timeInterleaved,
  timeSpawn,
} from './lib/measure.mjs';
import { peakRss } from './lib/peak-rss.mjs';

const DEFAULT_XML = join(ROOT, 'bench', 'data', 'aosp-platform-manifest.xml');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: 'string', default: QUICK ? '1' : '10' }, quick: { type: 'boolean' } },
});
const XML = positionals[0] ?? DEFAULT_XML;
const RUNS = Number(values.runs);

if (!existsSync(XML)) {
  process.stdout.write(`${JSON.stringify({ bench: 'aosp', skipped: `repo manifest not found: ${XML}` })}\n`);
} else {
  await runBench('aosp', ({ cleanup }) => {
    const dir = cleanup(createTempDir('hub-bench-aosp-'));
    const cache = cleanup(createTempDir('hub-bench-cache-'));
    const manifest = join(dir, '.hub.yml');
    const importCase = hubCase(['import', 'repo-manifest', XML, '--output', manifest, '--force', '--json']);
    const imported = JSON.parse(timeSpawn(importCase.command, importCase.args, importCase).stdout);
    progress(`imported ${XML}: ${imported.counts.projects} projects, ${imported.counts.repos} repos`);

    const list = hubCase(['-c', manifest, 'workspace', 'repo', 'list', '--json'], { HUB_CACHE_DIR: cache });
    const rows = JSON.parse(timeSpawn(list.command, list.args, list).stdout);
    const sample = rows.repos.find((r) => r.id === 'frameworks/frameworks-base') ?? rows.repos[0];
    const resolveArgs = ['-c', manifest, 'component', 'resolve', 'core/java/android/app/Activity.java'];
    const scope = ['--project', sample.project, '--repo', sample.repo, '--json'];
    const cases = {
      import: importCase,
      validate: hubCase(['-c', manifest, 'config', 'validate', '--json'], { HUB_CACHE_DIR: 'off' }),
      resolveWarm: hubCase([...resolveArgs, ...scope], { HUB_CACHE_DIR: cache }),
      resolveCold: hubCase([...resolveArgs, ...scope], { HUB_CACHE_DIR: 'off' }),
      repoList: list,
      node: { command: process.execPath, args: ['-e', '0'] },
    };
    const t = timeInterleaved(cases, { runs: RUNS, warmup: QUICK ? 0 : 2, label: 'aosp' });
    const { node: _node, ...hubCases } = cases;
    const rss = peakRss(hubCases);
    return {
      source: XML,
      xml_bytes: statSync(XML).size,
      manifest_bytes: statSync(manifest).size,
      projects: imported.counts.projects,
      repos: imported.counts.repos,
      groups: imported.counts.groups,
      removed: imported.counts.removed,
      includes_missing: imported.counts.includes_missing,
      warnings: imported.warnings.length,
      node_e0_ms: t.node.median_ms,
      import_ms: t.import.median_ms,
      validate_ms: t.validate.median_ms,
      resolve_warm_ms: t.resolveWarm.median_ms,
      resolve_cold_ms: t.resolveCold.median_ms,
      repo_list_ms: t.repoList.median_ms,
      ratio_resolve_warm: round(t.resolveWarm.median_ms / t.node.median_ms, 2),
      peak_rss_mb: {
        import: rss.import,
        validate: rss.validate,
        resolve_warm: rss.resolveWarm,
        resolve_cold: rss.resolveCold,
        repo_list: rss.repoList,
      },
      resolved_in: sample.id,
      runs: RUNS,
      node: process.version,
    };
  });
}
