#!/usr/bin/env node
// `hub config validate` on a 5,000-repo workspace (component directories on disk), against parsing the same
// YAML alone in a fresh node process.
// Usage: npm run build && node bench/validate-large.mjs [--repos 5000] [--components 6] [--runs 5] [--quick]
// Quick mode (--quick): 40 repositories, one run.
// Ten components per repo, as the issue asks (5,000 repos is ~1.25M YAML tokens, under YAML_LIMITS.maxTokens).
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateWorkspace } from './lib/generate.mjs';
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

const { values } = parseArgs({
  options: {
    repos: { type: 'string', default: QUICK ? '40' : '5000' },
    components: { type: 'string', default: '10' },
    runs: { type: 'string', default: QUICK ? '1' : '5' },
    quick: { type: 'boolean' },
  },
});
const REPOS = Number(values.repos);
const COMPONENTS = Number(values.components);
const RUNS = Number(values.runs);

await runBench('validate-large', ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-validate-'));
  const ws = generateWorkspace(join(dir, 'ws'), { repos: REPOS, components: COMPONENTS, dirs: true });
  progress(
    `generated ${ws.manifestPath} (${ws.repos} repos, ${ws.components} components, ${ws.bytes} bytes)`,
  );
  const parseOnly = {
    command: process.execPath,
    args: [join(ROOT, 'bench', 'lib', 'parse-yaml.mjs'), ws.manifestPath],
  };
  // validate always parses afresh; the cache dir is off anyway so nothing else could be measured.
  const validate = hubCase(['-c', ws.manifestPath, 'config', 'validate', '--json'], { HUB_CACHE_DIR: 'off' });

  const check = JSON.parse(timeSpawn(validate.command, validate.args, validate).stdout);
  if (!check.valid || check.counts.components !== ws.components)
    throw new Error(
      `validate answered ${JSON.stringify({ ...check, problems: check.problems?.slice(0, 3) })}`,
    );
  if (Number(timeSpawn(parseOnly.command, parseOnly.args).stdout) !== ws.projects)
    throw new Error('the YAML baseline did not parse every project');

  const t = timeInterleaved({ parseOnly, validate }, { runs: RUNS, warmup: 1, label: 'validate' });
  return {
    repos: ws.repos,
    components: ws.components,
    bytes: statSync(ws.manifestPath).size,
    yaml_parse_ms: t.parseOnly.median_ms,
    validate_ms: t.validate.median_ms,
    ratio: round(t.validate.median_ms / t.parseOnly.median_ms, 2),
    target_ratio: 2,
    runs: RUNS,
    node: process.version,
  };
});
