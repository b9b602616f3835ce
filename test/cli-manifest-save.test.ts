import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffLines } from 'diff';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, makeGitRepo, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

/** A manifest written by hand, in the styles people use: everything the YAML library would write differently. */
const HAND_WRITTEN = `# Team workspace: edited by hand; keep the comments.
workspace:
  name: "acme"   # quoted on purpose
  description: 'It''s the team''s workspace, with a description long enough that a YAML writer folding at eighty columns would break it onto several lines.'
  agent_profile: &base
    skills: [code-review]
    rules: [security/no-secrets, platform/change-control]
  projects:
  - name: platform
    tags: {team: platform}
    agent_profile: *base
    repos:
      - name: api
        path: ./platform/api
        tags: [ go,   edge ]
        components:
          - {name: server, path: services/server, kind: service}
          - name: client
            path:   "packages/client"
            depends_on: [server]      # same repo
`;

let dir: string;
let ws: string;

beforeAll(() => {
  dir = createTempDir('hub-save-');
  ws = join(dir, 'ws');
  makeGitRepo(join(ws, 'platform', 'api'), {
    'services/server/main.go': 'package main\n',
    'packages/client/package.json': '{}\n',
    'tools/lint/go.mod': 'module lint\n',
    'tools/fmt/go.mod': 'module fmt\n',
  });
});
afterAll(() => removeTempDir(dir));

/** Lines removed and added between two texts. */
function changed(before: string, after: string): { removed: string[]; added: string[] } {
  const removed: string[] = [];
  const added: string[] = [];
  for (const part of diffLines(before, after)) {
    const lines = part.value.replace(/\n$/, '').split('\n');
    if (part.removed) removed.push(...lines);
    if (part.added) added.push(...lines);
  }
  return { removed, added };
}

describe('saving a manifest changes only the lines it means to', () => {
  it('component init --apply adds its lines and leaves every other line byte-identical', () => {
    const file = join(ws, '.hub.yml');
    writeFileSync(file, HAND_WRITTEN);
    const r = runHub(['component', 'init', 'tools/lint', '--kind', 'tool', '--apply', '--json'], { cwd: ws });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const after = readFileSync(file, 'utf8');
    const d = changed(HAND_WRITTEN, after);
    expect(d.removed).toEqual([]);
    // The new item follows its siblings' style: the list's last item is a block map.
    expect(d.added).toEqual([
      '          - name: lint',
      '            path: tools/lint',
      '            kind: tool',
    ]);
    expect(runHub(['config', 'validate'], { cwd: ws }).code).toBe(0);
  });

  it('writes a new component on one line when its siblings are one-line flow maps', () => {
    const sub = join(dir, 'flow');
    makeGitRepo(join(sub, 'api'), { 'svc/a/go.mod': 'module a\n', 'svc/b/go.mod': 'module b\n' });
    const text =
      'workspace:\n  projects:\n    - name: p\n      repos:\n        - name: api\n          path: ./api\n          components:\n            - { name: a, path: svc/a }\n';
    writeFileSync(join(sub, '.hub.yml'), text);
    const r = runHub(['component', 'init', 'svc/b', '--apply'], { cwd: sub });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(readFileSync(join(sub, '.hub.yml'), 'utf8')).toBe(
      `${text}            - { name: b, path: svc/b, kind: unknown }\n`,
    );
  });

  it('keeps CRLF line endings and a file without a final newline', () => {
    const sub = join(dir, 'crlf');
    mkdirSync(sub);
    makeGitRepo(join(sub, 'api'), { 'svc/a/go.mod': 'module a\n' });
    const text =
      'workspace:\r\n  projects:\r\n    - name: p\r\n      repos:\r\n        - {name: api, path: ./api}';
    writeFileSync(join(sub, '.hub.yml'), text);
    const r = runHub(['component', 'detect', '--apply', '--json'], { cwd: sub });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const after = readFileSync(join(sub, '.hub.yml'), 'utf8');
    expect(after.startsWith('workspace:\r\n  projects:\r\n    - name: p\r\n      repos:\r\n')).toBe(true);
    expect(after.replace(/\r\n/g, '')).not.toContain('\n');
    expect(after).toContain('path: svc/a');
  });

  it('appconfig patch --save changes only the patched key', () => {
    const cfg = join(ws, 'hub.config.yaml');
    const text =
      '# team settings\nstate:\n  backend: local   # default\ncoordination:\n  allowed_branch_prefixes: [ "agent/", "bot/" ]\n';
    writeFileSync(cfg, text);
    const r = runHub(
      ['appconfig', 'patch', '--op', 'set', '--path', 'state.conflict_retries', '--value', '3', '--save'],
      { cwd: ws },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const d = changed(text, readFileSync(cfg, 'utf8'));
    expect(d.removed).toEqual([]);
    expect(d.added).toEqual(['  conflict_retries: 3']);
  });
});
