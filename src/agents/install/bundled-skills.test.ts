import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir, thrown } from '../../../test/fixtures/index.js';
import { checkSkillName, listBundledSkills, readSkill } from './bundled-skills.js';

const BUNDLED = join(import.meta.dirname, '..', '..', '..', 'templates', 'skills');

let dir: string;
beforeEach(() => {
  dir = createTempDir('hub-skills-');
});
afterEach(() => removeTempDir(dir));

const skill = (name: string, text: string) => {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, 'SKILL.md'), text);
};

describe('bundled skills', () => {
  it('every bundled skill follows the Agent Skills format, hub-workspace among them', () => {
    const skills = listBundledSkills(BUNDLED);
    expect(skills.map((s) => s.name)).toContain('hub-workspace');
    const hw = skills.find((s) => s.name === 'hub-workspace')!;
    expect(hw.files).toEqual(['SKILL.md', 'reference.md']);
    expect(hw.description.length).toBeLessThanOrEqual(1024);
  });

  it('refuses a name that differs from its folder, and a missing or oversized description', () => {
    skill('a', '---\nname: b\ndescription: x\n---\n# A\n');
    expect(thrown(() => readSkill(dir, 'a')).details).toMatchObject({ rule: 'equals_folder' });
    skill('c', '---\nname: c\n---\n# C\n');
    expect(thrown(() => readSkill(dir, 'c')).details).toMatchObject({ field: 'description' });
    skill('d', `---\nname: d\ndescription: ${'x'.repeat(1025)}\n---\n`);
    expect(thrown(() => readSkill(dir, 'd')).details).toMatchObject({ field: 'description' });
  });

  it('names are 1-64 lowercase letters, digits and single hyphens', () => {
    for (const ok of ['a', 'hub-workspace', 'x1-2']) expect(checkSkillName(ok)).toBe(ok);
    for (const bad of ['../x', 'A', 'a--b', '-a', 'a-', 'a/b', 'x'.repeat(65), ''])
      expect(thrown(() => checkSkillName(bad)).details).toMatchObject({ rule: 'agent_skills_name' });
  });
});
