import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../../../test/fixtures/index.js';
import { HubError } from '../../infra/index.js';
import { VENDORS } from '../vendors.js';
import {
  bundledTemplatesDir,
  exportTemplate,
  initOverlay,
  overlayLocation,
  renderTemplate,
  resolveTemplate,
  type TemplateRoots,
  validateTemplates,
} from './index.js';

let ws: string;
let roots: TemplateRoots;

function errorOf(fn: () => unknown): HubError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(HubError);
    return err as HubError;
  }
  throw new Error('expected an error');
}

beforeEach(() => {
  ws = createTempDir('hub-agent-write-');
  roots = { bundledDir: bundledTemplatesDir(), workspaceRoot: ws };
});
afterEach(() => removeTempDir(ws));

describe('overlay init', () => {
  it('full copies template.yaml and every .tpl; the overlay resolves like the bundle, source merged', () => {
    const r = initOverlay('repo-implementer', roots, { scope: 'committed', mode: 'full' });
    expect(r.relative).toBe('.hub-agents/repo-implementer');
    expect(r.written).toEqual(
      expect.arrayContaining(['template.yaml', 'body.md.tpl', 'AGENTS.md.fragment.tpl', 'hub-orient.md.tpl']),
    );
    const dir = join(ws, '.hub-agents', 'repo-implementer');
    expect(readdirSync(dir).sort()).toEqual([...r.written].sort());
    const yamlText = readFileSync(join(dir, 'template.yaml'), 'utf8');
    expect(yamlText).toMatch(/^# Team \(committed\) overlay of the agent template 'repo-implementer'/);
    expect(yamlText).not.toContain('yaml-language-server');
    const merged = resolveTemplate('repo-implementer', roots);
    const plain = resolveTemplate('repo-implementer', { bundledDir: roots.bundledDir });
    expect(merged.source).toBe('merged');
    expect(merged.manifest).toEqual(plain.manifest);
    expect(renderTemplate(merged, {}, { vendor: VENDORS.claude_code }).content).toBe(
      renderTemplate(plain, {}, { vendor: VENDORS.claude_code }).content,
    );
    expect(validateTemplates(roots, { id: 'repo-implementer' }).ok).toBe(true);
  });

  it('minimal writes a manifest stub and body.md.tpl that validate', () => {
    const r = initOverlay('graph-curator', roots, { scope: 'committed', mode: 'minimal' });
    expect(r.written).toEqual(['template.yaml', 'body.md.tpl']);
    expect(readFileSync(join(r.path, 'template.yaml'), 'utf8')).toMatch(
      /\nschema_version: 1\nid: graph-curator\n$/,
    );
    expect(validateTemplates(roots, { id: 'graph-curator' }).ok).toBe(true);
  });

  it('--local writes the personal overlay from the team one, and gitignores the personal folder', () => {
    mkdirSync(join(ws, '.hub-agents', 'repo-implementer'), { recursive: true });
    writeFileSync(join(ws, '.hub-agents', 'repo-implementer', 'template.yaml'), 'name: Team implementer\n');
    const r = initOverlay('repo-implementer', roots, { scope: 'local', mode: 'full' });
    expect(r.relative).toBe('.hub/.agent-templates/repo-implementer');
    expect(readFileSync(join(r.path, 'template.yaml'), 'utf8')).toContain('name: Team implementer');
    expect(readFileSync(join(ws, '.hub', '.agent-templates', '.gitignore'), 'utf8')).toContain('*');
    expect(overlayLocation('repo-implementer', roots, 'local')).toMatchObject({ exists: true });
  });

  it('refuses a folder that already holds files unless --force, and an unknown template', () => {
    initOverlay('repo-implementer', roots, { scope: 'committed', mode: 'minimal' });
    writeFileSync(join(ws, '.hub-agents', 'repo-implementer', 'body.md.tpl'), 'mine\n');
    const err = errorOf(() => initOverlay('repo-implementer', roots, { scope: 'committed', mode: 'full' }));
    expect(err.details).toMatchObject({ rule: 'overlay_exists' });
    expect(readFileSync(join(ws, '.hub-agents', 'repo-implementer', 'body.md.tpl'), 'utf8')).toBe('mine\n');
    initOverlay('repo-implementer', roots, { scope: 'committed', mode: 'full', force: true });
    expect(readFileSync(join(ws, '.hub-agents', 'repo-implementer', 'body.md.tpl'), 'utf8')).not.toBe(
      'mine\n',
    );
    expect(errorOf(() => initOverlay('nope', roots, { scope: 'committed', mode: 'full' })).code).toBe(
      'not_found',
    );
  });

  it('never writes through a symlinked overlay folder out of the workspace', () => {
    const outside = createTempDir('hub-agent-outside-');
    try {
      mkdirSync(join(ws, '.hub-agents'));
      symlinkSync(outside, join(ws, '.hub-agents', 'repo-implementer'));
      const err = errorOf(() =>
        initOverlay('repo-implementer', roots, { scope: 'committed', mode: 'full', force: true }),
      );
      expect(err.code).toBe('refused');
      expect(readdirSync(outside)).toEqual([]);
    } finally {
      removeTempDir(outside);
    }
  });
});

describe('export', () => {
  const render = (answers: Record<string, unknown> = {}) => {
    const t = resolveTemplate('repo-implementer', roots);
    return { t, r: renderTemplate(t, answers) };
  };

  it('writes <id>.md, AGENTS.md.fragment and manifest.json; a second export changes nothing', () => {
    const out = join(ws, 'out');
    const { t, r } = render();
    const first = exportTemplate(t, r, out);
    expect(first.files.map((f) => [f.name, f.action])).toEqual([
      ['repo-implementer.md', 'create'],
      ['AGENTS.md.fragment', 'create'],
      ['manifest.json', 'create'],
    ]);
    expect(readFileSync(join(out, 'repo-implementer.md'), 'utf8')).toBe(r.content);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ template_id: 'repo-implementer', source: 'bundled', vendor: null });
    expect(manifest.answers).toEqual(r.answers);
    const second = exportTemplate(t, r, out);
    expect(second.files.every((f) => f.action === 'unchanged')).toBe(true);
    expect(second.written).toEqual([]);
  });

  it('replaces files hub wrote, refuses files someone changed unless --force, and writes nothing on refusal', () => {
    const out = join(ws, 'out');
    const { t, r } = render();
    exportTemplate(t, r, out);
    const next = render({ merge_target: 'develop' });
    const updated = exportTemplate(next.t, next.r, out);
    expect(updated.files.map((f) => f.action)).toEqual(['update', 'update', 'update']);
    writeFileSync(join(out, 'repo-implementer.md'), 'my edits\n');
    const again = render({ merge_target: 'trunk' });
    const err = errorOf(() => exportTemplate(again.t, again.r, out));
    expect(err.details).toMatchObject({ rule: 'no_clobber' });
    expect(err.message).toContain('repo-implementer.md (changed since hub wrote it)');
    expect(readFileSync(join(out, 'repo-implementer.md'), 'utf8')).toBe('my edits\n');
    expect(readFileSync(join(out, 'manifest.json'), 'utf8')).toContain('develop');
    exportTemplate(again.t, again.r, out, { force: true });
    expect(readFileSync(join(out, 'repo-implementer.md'), 'utf8')).toContain('--into trunk');
  });

  it('treats an existing file hub did not write as a conflict, and a dry run writes nothing', () => {
    const out = join(ws, 'out');
    mkdirSync(out);
    writeFileSync(join(out, 'repo-implementer.md'), 'hand written\n');
    const { t, r } = render();
    expect(errorOf(() => exportTemplate(t, r, out)).message).toContain('not written by hub agent export');
    const dry = exportTemplate(t, r, join(ws, 'dry'), { dryRun: true });
    expect(dry.written).toEqual([]);
    expect(existsSync(join(ws, 'dry'))).toBe(false);
  });

  it('refuses to write through a symlink out of the output folder, even with --force', () => {
    const outside = createTempDir('hub-agent-outside-');
    try {
      const out = join(ws, 'out');
      mkdirSync(out);
      writeFileSync(join(outside, 'target.md'), 'keep\n');
      symlinkSync(join(outside, 'target.md'), join(out, 'repo-implementer.md'));
      const { t, r } = render();
      expect(errorOf(() => exportTemplate(t, r, out, { force: true })).code).toBe('refused');
      expect(readFileSync(join(outside, 'target.md'), 'utf8')).toBe('keep\n');
    } finally {
      removeTempDir(outside);
    }
  });
});
