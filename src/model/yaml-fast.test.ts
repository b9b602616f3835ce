import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateWorkspace } from '../../bench/lib/generate.mjs';
import { createDemo } from '../../examples/demo-workspace.mjs';
import { createTempDir } from '../../test/fixtures/workspace-builder.js';
import { importRepoManifestXml } from '../workspace/index.js';
import { parseManifestText } from './manifest-file.js';
import { fastYamlValue } from './yaml-fast.js';
import { yaml } from './yaml-lib.js';
import { parseYamlSource, YAML_LIMITS, yamlToJs } from './yaml-source.js';

/** The Document path's answer: the value, or the rule it refuses the text with. */
function documentRead(text: string): { value: unknown } | { refused: string } {
  try {
    return { value: yamlToJs(parseYamlSource(text, 'x.yml', 'test'), 'test') };
  } catch (err) {
    return { refused: String((err as { details?: { rule?: string } }).details?.rule ?? 'error') };
  }
}

/** The fast reader may decline anything, but what it reads must be what the Document path reads. */
function agree(text: string): void {
  const fast = fastYamlValue(text, YAML_LIMITS);
  if (!fast) return;
  const doc = documentRead(text);
  expect(doc, text).toEqual({ value: fast.value });
}

// Scalars that the YAML 1.1 and 1.2 schemas (and the two parsers) could type differently.
const TRICKY = [
  'yes',
  'no',
  'on',
  'off',
  'Yes',
  'NO',
  'y',
  'n',
  'true',
  'False',
  'TRUE',
  'null',
  'Null',
  '~',
  '',
  '0o17',
  '017',
  '0x1F',
  '0b101',
  '1_000',
  '+12',
  '-0',
  '1e3',
  '1E400',
  '.5',
  '-.inf',
  '.NaN',
  '1.',
  '12:30',
  '2024-01-02',
  '=',
  '<<',
  '-',
  '?',
  'a: b',
  'a #b',
  "it's",
  '"q"',
  ' lead',
  'trail ',
  'multi\nline',
  'tab\there',
  'ü',
  '€',
  '\u2028',
  '__proto__',
  'constructor',
];

const key = fc.oneof(
  fc.constantFrom(...TRICKY.filter((k) => k !== '')),
  fc.stringMatching(/^[a-z_][a-z0-9_-]{0,8}$/),
);
const scalar = fc.oneof(
  fc.constantFrom(...TRICKY),
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, scalar, tie('list'), tie('map')),
  list: fc.array(tie('node'), { maxLength: 4 }),
  map: fc.dictionary(key, tie('node'), { maxKeys: 4 }),
})).map;

describe('the fast manifest reader', () => {
  it('reads generated documents in every style exactly as the Document path does', () => {
    fc.assert(
      fc.property(
        value,
        fc.record({
          flow: fc.boolean(),
          quote: fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED'),
          indent: fc.integer({ min: 2, max: 4 }),
        }),
        (v, style) => {
          const text = yaml().stringify(v, {
            collectionStyle: style.flow ? 'flow' : 'block',
            defaultStringType: style.quote as 'PLAIN',
            indent: style.indent,
          });
          agree(text);
          // Plain scalars written by hand: the typing of `yes`, `0o17`, `1_000` is the question.
          agree(
            `${Object.keys(v ?? {})
              .map((k) => `${JSON.stringify(k)}: ${k}`)
              .join('\n')}\n`,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads arbitrary YAML-like text the same way or declines it', () => {
    const piece = fc.constantFrom(
      'a: 1\n',
      '- x\n',
      '  - y\n',
      'b:\n',
      '  c: d\n',
      '&anc ',
      '*anc\n',
      '<<: *anc\n',
      '? k\n',
      ': v\n',
      '{a: 1, b: [2]}\n',
      '[x, y]\n',
      '"s\\u0041"\n',
      "'it''s'\n",
      '|\n  line\n',
      '>-\n  fold\n  ed\n',
      '# c\n',
      '---\n',
      '...\n',
      '%YAML 1.1\n',
      '!!str 5\n',
      '!tag x\n',
      'k: yes\n',
      'k: on\n',
      'a: 1\na: 2\n',
      '\t',
      '  ',
      'x: "unterminated\n',
      'z: [1,\n',
      'e: 0o17\n',
      'f: 1_000\n',
      '__proto__: {polluted: 1}\n',
      '1: one\n',
      '~: n\n',
      'k: &a [1, *a]\n',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => agree(parts.join(''))),
      { numRuns: 1000 },
    );
  });

  it('agrees on anchors, merge keys, multi-line strings, quoting and YAML 1.1 booleans', () => {
    const cases = [
      'base: &b {x: 1}\nuse: *b\n',
      'base: &b {x: 1}\nm:\n  <<: *b\n  y: 2\n',
      'l: &l [1, 2]\nm: *l\n',
      'lit: |\n  one\n  two\n\nfold: >\n  one\n  two\nkeep: |+\n  k\n\nstrip: |-\n  s\n',
      'plain: one\n  two\n  three\n',
      'dq: "a\\tb\\n\\u00e9"\nsq: \'a\'\'b\'\nmixed: "x: y # z"\n',
      'b: [yes, no, on, off, y, n, true, false, True, FALSE]\n',
      'n: [0o17, 017, 0x1f, 0b1, 1_000, +1, -0, 1e3, .5, .inf, -.Inf, .nan, 12:30, 2024-01-02]\n',
      'k: v # comment\n# only a comment\n',
      '',
      '# nothing\n',
    ];
    for (const text of cases) agree(text);
    // yes/no/on/off are strings (YAML 1.2 core, the Document path's default): decided in docs/decisions.md.
    expect(fastYamlValue('a: yes\nb: off\n', YAML_LIMITS)).toEqual({ value: { a: 'yes', b: 'off' } });
    // Shapes the fast reader leaves to the Document path (which reports them with lines or types them its way).
    for (const text of ['a: 1\na: 2\n', '%YAML 1.1\n---\na: yes\n', 'a: !!str 5\n', '1: one\n', 'a: [1,\n'])
      expect(fastYamlValue(text, YAML_LIMITS), text).toBeUndefined();
  });

  it('reads generated, demo and imported real manifests as the Document path does', () => {
    const dir = createTempDir('hub-fast-read-');
    const texts: string[] = [];
    const ws = generateWorkspace(join(dir, 'gen'), { repos: 60, components: 10 });
    texts.push(readFileSync(ws.manifestPath, 'utf8'));
    texts.push(readFileSync(createDemo(join(dir, 'demo')).manifestPath, 'utf8'));
    texts.push(readFileSync(join(__dirname, '../../examples/application/.hub.yml'), 'utf8'));
    // The real material in shared data is an AOSP repo manifest (XML): its import, as `hub import` writes it.
    const xml = '/work/shared/data/aosp-platform-manifest.xml';
    let aosp: string | undefined;
    try {
      aosp = readFileSync(xml, 'utf8');
    } catch {
      aosp = undefined;
    }
    if (aosp) {
      const imported = importRepoManifestXml(aosp, { file: xml, name: 'aosp' });
      texts.push(new (yaml().Document)(imported.manifest).toString({ lineWidth: 0 }));
    }
    for (const text of texts) {
      const fast = fastYamlValue(text, YAML_LIMITS);
      expect(fast).toBeDefined();
      agree(text);
      const a = parseManifestText(text, '/x/.hub.yml');
      const b = parseManifestText(text, '/x/.hub.yml', { documentOnly: true });
      expect(a.manifest).toEqual(b.manifest);
      expect(a.legacy).toEqual(b.legacy);
    }
  });

  it('parses the Document of a fast read only when a caller asks for lines', () => {
    const file = parseManifestText('workspace:\n  name: w\n  projects: []\n', '/x/.hub.yml');
    expect(Object.keys(file)).not.toContain('source');
    expect(file.source?.lines.linePos(2).line).toBe(1);
  });
});
