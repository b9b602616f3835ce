import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, git, makeGitRepo, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'atlas');
const GENERATED = ['inventory', 'symbols', 'verifications', 'manifests'].map(
  (f) => `.atlas/generated/${f}.yaml`,
);

let tmp: string;
beforeAll(() => {
  tmp = createTempDir('hub-atlas-');
});
afterAll(() => removeTempDir(tmp));

/** A git repository holding the four-language fixtures, committed, with no .hub.yml anywhere above. */
function fixtureRepo(name: string): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  cpSync(FIXTURES, dir, { recursive: true });
  makeGitRepo(dir);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'fixtures']);
  return dir;
}

const hub = (cwd: string, ...args: string[]) => runHub([...args, '--json'], { cwd });
const read = (dir: string, rel: string) => readFileSync(join(dir, rel), 'utf8');

const CONCEPTS = `apiVersion: atlas.hub.dev/v1alpha1
entities:
  - apiVersion: atlas.hub.dev/v1alpha1
    kind: Concept
    metadata:
      id: concept:tokenizing
      name: Tokenizing
      provenance: { source: curated }
    spec: { summary: Splitting text into tokens. }
`;
const MAPPINGS = `apiVersion: atlas.hub.dev/v1alpha1
mappings:
  - { from: concept:tokenizing, relation: implements, to: symbol:ts.src.parser.ts.parse }
  - { from: concept:tokenizing, relation: verified_by, to: "verification:ts.test.parser.test.ts.parser.splits_words" }
`;

describe('hub atlas init, generate and status in a folder without a manifest', () => {
  let repo: string;
  beforeAll(() => {
    repo = fixtureRepo('init');
  });

  it('init lays out .atlas/ and generate fills generated/ with every symbol and test at its line', () => {
    const init = hub(repo, 'atlas', 'init', '--generate');
    expect(init.code, init.stderr).toBe(0);
    const r = init.json();
    expect(r.created).toContain('.atlas/atlas.yaml');
    expect(r.created).toContain('.atlas/intent/contracts/');
    expect(r.generated).toMatchObject({ symbols: 38, verifications: 11, files: 13 });
    expect(r.generated.languages).toEqual({
      go: 2,
      javascript: 1,
      python: 3,
      rust: 1,
      tsx: 1,
      typescript: 2,
    });
    for (const f of GENERATED) expect(existsSync(join(repo, f)), f).toBe(true);
    expect(read(repo, '.atlas/atlas.yaml')).toContain('generated: fresh');
    expect(read(repo, '.atlas/.gitignore')).toContain('index/');
    const q = hub(repo, 'atlas', 'query', 'Symbol[name="Start"]');
    expect(q.json().entities).toEqual([
      expect.objectContaining({
        id: 'symbol:go.server.server.go.Server.Start',
        file: 'go/server/server.go',
        line: 32,
      }),
    ]);
  });

  it('init again keeps every file and rewrites none', () => {
    writeFileSync(join(repo, '.atlas/ontology/concepts.yaml'), CONCEPTS);
    const again = hub(repo, 'atlas', 'init');
    expect(again.code).toBe(0);
    expect(again.json().created).toEqual([]);
    expect(read(repo, '.atlas/ontology/concepts.yaml')).toBe(CONCEPTS);
  });

  it('writes the same bytes on every run and in another clone of the commit (times from HEAD)', () => {
    const before = GENERATED.map((f) => read(repo, f));
    expect(hub(repo, 'atlas', 'generate').code).toBe(0);
    expect(GENERATED.map((f) => read(repo, f))).toEqual(before);
    const head = git(repo, ['log', '-1', '--format=%cI']);
    expect(read(repo, '.atlas/generated/symbols.yaml')).toContain(
      `updatedAt: ${new Date(head).toISOString()}`,
    );
    const clone = join(tmp, 'clone');
    git(tmp, ['clone', '-q', repo, clone]);
    cpSync(join(repo, '.atlas'), join(clone, '.atlas'), { recursive: true });
    rmSync(join(clone, '.atlas/generated'), { recursive: true });
    expect(hub(clone, 'atlas', 'generate').code).toBe(0);
    expect(GENERATED.map((f) => read(clone, f))).toEqual(before);
  });

  it('never writes a curated file', () => {
    writeFileSync(join(repo, '.atlas/mappings/semantic-to-evidence.yaml'), MAPPINGS);
    const curated = [
      'ontology/concepts.yaml',
      'mappings/semantic-to-evidence.yaml',
      'policy/generation.yaml',
    ];
    const before = curated.map((f) => read(repo, `.atlas/${f}`));
    const r = hub(repo, 'atlas', 'generate');
    expect(r.code, r.stderr).toBe(0);
    expect(
      r.json().written.every((w: string) => w.startsWith('.atlas/generated/') || w === '.atlas/atlas.yaml'),
    ).toBe(true);
    expect(curated.map((f) => read(repo, `.atlas/${f}`))).toEqual(before);
  });

  it('status is fresh, then stale naming the changed paths, then missing', () => {
    expect(hub(repo, 'atlas', 'status').json()).toMatchObject({
      atlas: 'present',
      generated: 'fresh',
      invalidation_reason: null,
    });
    writeFileSync(
      join(repo, 'py/pkg/core.py'),
      `${read(repo, 'py/pkg/core.py')}\ndef added():\n    return 1\n`,
    );
    writeFileSync(join(repo, 'py/pkg/new.py'), 'def fresh():\n    return 2\n');
    const stale = hub(repo, 'atlas', 'status').json();
    expect(stale.generated).toBe('stale');
    expect(stale.changes).toMatchObject({ modified: ['py/pkg/core.py'], added: ['py/pkg/new.py'] });
    expect(stale.invalidation_reason).toContain('py/pkg/core.py');
    const human = runHub(['atlas', 'status'], { cwd: repo });
    expect(human.stdout).toContain('generated stale');
  });

  it('refresh regenerates and records the changed paths as the reason', () => {
    const r = hub(repo, 'atlas', 'refresh', 'py/pkg/core.py', 'py/pkg/new.py');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().refreshed).toEqual(['py/pkg/core.py', 'py/pkg/new.py']);
    expect(read(repo, '.atlas/generated/manifests.yaml')).toContain(
      "invalidationReason: 'refreshed after source changes: py/pkg/core.py, py/pkg/new.py'",
    );
    expect(hub(repo, 'atlas', 'status').json()).toMatchObject({
      generated: 'fresh',
      last_reason: expect.stringContaining('py/pkg/new.py'),
    });
    expect(hub(repo, 'atlas', 'query', 'Symbol[name="fresh"]').json().entities[0]).toMatchObject({
      file: 'py/pkg/new.py',
      line: 1,
    });
    // Without paths, refresh records what the status finds.
    writeFileSync(join(repo, 'go/server/extra.go'), 'package server\n\nfunc Extra() {}\n');
    expect(hub(repo, 'atlas', 'refresh').json().refreshed).toEqual(['go/server/extra.go']);
    expect(hub(repo, 'atlas', 'refresh', '../outside.go').code).toBe(1);
  });

  it('a generated file edited by hand makes the status stale and validate warn', () => {
    const f = join(repo, '.atlas/generated/symbols.yaml');
    const text = readFileSync(f, 'utf8');
    writeFileSync(f, `${text}\n`);
    expect(hub(repo, 'atlas', 'status').json().invalidation_reason).toContain(
      'generated/symbols.yaml was changed after generation',
    );
    const v = hub(repo, 'atlas', 'validate');
    expect(v.code).toBe(0);
    expect(v.json().warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ rule: 'content_hash', file: 'generated/symbols.yaml' }),
      ]),
    );
    writeFileSync(f, text);
    rmSync(join(repo, '.atlas/generated/verifications.yaml'));
    expect(hub(repo, 'atlas', 'status').json()).toMatchObject({
      generated: 'missing',
      invalidation_reason: 'generated/verifications.yaml is missing',
    });
    expect(hub(repo, 'atlas', 'generate').code).toBe(0);
  });

  it('status of a folder without .atlas/ says so; other commands name init', () => {
    const bare = makeGitRepo(join(tmp, 'bare'), { 'a.py': 'def a():\n  pass\n' });
    expect(hub(bare, 'atlas', 'status').json()).toMatchObject({ atlas: 'absent', generated: 'missing' });
    for (const cmd of [['generate'], ['validate'], ['query', 'Symbol']]) {
      const r = hub(bare, 'atlas', ...cmd);
      expect(r.code, cmd.join(' ')).toBe(1);
      expect(r.json().error).toMatchObject({
        code: 'not_found',
        message: expect.stringContaining('hub atlas init'),
      });
    }
    expect(hub(tmp, 'atlas', 'status', '--path', 'nope').json().error.code).toBe('not_found');
  });
});

describe('hub atlas query', () => {
  let repo: string;
  beforeAll(() => {
    repo = fixtureRepo('query');
    expect(hub(repo, 'atlas', 'init').code).toBe(0);
    writeFileSync(join(repo, '.atlas/ontology/concepts.yaml'), CONCEPTS);
    writeFileSync(join(repo, '.atlas/mappings/semantic-to-evidence.yaml'), MAPPINGS);
    expect(hub(repo, 'atlas', 'generate').code).toBe(0);
  });

  it('answers a bare id and Kind[id=...] with the one-hop relations both ways', () => {
    const concept = hub(repo, 'atlas', 'query', 'concept:tokenizing').json();
    expect(concept).toMatchObject({ ok: true, total: 1, index: 'fresh' });
    expect(concept.entities[0].related).toEqual([
      expect.objectContaining({
        relation: 'implements',
        direction: 'out',
        id: 'symbol:ts.src.parser.ts.parse',
        entity: expect.objectContaining({ line: 15 }),
      }),
      expect.objectContaining({
        relation: 'verified_by',
        direction: 'out',
        id: 'verification:ts.test.parser.test.ts.parser.splits_words',
      }),
    ]);
    const sym = hub(repo, 'atlas', 'query', 'Symbol[id="symbol:ts.src.parser.ts.parse"]').json();
    expect(sym.entities[0]).toMatchObject({
      kind: 'Symbol',
      name: 'parse',
      file: 'ts/src/parser.ts',
      line: 15,
    });
    expect(sym.entities[0].related).toEqual([
      expect.objectContaining({ relation: 'implements', direction: 'in', id: 'concept:tokenizing' }),
    ]);
  });

  it('refuses a kind that does not match the id, and an unknown id, with ok false and exit 1', () => {
    const wrong = hub(repo, 'atlas', 'query', 'Concept[id="symbol:ts.src.parser.ts.parse"]');
    expect(wrong.code).toBe(1);
    expect(wrong.json()).toMatchObject({
      ok: false,
      reason: expect.stringContaining('is a Symbol, not a Concept'),
    });
    const unknown = hub(repo, 'atlas', 'query', 'symbol:ts.src.parser.ts.pars');
    expect(unknown.code).toBe(1);
    expect(unknown.json().suggestions).toContain('symbol:ts.src.parser.ts.parse');
    const kind = hub(repo, 'atlas', 'query', 'Symbl');
    expect(kind.json()).toMatchObject({ ok: false, suggestions: ['Symbol'] });
  });

  it('lists a kind, by name and by folder, with a limit', () => {
    const tests = hub(repo, 'atlas', 'query', 'Verification[file="rust"]').json();
    expect(tests.entities.map((e: { name: string; line: number }) => [e.name, e.line])).toEqual([
      ['tests::loads', 51],
      ['tests::renders', 56],
    ]);
    const page = hub(repo, 'atlas', 'query', 'Symbol', '--limit', '2').json();
    expect(page).toMatchObject({ total: 38, truncated: true });
    expect(page.entities).toHaveLength(2);
  });

  it('rejects a malformed expression naming the forms it accepts', () => {
    const r = hub(repo, 'atlas', 'query', 'Symbol[id=x');
    expect(r.code).toBe(1);
    expect(r.json().error).toMatchObject({
      code: 'validation',
      details: { field: 'expr', rule: 'query_syntax' },
    });
    expect(r.json().error.message).toContain('Kind[id="x:y"]');
  });

  it('answers from the YAML when the index is missing or stale', () => {
    rmSync(join(repo, '.atlas/index'), { recursive: true });
    expect(hub(repo, 'atlas', 'query', 'concept:tokenizing').json()).toMatchObject({
      ok: true,
      index: 'rebuilt',
    });
    expect(existsSync(join(repo, '.atlas/index')), 'a query never writes').toBe(false);
  });
});

describe('hub atlas validate', () => {
  let repo: string;
  beforeAll(() => {
    repo = fixtureRepo('validate');
    expect(hub(repo, 'atlas', 'init', '--generate').code).toBe(0);
  });

  const expectProblem = (rule: string, file: string) => {
    const r = hub(repo, 'atlas', 'validate');
    expect(r.code, r.stdout).toBe(1);
    expect(r.json().ok).toBe(false);
    expect(r.json().errors).toEqual(expect.arrayContaining([expect.objectContaining({ rule, file })]));
    return r.json();
  };

  it('passes a fresh atlas (exit 0)', () => {
    const r = hub(repo, 'atlas', 'validate');
    expect(r.code, r.stdout).toBe(0);
    expect(r.json()).toMatchObject({ ok: true, errors: [], entities: 49 });
  });

  it('checks each file against its JSON Schema, naming the field and the schema', () => {
    writeFileSync(
      join(repo, '.atlas/ontology/concepts.yaml'),
      CONCEPTS.replace('provenance:', 'lifecycle: dreaming\n      provenance:'),
    );
    const r = expectProblem('schema', 'ontology/concepts.yaml');
    expect(r.errors[0].message).toContain('entities.0.metadata.lifecycle');
    expect(r.errors[0].message).toContain('schemas/atlas/entities.schema.json');
  });

  it('refuses ids whose prefix is not their kind, duplicate ids and relations to nothing', () => {
    writeFileSync(
      join(repo, '.atlas/ontology/concepts.yaml'),
      CONCEPTS.replace('id: concept:tokenizing', 'id: capability:tokenizing'),
    );
    expectProblem('id_kind', 'ontology/concepts.yaml');
    writeFileSync(join(repo, '.atlas/ontology/concepts.yaml'), CONCEPTS);
    writeFileSync(join(repo, '.atlas/intent/decisions/d1.yaml'), CONCEPTS);
    // Files are read in path order: the later one holds the duplicate.
    expectProblem('unique_id', 'ontology/concepts.yaml');
    rmSync(join(repo, '.atlas/intent/decisions/d1.yaml'));
    writeFileSync(
      join(repo, '.atlas/mappings/semantic-to-evidence.yaml'),
      MAPPINGS.replace('parser.ts.parse', 'parser.ts.gone'),
    );
    const r = expectProblem('dangling_reference', 'mappings/semantic-to-evidence.yaml');
    expect(r.errors[0].message).toContain('symbol:ts.src.parser.ts.gone');
    writeFileSync(join(repo, '.atlas/mappings/semantic-to-evidence.yaml'), MAPPINGS);
    expect(hub(repo, 'atlas', 'validate').code).toBe(0);
  });

  it('warns about files the layout does not know', () => {
    writeFileSync(join(repo, '.atlas/notes.yaml'), 'a: 1\n');
    const r = hub(repo, 'atlas', 'validate');
    expect(r.code).toBe(0);
    expect(r.json().warnings).toEqual(
      expect.arrayContaining([expect.objectContaining({ rule: 'unknown_file', file: 'notes.yaml' })]),
    );
    rmSync(join(repo, '.atlas/notes.yaml'));
  });
});

describe('atlas bounds: skipped sources are counted, a hostile .atlas/ is refused', () => {
  it('skips large, binary, vendored and generated files and counts each', () => {
    const repo = makeGitRepo(join(tmp, 'bounds'), {
      'src/ok.py': 'def ok():\n    pass\n',
      'src/big.py': `def big():\n    pass\n${'# padding\n'.repeat(300)}`,
      'src/blob.py': Buffer.from([100, 101, 102, 0, 1, 2]).toString('latin1'),
      'node_modules/dep/index.js': 'export function dep() {}\n',
      'vendor/lib/x.go': 'package lib\nfunc X() {}\n',
      'dist/out.js': 'export function built() {}\n',
      'web/app.min.js': 'export function m(){}\n',
      'skip/me.py': 'def me():\n    pass\n',
    });
    expect(hub(repo, 'atlas', 'init').code).toBe(0);
    writeFileSync(
      join(repo, '.atlas/policy/generation.yaml'),
      'apiVersion: atlas.hub.dev/v1alpha1\nmaxFileBytes: 1000\nexclude: ["skip/**"]\n',
    );
    const r = hub(repo, 'atlas', 'generate');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({
      files: 1,
      symbols: 1,
      skipped: { too_large: 1, binary: 1, vendored: 2, generated: 2, excluded: 1, unreadable: 0 },
    });
    expect(read(repo, '.atlas/generated/inventory.yaml')).toContain('too_large: 1');
  });

  it('refuses a .atlas that is a symbolic link, and writes nothing through one', () => {
    const repo = makeGitRepo(join(tmp, 'linked'), { 'a.py': 'def a():\n  pass\n' });
    const elsewhere = join(tmp, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(repo, '.atlas'));
    for (const cmd of [['init'], ['generate'], ['validate'], ['status'], ['query', 'Symbol']]) {
      const r = hub(repo, 'atlas', ...cmd);
      expect(r.code, cmd.join(' ')).toBe(1);
      expect(r.json().error.details.rule).toBe('no_symlink');
    }
    rmSync(join(repo, '.atlas'));
    expect(hub(repo, 'atlas', 'init').code).toBe(0);
    rmSync(join(repo, '.atlas/generated'), { recursive: true, force: true });
    symlinkSync(elsewhere, join(repo, '.atlas/generated'));
    const gen = hub(repo, 'atlas', 'generate');
    expect(gen.code).toBe(1);
    expect(gen.json().error.code).toBe('refused');
    expect(existsSync(join(elsewhere, 'symbols.yaml'))).toBe(false);
  });

  it('refuses symlinks, deep YAML and huge lists inside .atlas/ cleanly', () => {
    const repo = fixtureRepo('hostile');
    expect(hub(repo, 'atlas', 'init', '--generate').code).toBe(0);
    const secret = join(tmp, 'secret.yaml');
    writeFileSync(secret, 'apiVersion: atlas.hub.dev/v1alpha1\nentities: []\n');
    const concepts = join(repo, '.atlas/ontology/concepts.yaml');
    rmSync(concepts);
    symlinkSync(secret, concepts);
    const linked = hub(repo, 'atlas', 'validate');
    expect(linked.code).toBe(1);
    expect(linked.json().errors[0]).toMatchObject({ file: 'ontology/concepts.yaml', rule: 'no_symlink' });
    const q = hub(repo, 'atlas', 'query', 'Symbol');
    expect(q.code).toBe(1);
    expect(q.json().error).toMatchObject({ code: 'validation', details: { rule: 'no_symlink' } });
    rmSync(concepts);

    writeFileSync(
      concepts,
      `apiVersion: atlas.hub.dev/v1alpha1\nentities: ${'['.repeat(5000)}${']'.repeat(5000)}\n`,
    );
    const deep = hub(repo, 'atlas', 'validate');
    expect(deep.code).toBe(1);
    expect(deep.json().errors[0]).toMatchObject({ file: 'ontology/concepts.yaml', rule: 'max_depth' });
    expect(hub(repo, 'atlas', 'query', 'Symbol').json().error.details.rule).toBe('max_depth');

    writeFileSync(concepts, `apiVersion: atlas.hub.dev/v1alpha1\nentities:\n${'  - 1\n'.repeat(100_001)}`);
    const huge = hub(repo, 'atlas', 'validate');
    expect(huge.code).toBe(1);
    expect(huge.json().errors[0]).toMatchObject({ file: 'ontology/concepts.yaml', rule: 'max_items' });
    expect(huge.stderr).not.toMatch(/at .*\.js:\d+/);

    writeFileSync(concepts, 'a: &a [1]\nb: *a\n'.repeat(1) + `c: [${'*a,'.repeat(200)}*a]\n`);
    const bomb = hub(repo, 'atlas', 'validate');
    expect(bomb.code).toBe(1);
    expect(bomb.json().errors[0].file).toBe('ontology/concepts.yaml');
  });
});

describe('atlas JSON Schemas are shipped', () => {
  it('has one schema file per role under schemas/atlas/', () => {
    const dir = join(import.meta.dirname, '..', 'schemas', 'atlas');
    for (const f of ['atlas', 'entities', 'inventory', 'manifests', 'mappings', 'links', 'index'])
      expect(JSON.parse(readFileSync(join(dir, `${f}.schema.json`), 'utf8')).$id).toContain(
        `atlas/${f}.schema.json`,
      );
  });
});

describe('the parser loads only in atlas generate', () => {
  it('web-tree-sitter is imported dynamically by one chunk, and that chunk only dynamically', () => {
    const chunks = join(import.meta.dirname, '..', 'dist', 'chunks');
    const files = readdirSync(chunks).filter((f) => f.endsWith('.js'));
    const text = (f: string) => readFileSync(join(chunks, f), 'utf8');
    const users = files.filter((f) => text(f).includes('web-tree-sitter'));
    expect(users).toHaveLength(1);
    expect(text(users[0]!)).toContain('import("web-tree-sitter")');
    expect(text(users[0]!)).not.toMatch(/from\s*"web-tree-sitter"/);
    for (const f of files) {
      const t = text(f);
      if (!t.includes(users[0]!)) continue;
      // Every mention of the parser chunk is an import() call, never a static import.
      expect(t.split(users[0]!).length - 1, f).toBe(t.split(`import("./${users[0]}")`).length - 1);
    }
    expect(readFileSync(join(import.meta.dirname, '..', 'dist', 'cli.js'), 'utf8')).not.toContain(
      'web-tree-sitter',
    );
  });
});
