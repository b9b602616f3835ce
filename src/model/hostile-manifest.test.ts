import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../infra/index.js';
import { readManifestFile } from './manifest-file.js';
import { MANIFEST_LIMITS } from './manifest-limits.js';
import { parseYamlSource, YAML_LIMITS } from './yaml-source.js';

// Every input is a real file read through readManifestFile, the path the CLI takes on a cache miss.
// None of these tests measures time; each input is sized so that a bounded implementation answers at once.

let dir: string;
let seq = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hub-hostile-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(content: string | Uint8Array): string {
  const path = join(dir, `m${++seq}.hub.yml`);
  writeFileSync(path, content);
  return path;
}

/** Reads the file and returns the ValidationError it must raise. */
function reject(content: string | Uint8Array): ValidationError {
  const path = write(content);
  try {
    readManifestFile(path);
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    const e = err as ValidationError;
    expect(e.code).toBe('validation');
    expect(e.message).toContain(path);
    expect(e.message).not.toMatch(/\n\s+at /);
    return e;
  }
  throw new Error(`expected a ValidationError for ${path}`);
}

const issuesOf = (e: ValidationError) =>
  (e.details?.issues ?? []) as Array<{ path: string; line?: number; message: string; rule: string }>;

/** `depth` block mappings, one key per line, each indented one column deeper than its parent. */
function blockNesting(depth: number, indent = 1): string {
  let s = '';
  for (let i = 0; i < depth; i++) s += `${' '.repeat(i * indent)}a:\n`;
  return `${s}${' '.repeat(depth * indent)}x\n`;
}

const VALID = `workspace:
  name: demo
  projects:
    - name: platform
      repos:
        - name: api
          path: platform/api
`;

describe('syntax errors', () => {
  it('names the line of an unclosed flow collection', () => {
    const e = reject(`workspace:\n  name: demo\n  projects: [\n    {name: a,\n\nother: 1\n`);
    expect(e.message).toMatch(/line \d+/);
    expect(e.details?.rule).toBe('syntax');
    const lines = issuesOf(e).map((i) => i.line);
    expect(lines.some((l) => l !== undefined && l >= 3 && l <= 6)).toBe(true);
  });

  it('names the line of bad indentation', () => {
    const e = reject(`workspace:\n  name: demo\n  projects:\n    - name: a\n   repos: []\n`);
    expect(e.message).toContain('line 5');
  });

  it('names the line of a tab used for indentation', () => {
    const e = reject(`workspace:\n  name: demo\n\tprojects: []\n`);
    expect(e.message).toContain('line 3');
  });

  it('refuses a second document', () => {
    const e = reject(`workspace:\n  name: a\n---\nworkspace:\n  name: b\n`);
    expect(e.message).toMatch(/line \d+/);
  });

  it('names the line and key of a duplicate key', () => {
    const e = reject(`workspace:\n  name: a\n  description: x\n  name: b\n`);
    expect(e.message).toContain('line 4');
    expect(e.message).toContain("duplicate key 'name'");
    expect(issuesOf(e)[0]).toMatchObject({ path: 'workspace.name', line: 4, rule: 'duplicate_key' });
  });

  it('finds a duplicate key deep inside a sequence', () => {
    const e = reject(`${VALID}          path: again\n`);
    expect(e.message).toContain('line 8');
    expect(issuesOf(e)[0]!.path).toBe('workspace.projects[0].repos[0].path');
  });

  it('checks many distinct keys without comparing each with all others', () => {
    // The parser's own pairwise check took seconds at 20,000 keys and grew with the square of the count.
    const tags = Array.from({ length: 20_000 }, (_, i) => `        t${i}: v\n`).join('');
    const ok = write(`workspace:\n  projects:\n    - name: p\n      tags:\n${tags}`);
    const tagsOut = readManifestFile(ok).manifest.workspace?.projects?.[0]?.tags as Record<string, string>;
    expect(Object.keys(tagsOut)).toHaveLength(20_000);
    const e = reject(`workspace:\n  projects:\n    - name: p\n      tags:\n${tags}        t7: again\n`);
    expect(e.message).toContain(`line ${20_000 + 5}`);
  });
});

describe('resource exhaustion', () => {
  it('refuses a billion-laughs alias bomb', () => {
    const names = 'abcdefghi'.split('');
    const lines = names.map((n, i) => {
      const item = i === 0 ? 'lol' : `*${names[i - 1]}`;
      return `${n}: &${n} [${Array(9).fill(item).join(', ')}]`;
    });
    const e = reject(`${lines.join('\n')}\n`);
    expect(e.details?.rule).toBe('alias_bomb');
    expect(e.message).toMatch(/alias/i);
    expect(e.message).toContain('line 2');
  });

  it('refuses a file above the size limit and names the limit', () => {
    const e = reject(`workspace:\n  description: ${'x'.repeat(10 * 1024 * 1024)}\n`);
    expect(e.details?.rule).toBe('max_size');
    expect(e.message).toContain(`the limit is ${YAML_LIMITS.maxBytes / 1_048_576} MiB`);
  });

  it('accepts one long line just under the size limit', () => {
    const long = 'x'.repeat(YAML_LIMITS.maxBytes - 1024);
    const path = write(`workspace:\n  name: big\n  description: ${long}\n`);
    expect(readManifestFile(path).manifest.workspace?.description).toHaveLength(long.length);
  });

  it('refuses 10,000-deep flow nesting with a line number', () => {
    const e = reject(`workspace:\n  name: deep\nx: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`);
    expect(e.details?.rule).toBe('max_depth');
    expect(e.message).toContain('line 3');
  });

  it('refuses deep block nesting by indentation at the first line past the limit', () => {
    // 10,000 levels by indentation need ~50 MB and meet the size limit first; 1,000 fit in 0.5 MB.
    const e = reject(blockNesting(1_000));
    expect(e.details?.rule).toBe('max_depth');
    expect(e.message).toContain(`line ${YAML_LIMITS.maxNodeDepth + 1}`);
  });

  it('refuses 10,000-deep compact block sequences on one line', () => {
    const e = reject(`workspace:\n  name: x\nx: ${'- '.repeat(10_000)}x\n`);
    expect(e.details?.rule).toBe('max_depth');
    expect(e.message).toContain('line 3');
    expect(reject(`${'- '.repeat(10_000)}x\n`).message).toContain('line 1');
    expect(reject(`${'? '.repeat(10_000)}x\n`).details?.rule).toBe('max_depth');
  });

  it('refuses deep block sequences one per line', () => {
    const text = Array.from({ length: 1_000 }, (_, i) => `${' '.repeat(i)}-\n`).join('');
    const e = reject(`${text}${' '.repeat(1_000)}x\n`);
    expect(e.details?.rule).toBe('max_depth');
    expect(e.message).toContain(`line ${YAML_LIMITS.maxNodeDepth + 1}`);
  });

  it('is not fooled by quote or comment characters hiding brackets', () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    expect(reject(`x: [a#b, ${deep}]\n`).details?.rule).toBe('max_depth');
    expect(reject(`x: [a'b, ${deep}]\n`).details?.rule).toBe('max_depth');
    expect(reject(`x: [it's, ${deep}]\n`).details?.rule).toBe('max_depth');
    expect(reject(`x: ${'["]", '.repeat(10_000)}1${']'.repeat(10_000)}\n`).details?.rule).toBe('max_depth');
  });

  it('is not fooled by block scalars between levels', () => {
    let map = '';
    for (let i = 0; i < 200; i++)
      map += `${' '.repeat(i)}t${i}: |\n${' '.repeat(i + 2)}text\n${' '.repeat(i)}a${i}:\n`;
    expect(reject(map).details?.rule).toBe('max_depth');
    let seq = '';
    for (let i = 0; i < 200; i++) seq += `${' '.repeat(i)}- |\n${' '.repeat(i + 2)}text\n${' '.repeat(i)}-\n`;
    expect(reject(seq).details?.rule).toBe('max_depth');
  });

  it('refuses a document with too many tokens before building it', () => {
    const n = YAML_LIMITS.maxTokens;
    // Many lists, each within the entry limit: a token is a comma here, so nodes stay under their limit too.
    const row = `[${','.repeat(YAML_LIMITS.maxItems - 2)}]`;
    const rows = Array.from({ length: Math.ceil(n / YAML_LIMITS.maxItems) + 1 }, (_, i) => `x${i}: ${row}`);
    const wide = reject(`workspace:\n  name: wide\n${rows.join('\n')}\n`);
    expect(wide.details?.rule).toBe('max_tokens');
    expect(wide.message).toMatch(/line \d+/);
    expect(reject(`x: 1${'\n'.repeat(n)}`).details?.rule).toBe('max_tokens');
  });

  it('refuses a list or map with more entries than the limit, naming its line, and takes one at the limit', () => {
    const n = YAML_LIMITS.maxItems;
    const flow = (k: number) => `workspace:\n  name: w\nx: [${'a,'.repeat(k - 1)}a]\n`;
    const e = reject(flow(n + 1));
    expect(e.details).toMatchObject({ rule: 'max_items', line: 3, limit: n });
    expect(e.message).toContain(`more than ${n} entries`);
    expect(() => parseYamlSource(flow(n), 'm.yml', 'manifest')).not.toThrow();
    const seq = (k: number) => `a: 1\nlist:\n${'  - a\n'.repeat(k)}`;
    expect(reject(seq(n + 1)).details).toMatchObject({ rule: 'max_items', line: 3 });
    expect(() => parseYamlSource(seq(n), 'm.yml', 'manifest')).not.toThrow();
    const map = (k: number) => `tags:\n${Array.from({ length: k }, (_, i) => `  k${i}: v`).join('\n')}\n`;
    expect(reject(map(n + 1)).details).toMatchObject({ rule: 'max_items', line: 2 });
    // Entries of nested lists count for their own list, not for the list around them.
    const nested = `list:\n${'  - [a, b]\n'.repeat(n / 2)}`;
    expect(() => parseYamlSource(nested, 'm.yml', 'manifest')).not.toThrow();
  });

  it('refuses more YAML nodes than the limit before building them', () => {
    const perList = YAML_LIMITS.maxItems - 1;
    const lists = Math.ceil(YAML_LIMITS.maxNodes / perList) + 1;
    const rows = Array.from({ length: lists }, (_, i) => `x${i}: [${'a,'.repeat(perList - 1)}a]`);
    const e = reject(`${rows.join('\n')}\n`);
    expect(e.details).toMatchObject({ rule: 'max_nodes', limit: YAML_LIMITS.maxNodes });
    expect(e.message).toMatch(/line \d+: more than 1000000 YAML nodes/);
  });

  it('accepts nesting up to the limit and refuses one level more', () => {
    const at = (depth: number) => () => parseYamlSource(blockNesting(depth, 2), 'm.yml', 'manifest');
    expect(at(YAML_LIMITS.maxNodeDepth - 1)).not.toThrow();
    expect(at(YAML_LIMITS.maxNodeDepth + 1)).toThrow(ValidationError);
    const flow = (depth: number) => () =>
      parseYamlSource(`x: ${'['.repeat(depth)}${']'.repeat(depth)}\n`, 'm.yml', 'manifest');
    expect(flow(YAML_LIMITS.maxNodeDepth - 2)).not.toThrow();
    expect(flow(YAML_LIMITS.maxNodeDepth + 1)).toThrow(/nested deeper/);
  });

  it('does not count sibling block scalars as nesting', () => {
    const items = '  - |\n    text\n  - >-\n    more\n\n'.repeat(200);
    expect(() => parseYamlSource(`list:\n${items}`, 'm.yml', 'manifest')).not.toThrow();
  });

  it('accepts an ordinary manifest with comments, block scalars, anchors and flow lists', () => {
    const text = `# demo
workspace:
  name: demo  # trailing comment with [brackets and 'quotes
  description: >
    folded text with - dashes: and [brackets
      and deeper lines
  agent_instructions: |
    - a list inside text
      - deeper
        - deeper still
  projects:
    - name: platform
      tags: [a, b, "c]d", 'e[f']
      repos:
        - &api
          name: api
          path: platform/api
          components:
            - {name: svc, path: svc, depends_on: [lib]}
            - name: lib
              path: lib
        - name: web
          path: "platform/web # not a comment"
`;
    const file = readManifestFile(write(text));
    const repos = file.manifest.workspace?.projects?.[0]?.repos ?? [];
    expect(repos.map((r) => r.name)).toEqual(['api', 'web']);
    expect(repos[1]!.path).toBe('platform/web # not a comment');
  });
});

describe('wrong types', () => {
  const cases: Array<[string, string, string, number]> = [
    ['workspace is a number', 'workspace: 5\n', 'workspace', 1],
    ['projects is a mapping', 'workspace:\n  name: w\n  projects: {}\n', 'workspace.projects', 3],
    [
      'repos are numbers',
      'workspace:\n  projects:\n    - name: p\n      repos: [1, 2]\n',
      'workspace.projects[0].repos[0]',
      4,
    ],
    ['a name with a slash', 'workspace:\n  projects:\n    - name: a/b\n', 'workspace.projects[0].name', 3],
    [
      'an unknown key',
      'workspace:\n  projects:\n    - name: p\n      repoz: []\n',
      'workspace.projects[0].repoz',
      4,
    ],
  ];
  for (const [what, text, path, line] of cases) {
    it(`names the YAML path and line when ${what}`, () => {
      const e = reject(text);
      expect(e.message).toContain(`line ${line}`);
      expect(e.message).toContain(path);
      expect(issuesOf(e)[0]).toMatchObject({ path, line });
    });
  }

  it('lists every wrong field, not only the first', () => {
    const e = reject('workspace:\n  name: 5\n  projects:\n    - name: a/b\n      repos: [1]\n');
    expect(issuesOf(e).length).toBeGreaterThanOrEqual(3);
    expect(e.message).toMatch(/and \d+ more/);
  });
});

describe('encoding and shape', () => {
  it('names the line of the first byte that is not UTF-8', () => {
    const head = Buffer.from('# café\nworkspace:\n  name: é\n  description: ok\n  agent_instructions: "');
    const e = reject(Buffer.concat([head, Buffer.from([0xff, 0xfe]), Buffer.from('"\n')]));
    expect(e.details?.rule).toBe('utf8');
    expect(e.message).toContain('line 5');
  });

  it('names the right line after many multi-byte characters', () => {
    const e = reject(
      Buffer.concat([Buffer.from('# é\n'.repeat(50)), Buffer.from('x: '), Buffer.from([0xff, 0x0a])]),
    );
    expect(e.message).toContain('line 51');
  });

  it('names the line of a truncated sequence at the end of the file', () => {
    const e = reject(Buffer.concat([Buffer.from('a: é\nb: ü\nc: '), Buffer.from([0xc3])]));
    expect(e.message).toContain('line 3');
  });

  it('refuses UTF-16 on line 1', () => {
    const e = reject(Buffer.from('\ufeffworkspace: {}\n', 'utf16le'));
    expect(e.details?.rule).toBe('utf8');
    expect(e.message).toContain('line 1');
  });

  it('refuses a file that is a single scalar or a list', () => {
    for (const text of ['just a string\n', '42\n', '- a\n- b\n']) {
      const e = reject(text);
      expect(e.message).toContain('line 1');
      expect(e.message).toContain('must be a YAML mapping');
    }
  });

  it('reads an empty or comment-only file as an empty manifest', () => {
    // A deliberate choice of parseManifestText (`?? {}`): an empty .hub.yml is an empty workspace.
    for (const text of ['', '\n\n', '# nothing yet\n']) {
      expect(readManifestFile(write(text)).manifest).toEqual({});
    }
  });

  it('accepts a byte-order mark and keeps line numbers right after it', () => {
    expect(readManifestFile(write(`\ufeff${VALID}`)).manifest.workspace?.name).toBe('demo');
    const e = reject(`\ufeffworkspace:\n  name: a\n  name: b\n`);
    expect(e.message).toContain('line 3');
  });
});

describe('manifest limits', () => {
  const repo = (components: string) =>
    `workspace:\n  name: w\n  projects:\n    - name: p\n      repos:\n        - name: r\n          path: r\n          components:\n${components}`;
  const comp = (i: number, deps: string[] = []) =>
    `            - name: c${i}\n              path: c${i}\n${deps.length ? `              depends_on: [${deps.join(', ')}]\n` : ''}`;
  const comps = (n: number, deps: (i: number) => string[] = () => []) =>
    Array.from({ length: n }, (_, i) => comp(i, deps(i))).join('');

  it('refuses more components in one repository than the limit, naming the line, and takes the limit', () => {
    const n = MANIFEST_LIMITS.maxComponentsPerRepo;
    const e = reject(repo(comps(n + 1)));
    expect(e.message).toContain('line 9');
    expect(e.message).toContain(`limit ${n}`);
    expect(e.details?.issues).toMatchObject([{ rule: 'max_components_per_repo', line: 9 }]);
    expect(() => readManifestFile(write(repo(comps(n))))).not.toThrow();
  });

  it('refuses a component with more depends_on entries than the limit, naming its line', () => {
    const n = MANIFEST_LIMITS.maxDependsOn;
    const many = (k: number) => Array.from({ length: k }, (_, j) => `c${j + 1}`);
    const e = reject(repo(comps(n + 2, (i) => (i === 0 ? many(n + 1) : []))));
    expect(e.details?.issues).toMatchObject([
      { rule: 'max_depends_on', line: 11, path: 'workspace.projects[0].repos[0].components[0].depends_on' },
    ]);
    expect(() => readManifestFile(write(repo(comps(n + 1, (i) => (i === 0 ? many(n) : [])))))).not.toThrow();
  });

  it('refuses more depends_on entries in the manifest than the limit (every component on all others)', () => {
    // 700 x 699 entries: the issue's 45-second manifest.
    const n = 700;
    const all = (i: number) => Array.from({ length: n }, (_, j) => `c${j}`).filter((_, j) => j !== i);
    const e = reject(repo(comps(n, all)));
    // Counted in the lexer pass: refused before the 490,000 entries are parsed.
    expect(e.details).toMatchObject({
      rule: 'max_depends_on_total',
      limit: MANIFEST_LIMITS.maxDependsOnTotal,
    });
    expect(e.message).toContain(`limit ${MANIFEST_LIMITS.maxDependsOnTotal}`);
    expect(e.message).toMatch(/line \d+/);
  });

  it('counts block-style depends_on lists in the lexer pass too, and nothing else', () => {
    const block = (i: number, k: number) =>
      `            - name: c${i}\n              path: c${i}\n              depends_on:\n${'                - c0\n'.repeat(k)}`;
    const k = MANIFEST_LIMITS.maxDependsOn;
    const over = Math.floor(MANIFEST_LIMITS.maxDependsOnTotal / k) + 1;
    const e = reject(repo(Array.from({ length: over }, (_, i) => block(i, k)).join('')));
    expect(e.details).toMatchObject({ rule: 'max_depends_on_total' });
    // Other keys' lists, and depends_on lists under the total, pass the lexer pass.
    const other = `${repo(comp(0, ['c1']) + comp(1))}graph:\n  nodes: [${'a,'.repeat(1000)}a]\n`;
    expect(() =>
      parseYamlSource(other, 'm.yml', 'manifest', {
        keyedEntries: { depends_on: { total: 1, rule: 'max_depends_on_total' } },
      }),
    ).not.toThrow();
  });
});
