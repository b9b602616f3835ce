// Every figure the README and docs/ state is what the code says, or what a run of the demo gives: a figure that
// drifts from the code fails here. Measurements (times, rates, ratios) live only in bench/README.md, which the
// benches write figures for; the pages here name the bench instead (docs/decisions.md keeps the measurements that
// decided something, as of that day, and docs/commands.md is generated).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { VENDOR_IDS } from '../src/agents/index.js';
import { loadTokenCounter } from '../src/context/index.js';
import { MAP_PAGE_DEFAULT, MAP_PAGE_MAX } from '../src/context/map.js';
import { SNAPSHOT_MAX_FILE_BYTES } from '../src/context/repomix.js';
import {
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENT_DEPTH,
  MAX_INPUT_BYTES,
  MAX_INPUT_DEPTH,
} from '../src/infra/index.js';
import { DEFAULT_MANIFEST_MAX_BYTES, MANIFEST_LIMITS, YAML_LIMITS } from '../src/model/index.js';
import { MAX_NOTES_FILE } from '../src/ops/coord-deps.js';
import { MAX_DOCUMENT_FILE_BYTES } from '../src/state/backends/local.js';
import { BODY_LIMIT, DEFAULT_PORT, DOCUMENT_BODY_LIMIT } from '../src/surfaces/http/index.js';
import { HTTP_TIMEOUTS, MAX_CONNECTIONS, MAX_HEADER_BYTES } from '../src/surfaces/http/limits.js';
import { MAX_MESSAGE_BYTES } from '../src/surfaces/mcp/index.js';
import { GREP_MAX_FILESIZE } from '../src/workspace/index.js';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

const ROOT = join(import.meta.dirname, '..');
const read = (rel: string) => readFileSync(join(ROOT, rel), 'utf8');
const README = read('README.md');
/** The pages held to these rules: README.md and docs/*.md but the decisions log and the generated table. */
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md') && f !== 'decisions.md' && f !== 'commands.md')
    .map((f) => `docs/${f}`),
];

const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];
const word = (n: number) => WORDS[n] ?? String(n);
const thousands = (n: number) => n.toLocaleString('en-US');
const size = (bytes: number) =>
  bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
const seconds = (ms: number) => `${ms / 1000} s`;

/** Text outside fenced blocks, and the comments of `sh` blocks: a recorded transcript's output is not prose. */
function prose(text: string): Array<{ line: number; text: string }> {
  const out: Array<{ line: number; text: string }> = [];
  let fence: string | undefined;
  text.split('\n').forEach((l, i) => {
    const open = /^\s*```(\w*)/.exec(l);
    if (open) {
      fence = fence === undefined ? open[1]! : undefined;
      return;
    }
    if (fence === undefined) out.push({ line: i + 1, text: l });
    else if (fence === 'sh' && l.includes('#')) out.push({ line: i + 1, text: l.slice(l.indexOf('#')) });
  });
  return out;
}

describe('figures in README.md and docs/', () => {
  it('state no measurement (times, rates, ratios, shares): those are bench output, kept in bench/README.md', () => {
    const measured = [/\b\d[\d,.]*\s?ms\b/, /req\/s/, /\b\d+(?:\.\d+)?x\b/, /\d\s?%/, /\bload average\b/];
    const found: string[] = [];
    for (const page of PAGES)
      read(page)
        .split('\n')
        .forEach((l, i) => {
          if (measured.some((re) => re.test(l))) found.push(`${page}:${i + 1}: ${l.trim()}`);
        });
    expect(found).toEqual([]);
  });

  it('state token counts only where this file checks them against the code', () => {
    const checked = new Set([
      'README.md: ~100-400 tokens',
      'docs/context.md: ~350 tokens',
      'docs/context.md: 250-600 tokens',
      'docs/security.md: 3,000,000 tokens',
    ]);
    const found: string[] = [];
    for (const page of PAGES)
      for (const { text } of prose(read(page)))
        for (const m of text.matchAll(/~?\d[\d,]*(?:-\d[\d,]*)? tokens/g)) found.push(`${page}: ${m[0]}`);
    expect(found.filter((f) => !checked.has(f))).toEqual([]);
  });

  it('README: the Node version, the port, the archetypes, the vendors, the daemon and the manifest size', () => {
    const pkg = JSON.parse(read('package.json'));
    expect(pkg.engines.node).toBe('>=20.19');
    expect(README).toContain('Node.js 20.19+');
    expect(README).toContain(`http://127.0.0.1:${DEFAULT_PORT}/`);
    expect(README).toContain(`hub web serve --port ${DEFAULT_PORT} `);
    const bundled = runHub(['agent', 'list', '--json'], { cwd: demoRoot })
      .json()
      .templates.filter((t: { source: string }) => t.source === 'bundled');
    expect(README).toContain(
      `${word(bundled.length)} bundled archetypes rendered for ${word(VENDOR_IDS.length)} coding-agent vendors`,
    );
    expect(README).toContain(`# the ${word(bundled.length)} archetypes`);
    const help = runHub(['daemon', 'start', '--help']).stdout.replace(/\s+/g, ' ');
    const idle = /without a command \(default (\d+)\)/.exec(help)?.[1];
    expect(idle).toBeDefined();
    expect(README).toContain(`stops by itself after ${idle} idle minutes`);
    expect(README).toContain(`The manifest is read up to ${size(DEFAULT_MANIFEST_MAX_BYTES)}`);
    expect(README).toContain('`33554432` for 32 MiB');
    expect(33554432).toBe(32 * 1024 * 1024);
  });

  it('tier-0 and tier-1 packs of the demo are the sizes README and docs/context.md give', async () => {
    const context = read('docs/context.md');
    expect(README).toContain(`~100-400 tokens, paged by ${MAP_PAGE_DEFAULT} repos`);
    expect(context).toContain(
      `A page holds ${MAP_PAGE_DEFAULT} repositories\n  by default (\`--max-map-repos\`, up to ${thousands(MAP_PAGE_MAX)})`,
    );
    const tier0 = runHub(['context', 'pack', '--tier', '0', '--json'], { cwd: demoRoot }).json();
    expect(tier0.token_estimate).toBeGreaterThanOrEqual(100);
    expect(tier0.token_estimate).toBeLessThanOrEqual(400);
    const about = Number(/On the demo workspace it is\n {2}~(\d+) tokens/.exec(context)?.[1]);
    expect(Math.abs(tier0.token_estimate - about) / about).toBeLessThanOrEqual(0.1);
    const tier1 = runHub(['context', 'pack', '--tier', '1', '--json'], { cwd: demoRoot }).json();
    const counter = await loadTokenCounter();
    const cards = tier1.cards.map((c: { exists: boolean }) => ({
      exists: c.exists,
      tokens: counter.count(JSON.stringify(c)),
    }));
    const [, low, high, missing] =
      /demo repositories are about (\d+)-(\d+) tokens; a repository that is not cloned is ~(\d+)/
        .exec(context.replace(/\s+/g, ' '))!
        .map(Number);
    const present = cards
      .filter((c: { exists: boolean }) => c.exists)
      .map((c: { tokens: number }) => c.tokens);
    // Cards carry absolute paths, so their size moves a little with where the demo lies: "about", within a tenth.
    expect(Math.min(...present)).toBeGreaterThanOrEqual(low! * 0.9);
    expect(Math.max(...present)).toBeLessThanOrEqual(high! * 1.1);
    for (const c of cards.filter((x: { exists: boolean }) => !x.exists))
      expect(Math.abs(c.tokens - missing!) / missing!).toBeLessThanOrEqual(0.1);
  });

  it('the demo scores what docs/context.md says', () => {
    const summary = runHub(['workspace', 'summary', '--json'], { cwd: demoRoot }).json();
    expect(read('docs/context.md')).toContain(
      `The demo workspace scores ${summary.score} (${summary.grade}).`,
    );
  });

  it("docs/security.md's limits table is the code's", () => {
    const table = new Map(
      [...read('docs/security.md').matchAll(/^\| ([^|]+?) \| ([^|]+?) \|$/gm)].map((m) => [m[1], m[2]]),
    );
    expect(table.get('operation input')).toBe(
      `${MAX_INPUT_DEPTH} levels, ${size(MAX_INPUT_BYTES)} of JSON (HTTP body ${size(BODY_LIMIT)})`,
    );
    expect(table.get('stored document')).toBe(
      `${MAX_DOCUMENT_DEPTH} levels, ${size(MAX_DOCUMENT_BYTES)} (HTTP body ${size(DOCUMENT_BODY_LIMIT)}); a document file is read up to ${size(MAX_DOCUMENT_FILE_BYTES)}`,
    );
    expect(table.get('notes file')).toBe(`${size(MAX_NOTES_FILE)}, regular file`);
    expect(table.get('manifest')).toBe(
      `${size(YAML_LIMITS.maxBytes)}, ${thousands(YAML_LIMITS.maxTokens)} tokens, ${thousands(YAML_LIMITS.maxNodes)} nodes, ` +
        `${thousands(YAML_LIMITS.maxItems)} entries per list/map, nesting ${YAML_LIMITS.maxNodeDepth}, ${YAML_LIMITS.maxAliasCount} aliases`,
    );
    expect(table.get('manifest graph')).toBe(
      `${thousands(MANIFEST_LIMITS.maxComponentsPerRepo)} components per repository, ${thousands(MANIFEST_LIMITS.maxDependsOn)} ` +
        `\`depends_on\` per component, ${thousands(MANIFEST_LIMITS.maxDependsOnTotal)} in the file`,
    );
    expect(table.get('repomix / built-in grep / ignore files / README head')).toMatch(
      new RegExp(`^${SNAPSHOT_MAX_FILE_BYTES / 1024} KB / ${size(GREP_MAX_FILESIZE)} / `),
    );
    const t = HTTP_TIMEOUTS;
    expect(table.get('HTTP')).toBe(
      `request ${seconds(t.requestMs)}, headers ${seconds(t.headersMs)}, keep-alive ${seconds(t.keepAliveMs)}, idle socket ` +
        `${seconds(t.idleMs)}, ${thousands(MAX_CONNECTIONS)} connections, headers ${size(MAX_HEADER_BYTES)}`,
    );
    expect(table.get('MCP message')).toBe(size(MAX_MESSAGE_BYTES));
  });
});

let tmp: string;
let demoRoot: string;
beforeAll(() => {
  tmp = createTempDir('hub-figures-');
  demoRoot = createDemo(join(tmp, 'demo')).root;
});
afterAll(() => removeTempDir(tmp));
