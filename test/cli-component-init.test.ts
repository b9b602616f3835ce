import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

let dir: string;
let root: string;
let manifest: string;

beforeAll(() => {
  dir = createTempDir('hub-cinit-');
  const demo = createDemo(join(dir, 'demo'));
  root = demo.root;
  manifest = demo.manifestPath;
});
afterAll(() => removeTempDir(dir));

const hub = (args: string[]) => runHub(args, { cwd: root });
const scope = ['--project', 'platform', '--repo', 'identity'];

describe('component init never writes a manifest config validate rejects', () => {
  it('refuses --apply for a folder missing from a checked-out repo, and changes nothing', () => {
    const before = readFileSync(manifest, 'utf8');
    const r = hub(['component', 'init', 'packages/tools', ...scope, '--apply', '--json']);
    expect(r.code).toBe(1);
    const err = r.json().error;
    expect(err.details).toMatchObject({ field: 'path', value: 'packages/tools', rule: 'missing_directory' });
    expect(err.message).toContain(join(root, 'platform', 'identity', 'packages', 'tools'));
    expect(err.details.hint).toMatch(/create the directory/);
    expect(readFileSync(manifest, 'utf8')).toBe(before);
    expect(hub(['config', 'validate']).code).toBe(0);
  });

  it('drafts it with a warning, and applies once the folder exists', () => {
    const draft = hub(['component', 'init', 'packages/tools', ...scope, '--json']);
    expect(draft.code).toBe(0);
    expect(draft.json().warnings).toEqual([expect.stringMatching(/does not exist/)]);
    expect(hub(['component', 'init', 'packages/tools', ...scope]).stdout).toMatch(
      /warning: .*does not exist/,
    );
    mkdirSync(join(root, 'platform', 'identity', 'packages', 'tools'), { recursive: true });
    const ok = hub(['component', 'init', 'packages/tools', ...scope, '--apply', '--json']);
    expect(ok.code, ok.stdout).toBe(0);
    expect(ok.json()).toMatchObject({ applied: true, warnings: [] });
    expect(hub(['config', 'validate']).code).toBe(0);
  });

  it('applies to a repo that is not checked out (validate skips its directories too)', () => {
    const r = hub([
      'component',
      'init',
      'svc/invoices',
      '--project',
      'platform',
      '--repo',
      'legacy-billing',
      '--apply',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(hub(['config', 'validate']).code).toBe(0);
  });
});

describe('workspace summary and config validate agree about validity', () => {
  it('a manifest validate rejects is not called valid by summary', () => {
    const ok = hub(['workspace', 'summary', '--json']).json();
    expect(ok.manifest_valid).toBe(true);
    expect(ok.manifest_problems).toBe(0);

    const text = readFileSync(manifest, 'utf8').replace(
      '            - name: sdk\n              path: packages/sdk',
      '            - name: sdk\n              path: packages/sdk-gone',
    );
    expect(text).toContain('packages/sdk-gone');
    writeFileSync(manifest, text);
    const validate = hub(['config', 'validate', '--json']);
    expect(validate.code).toBe(1);
    const summary = hub(['workspace', 'summary', '--json']);
    expect(summary.code).toBe(0);
    const s = summary.json();
    expect(s.manifest_valid).toBe(false);
    expect(s.manifest_problems).toBe(validate.json().problems.length);
    const gate = s.dimensions.find((d: { name: string }) => d.name === 'tool_gate');
    expect(gate.detail).not.toMatch(/^valid/);
    expect(gate.detail).toMatch(/config validate/);
    expect(s.blockers.join('\n')).toContain('packages/sdk-gone');
    expect(s.suggested_commands).toContain('hub config validate');
    expect(hub(['workspace', 'summary']).stdout).not.toContain('valid .hub.yml');
  });
});
