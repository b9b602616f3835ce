// What hub loads to start: a warm `component resolve` and `hub --version` load none of the servers' libraries
// (MCP SDK, fastify), no state backend SDK or driver, no YAML parser, no marker readers and (resolve aside from
// its own module) no command tree. Checked on the built CLI in real child processes whose every loaded module is
// recorded by a loader hook; each library is told by a string only its code holds, and each marker is shown to
// be in the bundle (and loaded by the command that needs it), so a check cannot pass by looking for nothing.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { HUB_BIN } from './run-hub.js';

const TRACE = join(import.meta.dirname, 'fixtures', 'import-trace.mjs');
const CHUNKS = join(import.meta.dirname, '..', 'dist', 'chunks');

/** Text only each library's code holds, as it stands in the bundle. */
const BUNDLED = {
  'MCP SDK': 'notifications/tools/list_changed',
  fastify: 'FST_ERR_CTP',
  commander: 'commander.unknownOption',
  'MongoDB driver': 'MongoTopologyClosedError',
  'TOML parser (marker readers)': 'TableArrayKey',
  'prompt library': 'User force closed the prompt',
};
/** Libraries loaded from node_modules, never bundled: told by their path. */
const EXTERNAL = {
  'AWS SDK': '/node_modules/@aws-sdk/',
  yaml: '/node_modules/yaml/',
  'js-yaml': '/node_modules/js-yaml/',
  'web-tree-sitter': '/node_modules/web-tree-sitter/',
};

let dir: string;
let cache: string;
let manifest: string;

/** Runs the built CLI with the import trace; returns its output and the files of every module it loaded. */
function traced(args: string[], env: Record<string, string> = {}) {
  const out = join(dir, `trace-${Math.random().toString(36).slice(2)}.txt`);
  const r = spawnSync(process.execPath, ['--import', TRACE, HUB_BIN, ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      HUB_CACHE_DIR: cache,
      HUB_DAEMON: 'off',
      NO_COLOR: '1',
      HUB_TEST_IMPORT_TRACE: out,
      ...env,
    },
  });
  const urls = readFileSync(out, 'utf8').trim().split('\n');
  const files = urls.filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u));
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, urls, files };
}

/** The names of the libraries whose code the loaded files hold. */
function librariesIn(files: string[]): string[] {
  const found = new Set<string>();
  for (const file of files) {
    for (const [name, path] of Object.entries(EXTERNAL)) if (file.includes(path)) found.add(name);
    if (!file.startsWith(CHUNKS)) continue;
    const text = readFileSync(file, 'utf8');
    for (const [name, marker] of Object.entries(BUNDLED)) if (text.includes(marker)) found.add(name);
  }
  return [...found].sort();
}

const RESOLVE = (m: string) => [
  '-c',
  m,
  'component',
  'resolve',
  'platform/identity/services/api/plugins/auth/main.go',
  '--json',
];

beforeAll(() => {
  dir = createTempDir('hub-startup-');
  cache = join(dir, 'cache');
  manifest = createDemo(join(dir, 'demo')).manifestPath;
});
afterAll(() => removeTempDir(dir));

describe('start-up loads only what the command uses', () => {
  it('every marker is in the bundle, so its absence below means something', () => {
    const all = readdirSync(CHUNKS).filter((f) => f.endsWith('.js'));
    for (const [name, marker] of Object.entries(BUNDLED))
      expect(
        all.some((f) => readFileSync(join(CHUNKS, f), 'utf8').includes(marker)),
        `${name} (${marker})`,
      ).toBe(true);
  });

  it('a warm component resolve loads no server library, backend SDK, YAML parser, marker reader or command tree', () => {
    const first = traced(RESOLVE(manifest));
    expect(first.code, first.stderr).toBe(0);
    // The first run parses the manifest and fills the cache.
    const warm = traced(RESOLVE(manifest));
    expect(warm.code, warm.stderr).toBe(0);
    expect(JSON.parse(warm.stdout).id).toBe('platform/identity/auth-plugin');
    expect(librariesIn(warm.files)).toEqual([]);
    // Nor the network and compression modules only the http and DynamoDB state backends use (~12 ms of CPU).
    expect(warm.urls.filter((u) => ['node:http', 'node:https', 'node:zlib'].includes(u))).toEqual([]);
    // Few modules: the CLI's core is one chunk (scripts/core-chunk.mjs); split by operation modules it was 40+.
    expect(warm.files.filter((f) => f.startsWith(CHUNKS)).length).toBeLessThan(25);
  });

  it('hub --version loads only the launcher and prints what commander prints', () => {
    for (const flag of ['--version', '-V']) {
      const r = traced([flag]);
      expect(r.code).toBe(0);
      expect(librariesIn(r.files)).toEqual([]);
      // The launcher's own few modules (the daemon client), not the CLI's core chunk.
      expect(r.files.filter((f) => f.startsWith(CHUNKS)).length).toBeLessThan(6);
      // The same words through commander (a global option before it makes commander answer).
      const viaCommander = traced(['--json', flag]);
      expect(viaCommander.code).toBe(0);
      expect(librariesIn(viaCommander.files)).toContain('commander');
      expect(r.stdout).toBe(viaCommander.stdout);
      expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
    }
  });

  it('the commands that need those libraries do load them (the trace sees them)', () => {
    expect(librariesIn(traced(['component', 'detect', '--help']).files)).toContain('commander');
    const detect = traced(['-c', manifest, 'component', 'detect', '--json']);
    expect(detect.code, detect.stderr).toBe(0);
    expect(librariesIn(detect.files)).toContain('TOML parser (marker readers)');
  });
});
