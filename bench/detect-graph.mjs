#!/usr/bin/env node
// First contact with real layouts (issue 26): a workspace of generated git checkouts shaped like real projects of
// four ecosystems (a published npm package with private benchmarks, an adapter depending on it, a pnpm monorepo
// with a private root, a yarn workspaces monorepo, a Go module with exp/ and tutorials/ sub-modules and an
// `// indirect` require, a Go command with an assets/ module, a Python project with PEP 735 groups and a
// requirements file in an example, a Python library, a Cargo virtual workspace, a crate naming one crate under
// `[target.'cfg(...)'.dependencies]` and `[dev-dependencies]` with a fuzz crate), each with an origin and no
// manifest. The bench writes the ground truth as it writes the files (every package, its role, every cross-
// repository edge and the line that proves it), then runs what a user runs, through the built CLI: `hub init`,
// `hub component detect`, `hub graph`, `hub component detect --apply`, `hub graph`; and scores them: detection
// precision and recall against the packages (roots included), roles and kinds, edge precision and recall before
// and after the apply, the lines cited right, `indirect` where it is, origins recorded, manifest writes of the
// apply; and the time of each step. Fails unless every score is perfect.
// Usage: node bench/detect-graph.mjs [--copies 40] [--runs 3] [--score-only] [--quick]
// (stdout: exactly one JSON object; --quick: one copy of each layout (10 repositories), 1 run; --score-only
// reports the scores without failing, to score another build: HUB_BIN=<other checkout>/bin/hub.)
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, rmSync, watch, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  createTempDir,
  HUB_BIN,
  median,
  progress,
  QUICK,
  round,
  runBench,
  timeSpawn,
} from './lib/measure.mjs';

const { values } = parseArgs({
  options: {
    copies: { type: 'string', default: QUICK ? '1' : '40' },
    runs: { type: 'string', default: QUICK ? '1' : '3' },
    'score-only': { type: 'boolean' },
    quick: { type: 'boolean' },
  },
});
const COPIES = Number(values.copies);
const RUNS = Number(values.runs);

/** A text file written line by line, so the truth knows the line of everything it marks. */
class TextFile {
  lines = [];
  /** Adds a line; `cite` records it as the evidence of an edge. */
  add(line, cite) {
    this.lines.push(line);
    if (cite) cite(this.lines.length);
    return this;
  }
  text() {
    return `${this.lines.join('\n')}\n`;
  }
}

/**
 * The layouts of copy `k` and their truth. `files[repo][path] = text`; `packages` per repo: path -> {name, kind,
 * role}; `evidence`: {from, to, file, line, scope}; cross-copy edges point at copy k-1 (when there is one).
 */
function layouts(k, truth) {
  const s = `-${k}`;
  const files = {};
  const repo = (id) => {
    files[id] ??= {};
    truth.packages[id] ??= {};
    return files[id];
  };
  const pkg = (id, path, name, kind, role) => {
    truth.packages[id][path] = { name, kind, ...(role ? { role } : {}) };
  };
  const cite = (from, to, file, scope) => (line) => truth.evidence.push({ from, to, file, line, scope });
  const json = (lines) => lines.join('\n');

  // 1. npm: a published root package, private benchmark packages, an ESM stub below src.
  const webfw = `npm/webfw${s}`;
  repo(webfw)['package.json'] = json([
    '{',
    `  "name": "webfw${s}",`,
    '  "version": "4.0.0",',
    '  "main": "dist/index.js",',
    '  "devDependencies": { "typescript": "^5" }',
    '}',
  ]);
  pkg(webfw, '.', `webfw${s}`, 'library');
  files[webfw]['src/esm/package.json'] = '{ "type": "module" }\n';
  for (const b of ['routers', 'handle']) {
    files[webfw][`benchmarks/${b}/package.json`] =
      `{ "name": "bench-${b}${s}", "private": true, "dependencies": { "webfw${s}": "*" } }\n`;
    pkg(webfw, `benchmarks/${b}`, `bench-${b}${s}`, 'application', 'benchmark');
  }

  // 2. npm: an adapter on webfw (peer and dev), with a benchmarks package.
  const adapter = `npm/adapter${s}`;
  const a = new TextFile()
    .add('{')
    .add(`  "name": "@webfw/adapter${s}",`)
    .add('  "main": "index.js",')
    .add('  "peerDependencies": {')
    .add(`    "webfw${s}": "^4"`, cite(adapter, webfw, 'package.json', 'peerDependencies'))
    .add('  },')
    .add('  "devDependencies": {')
    .add(`    "webfw${s}": "^4.0.0",`, cite(adapter, webfw, 'package.json', 'devDependencies'))
    .add('    "tsup": "^8"')
    .add('  }')
    .add('}');
  repo(adapter)['package.json'] = a.text();
  pkg(adapter, '.', `@webfw/adapter${s}`, 'library');
  files[adapter]['benchmarks/package.json'] = `{ "name": "adapter-bench${s}", "private": true }\n`;
  pkg(adapter, 'benchmarks', `adapter-bench${s}`, 'application', 'benchmark');

  // 3. pnpm: a private root; members one level down, any depth under tooling/, a fixture carved out.
  const mono = `npm/mono${s}`;
  repo(mono)['package.json'] = `{ "name": "mono-root${s}", "private": true }\n`;
  files[mono]['pnpm-workspace.yaml'] =
    "packages:\n  - 'packages/*'\n  - 'tooling/**'\n  - '!**/fixtures/**'\n";
  const member = (path, name, deps, kind) => {
    const f = new TextFile().add('{').add(`  "name": "${name}",`).add('  "main": "index.js",');
    f.add('  "dependencies": {');
    deps.forEach(([dep, to], i) => {
      const comma = i < deps.length - 1 ? ',' : '';
      f.add(
        `    "${dep}": "^1"${comma}`,
        to ? cite(mono, to, `${path}/package.json`, 'dependencies') : undefined,
      );
    });
    f.add('  }').add('}');
    files[mono][`${path}/package.json`] = f.text();
    pkg(mono, path, name, kind);
  };
  member('packages/core', `@mono${s}/core`, [[`webfw${s}`, webfw]], 'package');
  member(
    'packages/server',
    `@mono${s}/server`,
    [
      [`@mono${s}/core`, undefined],
      [`@webfw/adapter${s}`, adapter],
    ],
    'package',
  );
  member('tooling/lint/config', `@mono${s}/lint-config`, [[`webfw${s}`, webfw]], 'library');
  files[mono]['packages/core/test/fixtures/app/package.json'] = `{ "name": "fixture-app${s}" }\n`;
  pkg(mono, 'packages/core/test/fixtures/app', `fixture-app${s}`, 'package', 'test');

  // 4. yarn: workspaces as {packages}, a private root.
  const yarn = `npm/yarnmono${s}`;
  repo(yarn)['package.json'] =
    `{ "name": "yarn-root${s}", "private": true, "workspaces": { "packages": ["libs/*"] } }\n`;
  const y = new TextFile()
    .add('{')
    .add(`  "name": "@yarn${s}/ui",`)
    .add('  "bin": { "ui": "cli.js" },')
    .add(`  "dependencies": { "webfw${s}": "^4" }`, cite(yarn, webfw, 'libs/ui/package.json', 'dependencies'))
    .add('}');
  files[yarn]['libs/ui/package.json'] = y.text();
  pkg(yarn, 'libs/ui', `@yarn${s}/ui`, 'library');

  // 6 first (5 requires it). Go: a command with an assets module.
  const gotool = `go/gotool${s}`;
  repo(gotool)['go.mod'] = `module example.com/gotool${s}\n\ngo 1.22\n`;
  files[gotool]['main.go'] = '// Command gotool.\npackage main\n';
  files[gotool]['assets/go.mod'] = `module example.com/gotool${s}/assets\n\ngo 1.22\n`;
  files[gotool]['assets/assets.go'] = 'package assets\n';
  pkg(gotool, '.', `example.com/gotool${s}`, 'application');
  pkg(gotool, 'assets', `example.com/gotool${s}/assets`, 'library');

  // 5. Go: a module with exp/ and tutorials/ sub-modules, a direct and an indirect require of gotool.
  const golib = `go/golib${s}`;
  const g = new TextFile()
    .add(`module example.com/golib${s}`)
    .add('')
    .add('go 1.22')
    .add('')
    .add('require (')
    .add(`\texample.com/gotool${s} v1.0.0`, cite(golib, gotool, 'go.mod', 'require'))
    .add(`\texample.com/gotool${s}/assets v0.1.0 // indirect`, cite(golib, gotool, 'go.mod', 'indirect'))
    .add('\tgolang.org/x/sys v0.20.0 // indirect')
    .add(')');
  repo(golib)['go.mod'] = g.text();
  files[golib]['golib.go'] = 'package golib\n';
  files[golib]['exp/go.mod'] = `module example.com/golib${s}/exp\n\ngo 1.22\n`;
  files[golib]['exp/exp.go'] = 'package exp\n';
  files[golib]['tutorials/go.mod'] = `module example.com/golib${s}/tutorials\n`;
  files[golib]['tutorials/main.go'] = 'package main\n';
  pkg(golib, '.', `example.com/golib${s}`, 'library');
  pkg(golib, 'exp', `example.com/golib${s}/exp`, 'library');
  pkg(golib, 'tutorials', `example.com/golib${s}/tutorials`, 'application', 'example');

  // 8 first. Python: a library.
  const wz = `py/wzlike${s}`;
  repo(wz)['pyproject.toml'] = `[project]\nname = "wz_like${s}"\nversion = "3.0.0"\n`;
  pkg(wz, '.', `wz_like${s}`, 'library');

  // 7. Python: PEP 621 + PEP 735 groups naming the library twice, a requirements file in an example.
  const flask = `py/flasklike${s}`;
  const wzName = `wz-like${s}`;
  const p = new TextFile()
    .add(`# flasklike${s}: built on ${wzName}`)
    .add('[project]')
    .add(`name = "flasklike${s}"`)
    .add('dependencies = [')
    .add(`    "${wzName}>=3.0",`, cite(flask, wz, 'pyproject.toml', 'dependencies'))
    .add('    "click>=8",')
    .add(']')
    .add('')
    .add('[dependency-groups]')
    .add(`dev = ["pytest", "${wzName}"]`, cite(flask, wz, 'pyproject.toml', 'dependency-groups.dev'))
    .add('tests = [')
    .add('    "pytest",')
    .add(`    "${wzName}",`, cite(flask, wz, 'pyproject.toml', 'dependency-groups.tests'))
    .add(']');
  repo(flask)['pyproject.toml'] = p.text();
  pkg(flask, '.', `flasklike${s}`, 'library');
  files[flask]['examples/tutorial/pyproject.toml'] =
    `[project]\nname = "flaskr${s}"\ndependencies = ["flasklike${s}"]\n`;
  pkg(flask, 'examples/tutorial', `flaskr${s}`, 'library', 'example');
  files[flask]['examples/celery/pyproject.toml'] = `[project]\nname = "celery-example${s}"\n`;
  pkg(flask, 'examples/celery', `celery-example${s}`, 'library', 'example');
  const req = new TextFile()
    .add(`flasklike${s}`)
    .add(`${wzName}==3.0`, cite(flask, wz, 'examples/celery/requirements.txt', 'requirements'));
  files[flask]['examples/celery/requirements.txt'] = req.text();

  // 9. Cargo: a virtual workspace of two crates.
  const serde = `rs/serdelike${s}`;
  repo(serde)['Cargo.toml'] = '[workspace]\nmembers = ["core", "derive"]\n';
  files[serde]['core/Cargo.toml'] = `[package]\nname = "serde-like${s}"\n\n[lib]\n`;
  files[serde]['derive/Cargo.toml'] =
    `[package]\nname = "serde_like_derive${s}"\n\n[lib]\nproc-macro = true\n`;
  pkg(serde, 'core', `serde-like${s}`, 'library');
  pkg(serde, 'derive', `serde_like_derive${s}`, 'library');

  // 10. Cargo: one crate under a target table and dev-dependencies, a fuzz crate.
  const app = `rs/appcrate${s}`;
  const c = new TextFile()
    .add(`# uses serde-like${s} in tests`)
    .add('[package]')
    .add(`name = "app-crate${s}"`)
    .add('')
    .add("[target.'cfg(any())'.dependencies]")
    .add(
      `serde-like${s} = { version = "1" }`,
      cite(app, serde, 'Cargo.toml', 'target.cfg(any()).dependencies'),
    )
    .add('')
    .add('[dev-dependencies]')
    .add(`serde-like${s} = "1"`, cite(app, serde, 'Cargo.toml', 'dev-dependencies'))
    .add(`serde-like-derive${s} = "1"`, cite(app, serde, 'Cargo.toml', 'dev-dependencies'));
  repo(app)['Cargo.toml'] = c.text();
  files[app]['src/lib.rs'] = '\n';
  files[app]['fuzz/Cargo.toml'] =
    `[package]\nname = "app-crate-fuzz${s}"\n\n[dependencies]\napp-crate${s} = { path = ".." }\n\n[[bin]]\nname = "t"\npath = "fuzz_targets/t.rs"\n`;
  pkg(app, '.', `app-crate${s}`, 'library');
  pkg(app, 'fuzz', `app-crate-fuzz${s}`, 'application', 'fuzz');

  // Across copies: this copy's adapter also depends on the previous copy's Go-free npm package.
  if (k > 0) {
    const prev = `npm/webfw-${k - 1}`;
    const f = new TextFile().add('{').add(`  "name": "consumer${s}",`).add('  "main": "index.js",');
    f.add(
      `  "dependencies": { "webfw-${k - 1}": "^4" }`,
      cite(`npm/consumer${s}`, prev, 'package.json', 'dependencies'),
    );
    f.add('}');
    repo(`npm/consumer${s}`)['package.json'] = f.text();
    pkg(`npm/consumer${s}`, '.', `consumer${s}`, 'library');
  }
  return files;
}

const originOf = (id) => `https://github.com/bench-org/${id.split('/')[1]}.git`;

function generate(dir) {
  const truth = { packages: {}, evidence: [] };
  const all = {};
  for (let k = 0; k < COPIES; k++) Object.assign(all, layouts(k, truth));
  // One real empty repository, copied into every checkout (a git process per repository would dominate).
  const template = join(dir, '.template');
  spawnSync('git', ['init', '-q', '-b', 'main', template]);
  for (const [id, files] of Object.entries(all)) {
    const root = join(dir, id);
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), text);
    }
    cpSync(join(template, '.git'), join(root, '.git'), { recursive: true });
    appendFileSync(join(root, '.git', 'config'), `[remote "origin"]\n\turl = ${originOf(id)}\n`);
  }
  rmSync(template, { recursive: true, force: true });
  return { truth, repos: Object.keys(all) };
}

const ENV = {
  ...process.env,
  HUB_DAEMON: 'off',
  HUB_CACHE_DIR: 'off',
  HUB_AGENT_MODE: 'true',
  NO_COLOR: '1',
};

function hub(ws, args) {
  const r = timeSpawn(process.execPath, [HUB_BIN, ...args, '--json'], { env: ENV, cwd: ws });
  return { ms: r.ms, json: JSON.parse(r.stdout) };
}

/** Atomic writes of .hub.yml while `fn` runs (one rename onto the file each). */
async function manifestWrites(ws, fn) {
  let n = 0;
  const w = watch(ws, (event, file) => {
    if (event === 'rename' && file === '.hub.yml') n++;
  });
  const out = fn();
  await new Promise((r) => setTimeout(r, 200));
  w.close();
  return { n, out };
}

const share = (num, den) => (den === 0 ? 1 : round(num / den, 4));

function scoreDetect(candidates, truth) {
  const expected = new Map();
  for (const [id, paths] of Object.entries(truth.packages))
    for (const [path, p] of Object.entries(paths)) expected.set(`${id}:${path}`, p);
  let right = 0;
  let rolesRight = 0;
  let kindsRight = 0;
  let unknown = 0;
  const extra = [];
  const wrong = [];
  for (const c of candidates) {
    const key = `${c.project}/${c.repo}:${c.path}`;
    const p = expected.get(key);
    if (c.kind === 'unknown') unknown++;
    if (!p) {
      extra.push(key);
      continue;
    }
    right++;
    if ((c.role ?? null) === (p.role ?? null)) rolesRight++;
    if (c.kind === p.kind) kindsRight++;
    else wrong.push(`${key} kind ${c.kind} (expected ${p.kind})`);
  }
  const found = new Set(candidates.map((c) => `${c.project}/${c.repo}:${c.path}`));
  const missed = [...expected.keys()].filter((k) => !found.has(k));
  const roots = [...expected.keys()].filter((k) => k.endsWith(':.'));
  const roles = [...expected.values()].filter((p) => p.role).length;
  return {
    packages: expected.size,
    candidates: candidates.length,
    precision: share(right, candidates.length),
    recall: share(expected.size - missed.length, expected.size),
    roots_expected: roots.length,
    roots_found: roots.filter((k) => found.has(k)).length,
    roles_expected: roles,
    roles_right: share(rolesRight, right),
    kinds_right: share(kindsRight, right),
    unknown_kinds: unknown,
    missed: missed.slice(0, 5),
    extra: extra.slice(0, 5),
    wrong_kinds: wrong.slice(0, 5),
  };
}

function scoreGraph(graph, truth) {
  const inferred = graph.edges.filter((e) => e.source === 'inferred');
  const pairs = new Set(inferred.map((e) => `${e.from_id.slice(5)} ${e.to_id.slice(5)}`));
  const truePairs = new Set(truth.evidence.map((t) => `${t.from} ${t.to}`));
  const cited = new Set(
    inferred.flatMap((e) =>
      (e.evidence ?? []).map(
        (v) => `${e.from_id.slice(5)} ${e.to_id.slice(5)} ${v.file}:${v.line} ${v.scope}`,
      ),
    ),
  );
  const lines = truth.evidence.map((t) => `${t.from} ${t.to} ${t.file}:${t.line} ${t.scope}`);
  const indirect = truth.evidence.filter((t) => t.scope === 'indirect');
  return {
    edges_expected: truePairs.size,
    edges_found: [...pairs].filter((p) => truePairs.has(p)).length,
    edge_precision: share([...pairs].filter((p) => truePairs.has(p)).length, pairs.size),
    edge_recall: share([...truePairs].filter((p) => pairs.has(p)).length, truePairs.size),
    lines_expected: lines.length,
    lines_right: lines.filter((l) => cited.has(l)).length,
    line_precision: share([...cited].filter((l) => lines.includes(l)).length, cited.size),
    indirect_expected: indirect.length,
    indirect_right: indirect.filter((t) => cited.has(`${t.from} ${t.to} ${t.file}:${t.line} indirect`))
      .length,
    wrong_lines: lines.filter((l) => !cited.has(l)).slice(0, 5),
  };
}

await runBench('detect-graph', async ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-detect-graph-'));
  const { truth, repos } = generate(dir);
  progress(`generated ${repos.length} checkouts (${COPIES} copies of each layout)`);
  const times = { init: [], detect: [], graph_before: [], apply: [], graph: [] };
  let scores;
  for (let run = 0; run < RUNS; run++) {
    rmSync(join(dir, '.hub.yml'), { force: true });
    const init = hub(dir, ['init']);
    times.init.push(init.ms);
    const detect = hub(dir, ['component', 'detect']);
    times.detect.push(detect.ms);
    const before = hub(dir, ['graph']);
    times.graph_before.push(before.ms);
    const { n: writes, out: apply } = await manifestWrites(dir, () =>
      hub(dir, ['component', 'detect', '--apply']),
    );
    times.apply.push(apply.ms);
    const after = hub(dir, ['graph']);
    times.graph.push(after.ms);
    const nodes = after.json.nodes.filter((x) => x.kind === 'repo');
    const beforeScore = scoreGraph(before.json, {
      evidence: truth.evidence.filter((t) => !t.file.startsWith('examples/')),
    });
    scores = {
      ...scoreDetect(detect.json.candidates, truth),
      edge_recall_before_apply: beforeScore.edge_recall,
      ...scoreGraph(after.json, truth),
      origins_recorded: share(nodes.filter((x) => x.url === originOf(x.id.slice(5))).length, repos.length),
      manifest_writes: writes,
      inference_skips: after.json.inference.skipped_count,
    };
    progress(`run ${run + 1}/${RUNS}`);
  }
  const perfect =
    scores.precision === 1 &&
    scores.recall === 1 &&
    scores.roles_right === 1 &&
    scores.kinds_right === 1 &&
    scores.edge_precision === 1 &&
    scores.edge_recall === 1 &&
    scores.edge_recall_before_apply === 1 &&
    scores.lines_right === scores.lines_expected &&
    scores.line_precision === 1 &&
    scores.indirect_right === scores.indirect_expected &&
    scores.origins_recorded === 1 &&
    scores.manifest_writes === 1 &&
    scores.inference_skips === 0;
  if (!perfect && !values['score-only'])
    throw new Error(`first contact is not exact: ${JSON.stringify(scores)}`);
  const { missed, extra, wrong_kinds, wrong_lines, ...figures } = scores;
  return {
    repos: repos.length,
    copies: COPIES,
    exact: perfect,
    ...figures,
    init_ms: round(median(times.init)),
    detect_ms: round(median(times.detect)),
    graph_before_apply_ms: round(median(times.graph_before)),
    apply_ms: round(median(times.apply)),
    graph_ms: round(median(times.graph)),
    runs: RUNS,
    node: process.version,
  };
});
