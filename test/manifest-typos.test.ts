// The mistakes a newcomer makes in a first .hub.yml, each on the demo manifest with one line changed: every
// problem names the key, its line, the nearest known key and what was expected, once.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

let dir: string;
let manifest: string;
let original: string;

beforeAll(() => {
  dir = createTempDir('hub-typos-');
  manifest = createDemo(join(dir, 'demo')).manifestPath;
  original = readFileSync(manifest, 'utf8');
});
afterAll(() => removeTempDir(dir));

/** The demo manifest with the first line equal to `from` replaced by `to`, and that line's number. */
function withLine(from: string, to: string): number {
  const lines = original.split('\n');
  const i = lines.indexOf(from);
  expect(i, from).toBeGreaterThanOrEqual(0);
  lines[i] = to;
  writeFileSync(manifest, lines.join('\n'));
  return i + 1;
}

const validate = () => runHub(['-c', manifest, 'config', 'validate', '--json']);
const human = () => runHub(['-c', manifest, 'config', 'validate']);

describe('config validate on a typo', () => {
  it('an unknown key: its own path and line, the nearest known key, and the keys that fit there', () => {
    const line = withLine('          components:', '          componets:');
    const r = validate();
    expect(r.code).toBe(1);
    expect(r.json().problems).toEqual([
      expect.objectContaining({
        path: 'workspace.projects[0].repos[0].componets',
        line,
        rule: 'schema.unrecognized_keys',
        key: 'componets',
        suggestions: ['components'],
        message: expect.stringMatching(/^unknown key 'componets'; did you mean 'components'\?/),
      }),
    ]);
    expect(r.json().problems[0].expected).toContain('components');
    const h = human();
    expect(h.stdout).toContain(
      `line ${line}: workspace.projects[0].repos[0].componets: unknown key 'componets'`,
    );
  });

  it('project: instead of projects: gets the same help', () => {
    const line = withLine('  projects:', '  project:');
    const [p, ...rest] = validate().json().problems;
    expect(rest).toEqual([]);
    expect(p).toMatchObject({ path: 'workspace.project', line, key: 'project', suggestions: ['projects'] });
    expect(p.message).toMatch(/did you mean 'projects'\?/);
  });

  it('a misspelt required key is one problem naming the key it should be, not a missing value as well', () => {
    const line = withLine('    - name: platform', '    - nme: platform');
    const problems = validate().json().problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      path: 'workspace.projects[0].nme',
      line,
      key: 'nme',
      suggestions: ['name'],
    });
    expect(problems[0].message).toMatch(/did you mean 'name'\? \('name' is required: a string\)/);
    expect(JSON.stringify(problems)).not.toMatch(/received undefined/);
  });

  it('a missing required key says which key and what it takes', () => {
    const line = withLine('    - name: platform', '    - agent_instructions: first');
    const problems = validate().json().problems;
    const missing = problems.find((p: { rule: string }) => p.rule === 'schema.missing_key');
    expect(missing).toMatchObject({ path: 'workspace.projects[0].name', key: 'name', line });
    expect(missing.message).toBe("missing required key 'name' (a string)");
    expect(JSON.stringify(problems)).not.toMatch(/received undefined/);
  });

  it('one bad line of YAML is one problem, at that line, with what was expected there', () => {
    const line = withLine('          default_branch: main', '         default_branch: main');
    const r = validate();
    expect(r.code).toBe(1);
    const problems = r.json().problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line, rule: 'syntax' });
    expect(problems[0].message).toMatch(/indented 9 spaces.*10/);
    expect(human().stdout).not.toMatch(/: : /);
  });

  it('a line indented deeper than a key that already has a value is named, not the line above it', () => {
    const line = withLine('          default_branch: main', '            default_branch: main');
    const problems = validate().json().problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line, rule: 'syntax' });
    expect(problems[0].message).toMatch(/indented 12 spaces.*10/);
  });

  it('a key without its colon says so', () => {
    const line = withLine('          default_branch: main', '          default_branch main');
    const problems = validate().json().problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line, rule: 'syntax' });
    expect(problems[0].message).toMatch(/': '/);
  });

  it('a value holding ": " and a list left open name the fix', () => {
    let line = withLine('          default_branch: main', '          default_branch: main: x');
    let [p] = validate().json().problems;
    expect(p).toMatchObject({ line, rule: 'syntax' });
    expect(p.message).toMatch(/quote the value \("main: x"\)/);
    line = withLine('          default_branch: main', '          default_branch: [main');
    [p] = validate().json().problems;
    expect(p).toMatchObject({ line, rule: 'syntax' });
    expect(p.message).toMatch(/opens '\[' and does not close it/);
  });

  it('a near miss of a recommended kind is a warning: still valid, exit 0', () => {
    const line = withLine('              kind: service', '              kind: servce');
    const r = validate();
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ valid: true, problems: [] });
    expect(r.json().warnings).toEqual([
      expect.objectContaining({
        path: 'workspace.projects[0].repos[0].components[0].kind',
        line,
        rule: 'kind_near_miss',
        suggestions: ['service'],
        message: expect.stringMatching(/'servce' is not a recommended kind; did you mean 'service'\?/),
      }),
    ]);
    const h = human();
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/^ok: /);
    expect(h.stdout).toContain(`warning: line ${line}: workspace.projects[0].repos[0].components[0].kind`);
  });

  it('a kind of its own (far from every recommended one) is no warning: kind is open', () => {
    withLine('              kind: service', '              kind: lambda-function');
    const r = validate();
    expect(r.code).toBe(0);
    expect(r.json().warnings).toEqual([]);
  });

  it('a command other than validate names the key and the nearest known one in its error too', () => {
    withLine('          components:', '          componets:');
    const r = runHub(['-c', manifest, 'component', 'list', '--json']);
    expect(r.code).toBe(1);
    expect(r.json().error.message).toMatch(/unknown key 'componets'; did you mean 'components'\?/);
  });
});
