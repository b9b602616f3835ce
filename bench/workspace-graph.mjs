#!/usr/bin/env node
// The workspace graph of 5,000 generated repositories with inference (each repository has the package file of its
// ecosystem naming 1-3 other workspace repositories and a few outside packages; some have submodules, charts in
// charts/<name>, npm workspaces), against the floor of reading those package files alone. In process (src/graph,
// src/catalog and src/model bundled with esbuild; the catalog is built once, as a loaded workspace has it), then
// the CLI end to end (`hub graph --json` with and without inference).
// Usage: node bench/workspace-graph.mjs [--repos 5000] [--repeat 7] [--runs 3] [--quick]
// (stdout: exactly one JSON object; --quick: 30 repositories (one submodule), 1 repeat, 1 CLI run, no warm-up; peak_rss_mb: one
// more untimed run of each CLI case).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
import { peakRss } from './lib/peak-rss.mjs';

const { values } = parseArgs({
  options: {
    repos: { type: 'string', default: QUICK ? '30' : '5000' },
    repeat: { type: 'string', default: QUICK ? '1' : '7' },
    runs: { type: 'string', default: QUICK ? '1' : '3' },
    quick: { type: 'boolean' },
  },
});
const REPOS = Number(values.repos);
const REPEAT = Number(values.repeat);
const RUNS = Number(values.runs);
const PER_PROJECT = 100;

async function bundle() {
  const outfile = join(ROOT, 'node_modules', '.cache', `hub-bench-workspace-graph-${process.pid}.mjs`);
  try {
    return await importSrc(outfile, [
      "export { buildWorkspaceGraph, packageFileKind } from './src/graph/index.ts';",
      "export { Catalog, checkoutsOf } from './src/catalog/index.ts';",
      "export { readManifestFile } from './src/model/index.ts';",
    ]);
  } finally {
    rmSync(outfile, { force: true });
  }
}

const ECOSYSTEMS = ['npm', 'go', 'python', 'cargo', 'maven', 'gradle', 'helm'];
const json = (v) => `${JSON.stringify(v, null, 2)}\n`;

/** The package name repository `i` publishes in its ecosystem. */
function published(i) {
  switch (ECOSYSTEMS[i % ECOSYSTEMS.length]) {
    case 'npm':
      return `@bench/r${i}`;
    case 'go':
      return `example.com/bench/r${i}`;
    case 'python':
    case 'cargo':
    case 'helm':
      return `bench-r${i}`;
    default:
      return `com.bench:r${i}`;
  }
}

/** Files of repository `i`: its package file naming 1-3 earlier repositories of its ecosystem and outside names. */
function filesOf(i) {
  const eco = ECOSYSTEMS[i % ECOSYSTEMS.length];
  const deps = [];
  for (let k = 1; k <= 1 + (i % 3); k++) {
    const j = i - k * ECOSYSTEMS.length;
    if (j >= 0) deps.push(published(j));
  }
  const name = published(i);
  const files = {};
  switch (eco) {
    case 'npm':
      files['package.json'] = json({
        name,
        version: '1.0.0',
        dependencies: Object.fromEntries([...deps, 'react', 'lodash'].map((d) => [d, '^1.0.0'])),
        devDependencies: { typescript: '^5', vitest: '^4' },
      });
      break;
    case 'go':
      files['go.mod'] =
        `module ${name}\n\ngo 1.22\n\nrequire (\n${[...deps, 'golang.org/x/net', 'github.com/stretchr/testify'].map((d) => `\t${d} v1.0.0\n`).join('')})\n`;
      break;
    case 'python':
      files['pyproject.toml'] =
        `[project]\nname = "${name}"\nversion = "1.0.0"\ndependencies = [${[...deps, 'requests', 'pydantic>=2'].map((d) => `"${d}"`).join(', ')}]\n`;
      files['requirements.txt'] = `${deps.map((d) => `${d}==1.0.0`).join('\n')}\nnumpy\n`;
      break;
    case 'cargo':
      files['Cargo.toml'] =
        `[package]\nname = "${name}"\nversion = "0.1.0"\n\n[dependencies]\n${[...deps, 'serde', 'tokio'].map((d) => `${d} = "1"\n`).join('')}`;
      break;
    case 'maven': {
      const [g, a] = name.split(':');
      const dep = (c) => {
        const [dg, da] = c.split(':');
        return `    <dependency><groupId>${dg}</groupId><artifactId>${da}</artifactId><version>1.0</version></dependency>\n`;
      };
      files['pom.xml'] =
        `<?xml version="1.0"?>\n<project>\n  <groupId>${g}</groupId>\n  <artifactId>${a}</artifactId>\n  <version>1.0</version>\n  <dependencies>\n${[...deps.filter((d) => d.includes(':')), 'org.slf4j:slf4j-api'].map(dep).join('')}  </dependencies>\n</project>\n`;
      break;
    }
    case 'gradle': {
      const [g, a] = name.split(':');
      files['settings.gradle'] = `rootProject.name = '${a}'\n`;
      files['build.gradle'] =
        `plugins { id 'java' }\ngroup = '${g}'\ndependencies {\n${[...deps, 'com.google.guava:guava'].map((d) => `    implementation '${d}:1.0'\n`).join('')}}\n`;
      break;
    }
    default:
      files[`charts/${name}/Chart.yaml`] =
        `apiVersion: v2\nname: ${name}\nversion: 0.1.0\ndependencies:\n${[...deps, 'postgresql'].map((d) => `  - name: ${d}\n    version: 1.x\n    repository: oci://registry.example.com\n`).join('')}`;
  }
  // Every 25th repository vendors an earlier one as a submodule (by the URL the manifest gives it).
  if (i % 25 === 0 && i > 0)
    files['.gitmodules'] =
      `[submodule "vendor"]\n\tpath = vendor\n\turl = https://git.example.com/bench/r${i - 1}.git\n`;
  return files;
}

function generate(dir) {
  const projects = [];
  const packageFiles = [];
  let edges = 0;
  for (let i = 0; i < REPOS; i++) {
    const p = Math.floor(i / PER_PROJECT);
    if (!projects[p]) projects[p] = { name: `p${p}`, repos: [] };
    const rel = `p${p}/r${i}`;
    projects[p].repos.push(rel);
    const files = filesOf(i);
    for (const [f, text] of Object.entries(files)) {
      mkdirSync(join(dir, rel, f, '..'), { recursive: true });
      writeFileSync(join(dir, rel, f), text);
      packageFiles.push(join(dir, rel, f));
    }
    edges += Math.min(1 + (i % 3), Math.floor(i / ECOSYSTEMS.length)) + (i % 25 === 0 && i > 0 ? 1 : 0);
  }
  const yaml = [
    'workspace:',
    '  name: bench',
    '  projects:',
    ...projects.flatMap((p) => [
      `    - name: ${p.name}`,
      '      repos:',
      ...p.repos.map((rel) => {
        const n = rel.split('/')[1];
        return `        - { name: ${n}, path: ${rel} }`;
      }),
    ]),
    '',
  ].join('\n');
  writeFileSync(join(dir, '.hub.yml'), yaml);
  // The submodule targets are matched by URL: the repositories they name get one in the manifest's graph.nodes.
  const nodes = [];
  for (let i = 24; i < REPOS; i += 25)
    nodes.push(`    - { project: ext, repo: r${i}, url: "https://git.example.com/bench/r${i}.git" }`);
  if (nodes.length > 0)
    writeFileSync(join(dir, '.hub.yml'), `${yaml}graph:\n  nodes:\n${nodes.join('\n')}\n`);
  return { packageFiles, expectedEdges: edges };
}

function timeMs(fn) {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

await runBench('workspace-graph', async ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-workspace-graph-'));
  progress(`generating ${REPOS} repositories`);
  const { packageFiles, expectedEdges } = generate(dir);
  const bytes = packageFiles.reduce((n, f) => n + readFileSync(f).length, 0);
  const m = await bundle();
  const catalog = new m.Catalog(m.readManifestFile(join(dir, '.hub.yml')));
  const checkouts = m.checkoutsOf(catalog);
  const readAll = () => {
    for (const f of packageFiles) readFileSync(f, 'utf8');
  };
  // The second floor: the same files read and parsed by the same parsers, without the scan, bounds or inference.
  const kinds = packageFiles.map((f) => [f, m.packageFileKind(f.slice(f.lastIndexOf('/') + 1), true)]);
  const ctx = { dirName: 'x', readSibling: () => undefined };
  const parseAll = () => {
    for (const [f, kind] of kinds) kind.parse(readFileSync(f, 'utf8'), f, ctx);
  };
  let graph;
  const graphAll = () => {
    graph = m.buildWorkspaceGraph(catalog, checkouts, { includeInferred: true, includeStructure: true });
  };
  // At least once: the graph checked below comes from here.
  for (let i = 0; i < (QUICK ? 1 : 2); i++) {
    readAll();
    parseAll();
    graphAll();
  }
  if (graph.inferred_edge_count !== expectedEdges)
    throw new Error(`expected ${expectedEdges} inferred edges, got ${graph.inferred_edge_count}`);
  if (graph.inference.skipped_count !== 0)
    throw new Error(`skipped: ${JSON.stringify(graph.inference.skipped[0])}`);
  const read = [];
  const parse = [];
  const infer = [];
  for (let i = 0; i < REPEAT; i++) {
    read.push(timeMs(readAll));
    parse.push(timeMs(parseAll));
    infer.push(timeMs(graphAll));
  }
  progress(
    `in process: read ${round(median(read), 1)} ms, read+parse ${round(median(parse), 1)} ms, graph ${round(median(infer), 1)} ms`,
  );

  const manifest = join(dir, '.hub.yml');
  const cases = {
    graph: hubCase(['-c', manifest, 'graph', '--json']),
    manifest_only: hubCase(['-c', manifest, 'graph', '--no-include-inferred', '--json']),
  };
  const t = timeInterleaved(cases, { runs: RUNS, warmup: QUICK ? 0 : 1, label: 'cli' });
  const rss = peakRss(cases);
  return {
    repos: REPOS,
    package_files: packageFiles.length,
    package_bytes: bytes,
    nodes: graph.nodes.length,
    inferred_edges: graph.inferred_edge_count,
    structure_edges: graph.structure_edge_count,
    files_read: graph.inference.files_read,
    read_ms: round(median(read), 1),
    graph_ms: round(median(infer), 1),
    read_parse_ms: round(median(parse), 1),
    ratio: round(median(infer) / median(read), 2),
    ratio_to_read_parse: round(median(infer) / median(parse), 2),
    per_repo_us: round((median(infer) / REPOS) * 1000, 1),
    cli_graph_ms: t.graph.median_ms,
    cli_graph_no_inference_ms: t.manifest_only.median_ms,
    cli_inference_ms: round(t.graph.median_ms - t.manifest_only.median_ms, 1),
    peak_rss_mb: rss,
    repeat: REPEAT,
    runs: RUNS,
    node: process.version,
  };
});
