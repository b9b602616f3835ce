// component detect through the built CLI on real git checkouts: an --apply that would write nothing is an error,
// Go commands under cmd/, Helm charts under deploy/, the language each marker says, and a --help that says what
// it looks for.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, makeGitRepo, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

const MANIFEST = `# keep me
workspace:
  projects:
    - name: p
      repos:
        - name: svc
          path: ./svc
`;

let dir: string;
let ws: string;
let manifest: string;
beforeAll(() => {
  dir = createTempDir('hub-detect-');
  ws = join(dir, 'ws');
  makeGitRepo(join(ws, 'svc'), {
    'cmd/server/go.mod': 'module example.com/server\n',
    'cmd/server/main.go': 'package main\n',
    'deploy/server/Chart.yaml': 'apiVersion: v2\nname: server\n',
    'web/package.json': '{"name":"web"}\n',
    'web/tsconfig.json': '{}\n',
    'tools/gen/package.json': '{"name":"gen"}\n',
    'py/pyproject.toml': '[project]\nname = "py"\n',
    'rs/Cargo.toml': '[package]\nname = "rs"\n',
    'java/pom.xml': '<project/>\n',
    'dotnet/App.csproj': '<Project/>\n',
  });
  makeGitRepo(join(ws, 'empty'), { 'README.md': '# nothing to detect\n' });
  manifest = join(ws, '.hub.yml');
});
afterAll(() => removeTempDir(dir));
beforeEach(() => writeFileSync(manifest, MANIFEST));

const detect = (args: string[] = []) => runHub(['component', 'detect', ...args, '--json'], { cwd: ws });

describe('component detect --apply', () => {
  it('is an error when every candidate was skipped (already catalogued), and writes nothing', () => {
    expect(detect(['--apply']).code).toBe(0);
    const before = readFileSync(manifest, 'utf8');
    const again = detect(['--apply']);
    expect(again.code).toBe(1);
    expect(again.json().error).toMatchObject({
      code: 'refused',
      details: {
        rule: 'nothing_to_apply',
        skipped: expect.arrayContaining(['p/svc/server', 'p/svc/deploy-server']),
      },
    });
    expect(again.json().error.message).toContain('already catalogued');
    expect(readFileSync(manifest, 'utf8')).toBe(before);
    // Without --apply the same state is a plain answer.
    expect(detect().code).toBe(0);
  });

  it('is an error when there is no candidate at all', () => {
    writeFileSync(manifest, MANIFEST.replace('./svc', './empty'));
    const r = detect(['--apply']);
    expect(r.code).toBe(1);
    expect(r.json().error.details).toMatchObject({ rule: 'nothing_to_apply', candidates: 0 });
    const human = runHub(['component', 'detect', '--apply'], { cwd: ws });
    expect(human.code).toBe(1);
    expect(human.stderr).toContain('nothing to apply');
  });
});

describe('component detect', () => {
  it('reads Go commands as applications, deploy/<x>/Chart.yaml as charts and the language from the marker', () => {
    const r = detect();
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const by = Object.fromEntries(r.json().candidates.map((c: { path: string }) => [c.path, c])) as Record<
      string,
      { kind: string; language?: string; markers: string[] }
    >;
    expect(by['cmd/server']).toMatchObject({ kind: 'application', language: 'go', markers: ['go.mod'] });
    expect(by['deploy/server']).toMatchObject({ kind: 'infrastructure', markers: ['Chart.yaml'] });
    expect(by['deploy/server']!.language).toBeUndefined();
    expect(by.web).toMatchObject({ language: 'typescript' });
    expect(by['tools/gen']).toMatchObject({ language: 'javascript' });
    expect(by.py).toMatchObject({ language: 'python' });
    expect(by.rs).toMatchObject({ language: 'rust' });
    expect(by.java).toMatchObject({ language: 'java' });
    expect(by.dotnet).toMatchObject({ language: 'csharp' });
  });

  it('writes the kind and the language on apply', () => {
    expect(detect(['--apply']).code).toBe(0);
    const text = readFileSync(manifest, 'utf8');
    expect(text.startsWith(MANIFEST)).toBe(true);
    expect(text).toContain(
      '- name: server\n              path: cmd/server\n              kind: application\n              language: go\n',
    );
    const list = runHub(['component', 'show', 'p/svc/web', '--json'], { cwd: ws }).json();
    expect(list.component).toMatchObject({ language: 'typescript' });
    expect(runHub(['config', 'validate'], { cwd: ws }).code).toBe(0);
  });

  it('says in --help what it looks for', () => {
    const help = runHub(['component', 'detect', '--help']).stdout.replace(/\s+/g, ' ');
    for (const word of [
      'package.json',
      'go.mod',
      '*.csproj',
      'cmd/<name>',
      'deploy/<name>/Chart.yaml',
      'apps/',
      'language',
    ])
      expect(help, word).toContain(word);
  });
});
