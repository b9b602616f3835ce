// `hub mcp install` into an existing MCP configuration of 1,000 servers (Cursor's JSON with comments, Codex's
// TOML), against a bare `node` that only parses and serializes that file with the same libraries: what the merge,
// its safety checks (the re-parse that proves nothing else changed, the lost-update check) and the CLI cost on top.
// Each round restores the file, then times the first install (the entry is added), the second (unchanged, no
// write) and the baseline, interleaved. Prints one JSON object.
// Usage: npm run build && node bench/mcp-install.mjs [--servers 1000] [--runs 9] [--quick]
// (--quick: 10 servers, 1 run, no warm-up round.)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { HUB_BIN, median, progress, QUICK, round, runBench, timeSpawn } from './lib/measure.mjs';

const { values } = parseArgs({
  options: {
    servers: { type: 'string', default: QUICK ? '10' : '1000' },
    runs: { type: 'string', default: QUICK ? '1' : '9' },
    quick: { type: 'boolean' },
  },
});
const SERVERS = Number(values.servers);
const RUNS = Number(values.runs);
const WARMUP = QUICK ? 0 : 1;

const jsonFile = (n) => {
  const lines = ['{', '  // generated: one server per line, with a comment each', '  "mcpServers": {'];
  for (let i = 0; i < n; i++)
    lines.push(
      `    "srv-${i}": { "command": "npx", "args": ["-y", "server-${i}"], "env": { "TOKEN": "t${i}" } }${i < n - 1 ? ',' : ''} // server ${i}`,
    );
  lines.push('  },', '  "theme": "dark"', '}', '');
  return lines.join('\n');
};

const tomlFile = (n) => {
  const parts = ['# generated: one section per server', 'model = "o3"', ''];
  for (let i = 0; i < n; i++)
    parts.push(`[mcp_servers.srv-${i}] # server ${i}`, 'command = "npx"', `args = ["-y", "server-${i}"]`, '');
  return parts.join('\n');
};

/** The baseline: read, parse and serialize the file with the library hub uses for it, nothing else. */
function baselineScript(dir) {
  const jsonc = fileURLToPath(import.meta.resolve('jsonc-parser'));
  const toml = fileURLToPath(import.meta.resolve('@decimalturn/toml-patch'));
  const path = join(dir, 'baseline.mjs');
  writeFileSync(
    path,
    [
      "import { readFileSync } from 'node:fs';",
      "import { createRequire } from 'node:module';",
      `const file = process.argv[2];`,
      "const text = readFileSync(file, 'utf8');",
      "if (file.endsWith('.toml')) {",
      `  const t = await import(${JSON.stringify(toml)});`,
      '  t.stringify(t.parse(text));',
      '} else {',
      `  const j = createRequire(import.meta.url)(${JSON.stringify(jsonc)});`,
      '  JSON.stringify(j.parse(text, [], { allowTrailingComma: true }), null, 2);',
      '}',
    ].join('\n'),
  );
  return path;
}

await runBench('mcp-install', async ({ cleanup }) => {
  const { createTempDir } = await import('./lib/measure.mjs');
  const dir = cleanup(createTempDir('hub-bench-mcp-'));
  const ws = join(dir, 'ws');
  mkdirSync(join(ws, '.git'), { recursive: true });
  writeFileSync(join(ws, '.hub.yml'), 'workspace:\n  name: bench\n  projects: []\n');
  const env = {
    ...process.env,
    HOME: join(dir, 'home'),
    XDG_CONFIG_HOME: join(dir, 'xdg'),
    HUB_CACHE_DIR: 'off',
  };
  const baseline = baselineScript(dir);
  const out = { servers: SERVERS, runs: RUNS };
  for (const [target, rel, text] of [
    ['cursor', '.cursor/mcp.json', jsonFile(SERVERS)],
    ['codex', '.codex/config.toml', tomlFile(SERVERS)],
  ]) {
    const file = join(ws, rel);
    mkdirSync(join(file, '..'), { recursive: true });
    const install = [HUB_BIN, 'mcp', 'install', '--scope', 'project', '--target', target, '--json'];
    const t = { install: [], again: [], parse_serialize: [] };
    for (let i = 0; i < RUNS + WARMUP; i++) {
      writeFileSync(file, text);
      const first = timeSpawn(process.execPath, install, { env, cwd: ws });
      if (JSON.parse(first.stdout).action !== 'update')
        throw new Error(`${target}: first install did not update`);
      const again = timeSpawn(process.execPath, install, { env, cwd: ws });
      if (JSON.parse(again.stdout).action !== 'unchanged') throw new Error(`${target}: second install wrote`);
      const base = timeSpawn(process.execPath, [baseline, file], { env, cwd: ws });
      if (i < WARMUP) continue; // warm-up round
      t.install.push(first.ms);
      t.again.push(again.ms);
      t.parse_serialize.push(base.ms);
    }
    if (!readFileSync(file, 'utf8').includes(`// server ${SERVERS - 1}`) && target === 'cursor')
      throw new Error('the comments were lost');
    const m = Object.fromEntries(Object.entries(t).map(([k, xs]) => [`${k}_ms`, round(median(xs))]));
    out[target] = {
      file_bytes: Buffer.byteLength(text),
      ...m,
      ratio_install: round(m.install_ms / m.parse_serialize_ms, 2),
      ratio_again: round(m.again_ms / m.parse_serialize_ms, 2),
    };
    progress(`${target}: ${JSON.stringify(out[target])}`);
  }
  return { ...out, node: process.version };
});
