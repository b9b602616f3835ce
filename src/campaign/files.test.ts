import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir, thrown } from '../../test/fixtures/index.js';
import { setRowFields } from './edit.js';
import {
  campaignPlace,
  createCampaignFile,
  listCampaignFiles,
  readCampaign,
  updateCampaign,
} from './files.js';

const LEGACY = `# Payments logging campaign: reviewed by the platform team.
schema_version: 1
slug: old-one
title: Old one   # kept as written
status: complete
work_item: 42
selection:
  query: pay
  # tags were a list once
  tags:
    - lang=go
    - legacy
repos:
  # the first one went in first
  - project: pay
    repo: api
    status: merged
    work_item: 7
  - project: pay
    repo: web
    status: pending
lessons:
  - text: keep the old flag for a release
`;

let root: string;
beforeEach(() => {
  root = createTempDir('hub-campaign-files-');
  mkdirSync(join(root, '_campaigns'));
});
afterEach(() => removeTempDir(root));

const place = () => campaignPlace(root, '_campaigns/');
const now = new Date('2026-11-28T12:00:00.000Z');

describe('legacy spellings', () => {
  it('load as the current ones: integer schema_version, complete, list-form tags, bare work item ids', () => {
    writeFileSync(join(root, '_campaigns', 'old-one.yml'), LEGACY);
    const loaded = readCampaign(place(), 'old-one');
    expect(loaded.campaign).toMatchObject({
      schema_version: '1.0',
      status: 'completed',
      work_item: { id: '42' },
      selection: { query: 'pay', tags: { lang: 'go', legacy: true } },
    });
    expect(loaded.campaign.repos[0]!.work_item).toEqual({ id: '7' });
    expect(loaded.campaign.lessons).toEqual([{ text: 'keep the old flag for a release' }]);
    expect(loaded.legacy.map((l) => l.path)).toEqual([
      'schema_version',
      'status',
      'selection.tags',
      'work_item',
      'repos[0].work_item',
    ]);
  });

  it('done and in-progress are older spellings too', () => {
    writeFileSync(join(root, '_campaigns', 'a.yml'), 'slug: a\ntitle: A\nstatus: done\n');
    writeFileSync(join(root, '_campaigns', 'b.yml'), 'slug: b\ntitle: B\nstatus: in-progress\n');
    expect(readCampaign(place(), 'a').campaign.status).toBe('completed');
    expect(readCampaign(place(), 'b').campaign.status).toBe('active');
  });

  it('a save normalizes them, keeps every comment and changes only the lines it means to', async () => {
    const path = join(root, '_campaigns', 'old-one.yml');
    writeFileSync(path, LEGACY);
    await updateCampaign(place(), 'old-one', (doc) => setRowFields(doc, 1, { status: 'routed' }), { now });
    const after = readFileSync(path, 'utf8');
    const before = LEGACY.split('\n');
    const lines = after.split('\n');
    // Every comment survives.
    for (const c of before.filter((l) => l.includes('#'))) expect(lines).toContain(c);
    const removed = before.filter((l) => !lines.includes(l));
    const added = lines.filter((l) => !before.includes(l));
    expect(removed).toEqual([
      'schema_version: 1',
      'status: complete',
      'work_item: 42',
      '    - lang=go',
      '    - legacy',
      '    work_item: 7',
      '    status: pending',
    ]);
    expect(added).toEqual([
      'schema_version: "1.0"',
      'status: completed',
      'updated: 2026-11-28T12:00:00.000Z',
      'work_item:',
      '  id: "42"',
      '    lang: go',
      '    legacy: true',
      '    work_item:',
      '      id: "7"',
      '    status: routed',
    ]);
    expect(readCampaign(place(), 'old-one').legacy).toEqual([]);
  });

  it('a save of a current document changes only the edited line and updated', async () => {
    const made = await createCampaignFile(place(), {
      schema_version: '1.0',
      slug: 'fresh',
      title: 'Fresh',
      status: 'draft',
      created: '2026-01-01T00:00:00.000Z',
      updated: '2026-01-01T00:00:00.000Z',
      selection: { tags: {} },
      repos: [{ project: 'p', repo: 'r', status: 'pending' }],
      lessons: [],
    });
    const path = join(root, made.file);
    const text = `${readFileSync(path, 'utf8')}# a note at the end\n`;
    writeFileSync(path, text);
    await updateCampaign(place(), 'fresh', (doc) => setRowFields(doc, 0, { mr: 'https://x.example/1' }), {
      now,
    });
    const after = readFileSync(path, 'utf8');
    expect(after).toBe(
      text
        .replace('updated: 2026-01-01T00:00:00.000Z', 'updated: 2026-11-28T12:00:00.000Z')
        .replace('    status: pending\n', '    status: pending\n    mr: https://x.example/1\n'),
    );
  });

  it('an edit that breaks the schema writes nothing', async () => {
    const path = join(root, '_campaigns', 'old-one.yml');
    writeFileSync(path, LEGACY);
    await expect(
      updateCampaign(place(), 'old-one', (doc) => setRowFields(doc, 0, { status: 'sideways' }), { now }),
    ).rejects.toMatchObject({
      code: 'validation',
      details: { issues: [{ path: 'repos[0].status', line: 19 }] },
    });
    expect(readFileSync(path, 'utf8')).toBe(LEGACY);
  });
});

describe('campaign files are hostile input', () => {
  it('a symlinked campaign file is never read; a .yaml or a bad name is reported', () => {
    writeFileSync(join(root, 'secret.yml'), 'slug: linked\ntitle: x\n');
    symlinkSync(join(root, 'secret.yml'), join(root, '_campaigns', 'linked.yml'));
    writeFileSync(join(root, '_campaigns', 'other.yaml'), 'slug: other\ntitle: x\n');
    writeFileSync(join(root, '_campaigns', 'Bad Name.yml'), 'slug: x\ntitle: x\n');
    const { files, problems } = listCampaignFiles(place());
    expect(files).toEqual([]);
    expect(problems.map((p) => p.rule).sort()).toEqual(['campaign_slug', 'file_extension', 'regular_file']);
    expect(thrown(() => readCampaign(place(), 'linked'))).toMatchObject({ code: 'validation' });
  });

  it('a slug that differs from the file name, a YAML bomb and an oversized file are validation errors', () => {
    writeFileSync(join(root, '_campaigns', 'a.yml'), 'slug: b\ntitle: x\n');
    expect(thrown(() => readCampaign(place(), 'a'))).toMatchObject({
      details: { rule: 'slug_matches_file' },
    });
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 0; i < 9; i++)
      bomb.push(
        `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`,
      );
    writeFileSync(join(root, '_campaigns', 'bomb.yml'), `slug: bomb\ntitle: x\n${bomb.join('\n')}\n`);
    expect(thrown(() => readCampaign(place(), 'bomb'))).toMatchObject({ code: 'validation' });
    writeFileSync(
      join(root, '_campaigns', 'big.yml'),
      `slug: big\ntitle: x\ngoal: ${'y'.repeat(3 * 1024 * 1024)}\n`,
    );
    expect(thrown(() => readCampaign(place(), 'big'))).toMatchObject({ details: { rule: 'max_size' } });
  });

  it('a campaigns_path outside the workspace is refused', () => {
    expect(thrown(() => campaignPlace(root, '../elsewhere'))).toMatchObject({
      code: 'refused',
      details: { rule: 'campaigns_path_inside_root' },
    });
    expect(thrown(() => campaignPlace(root, '/etc'))).toMatchObject({ code: 'refused' });
  });
});
