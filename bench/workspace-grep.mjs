#!/usr/bin/env node
// `hub workspace grep` against running ripgrep directly on the same tree with the same flags.
// Usage: npm run build && node bench/workspace-grep.mjs [--repos 200] [--files 500] [--runs 10] [--quick]
// (--quick: 2 repositories of 5 files, 1 run, no warm-up.)
// The tree: N repositories of F source files (~6 KB each, a few hundred MB in all), a node_modules folder in
// each (excluded by both), and a rare word placed in a few files so both searches read everything.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { findRipgrepOnPath } from './lib/find-rg.mjs';
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
import { peakRss } from './lib/peak-rss.mjs';

const { values } = parseArgs({
  options: {
    repos: { type: 'string', default: QUICK ? '2' : '200' },
    files: { type: 'string', default: QUICK ? '5' : '500' },
    runs: { type: 'string', default: QUICK ? '1' : '10' },
    quick: { type: 'boolean' },
  },
});
const REPOS = Number(values.repos);
const FILES = Number(values.files);
const RUNS = Number(values.runs);
const QUERY = 'zebraquokka';

const rg = findRipgrepOnPath();
if (!rg) {
  process.stdout.write(
    `${JSON.stringify({ bench: 'workspace-grep', skipped: 'ripgrep (rg) is not on PATH' })}\n`,
  );
} else {
  await runBench('workspace-grep', ({ cleanup }) => {
    const dir = cleanup(createTempDir('hub-bench-grep-'));
    const cache = cleanup(createTempDir('hub-bench-cache-'));
    const line = (i) =>
      `export function handler${i}(input: string): string { return input.trim() + "${i}"; }\n`;
    const body = Array.from({ length: 70 }, (_, i) => line(i)).join('');
    let bytes = 0;
    let planted = 0;
    const repos = [];
    for (let r = 0; r < REPOS; r++) {
      const name = `repo-${String(r).padStart(3, '0')}`;
      const root = join(dir, 'team', name);
      for (let f = 0; f < FILES; f++) {
        const sub = join(root, 'src', `mod${f % 20}`);
        mkdirSync(sub, { recursive: true });
        const hit = (r * FILES + f) % 997 === 0;
        const text = hit ? `${body}// ${QUERY} marker\n` : body;
        if (hit) planted++;
        writeFileSync(join(sub, `file${f}.ts`), text);
        bytes += text.length;
      }
      mkdirSync(join(root, 'node_modules', 'dep'), { recursive: true });
      writeFileSync(join(root, 'node_modules', 'dep', 'index.js'), `// ${QUERY} in a dependency\n`);
      repos.push(name);
    }
    const lines = ['workspace:', '  name: grep-bench', '  projects:', '    - name: team', '      repos:'];
    for (const n of repos) lines.push(`        - name: ${n}`, `          path: ./team/${n}`);
    const manifest = join(dir, '.hub.yml');
    writeFileSync(manifest, `${lines.join('\n')}\n`);
    progress(
      `tree: ${REPOS} repos x ${FILES} files, ${(bytes / 1e6).toFixed(0)} MB, ${planted} planted matches`,
    );
    // What hub leaves out and its size cap, from hub itself, so rg runs with exactly the same rules.
    const infoCase = hubCase(['-c', manifest, 'workspace', 'grep', 'info', '--json']);
    const info = JSON.parse(timeSpawn(infoCase.command, infoCase.args, infoCase).stdout);
    const rgArgs = [
      '--json',
      '--hidden',
      '--no-require-git',
      '--no-ignore-dot',
      '--no-ignore-global',
      '--no-ignore-parent',
      '--no-messages',
      '--max-filesize',
      String(info.max_filesize_bytes),
      ...info.excluded_dirs.flatMap((d) => ['--glob', `!${d}`]),
      '--fixed-strings',
      '--case-sensitive',
      '--regexp',
      QUERY,
      '--',
      join(dir, 'team'),
    ];
    const cases = {
      node: { command: process.execPath, args: ['-e', '0'] },
      rg_direct: { command: rg, args: rgArgs, expectStatus: 0 },
      // The manifest cache warm, as on any machine after the first command (see docs/decisions.md).
      hub_grep: hubCase(['-c', manifest, 'workspace', 'grep', QUERY, '--limit', '5000', '--json'], {
        HUB_CACHE_DIR: cache,
      }),
    };
    const hub = JSON.parse(timeSpawn(cases.hub_grep.command, cases.hub_grep.args, cases.hub_grep).stdout);
    if (hub.backend !== 'ripgrep' || hub.matches.length !== planted)
      throw new Error(`hub found ${hub.matches.length} matches with ${hub.backend}, expected ${planted}`);
    const t = timeInterleaved(cases, { runs: RUNS, warmup: QUICK ? 0 : 2, label: 'grep' });
    const builtin = hubCase(['-c', manifest, 'workspace', 'grep', QUERY, '--limit', '5000', '--json'], {
      HUB_CACHE_DIR: cache,
      HUB_GREP_BACKEND: 'builtin',
    });
    const b = timeSpawn(builtin.command, builtin.args, builtin);
    if (JSON.parse(b.stdout).matches.length !== planted) throw new Error('builtin backend disagrees');
    const rss = peakRss({ ripgrep: cases.hub_grep, builtin });
    return {
      repos: REPOS,
      files: REPOS * FILES,
      mb: round(bytes / 1e6),
      matches: planted,
      node_e0_ms: t.node.median_ms,
      rg_direct_ms: t.rg_direct.median_ms,
      hub_grep_ms: t.hub_grep.median_ms,
      ratio: round(t.hub_grep.median_ms / t.rg_direct.median_ms, 2),
      target_ratio: 1.3,
      builtin_once_ms: round(b.ms),
      peak_rss_mb: rss,
      runs: RUNS,
      node: process.version,
    };
  });
}
