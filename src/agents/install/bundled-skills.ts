import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { didYouMean, suggestionText } from '../../catalog/index.js';
import { NotFoundError, readFileBounded, ValidationError } from '../../infra/index.js';
import { yaml } from '../../model/index.js';
import { type InstallRoots, type InstallScope, scopeBase, skillPath, type VendorSpec } from '../vendors.js';
import { type FileWritePlan, planFileWrite } from './file-writer.js';
import { MAX_MANAGED_BYTES } from './target-file.js';

/** Agent Skills names: 1-64 lowercase letters, digits and single hyphens, equal to the skill's folder. */
export const SKILL_NAME_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_DESCRIPTION = 1024;
/** A skill folder is a handful of files; more is a packaging mistake, not a skill. */
const MAX_SKILL_FILES = 32;

export interface BundledSkill {
  name: string;
  description: string;
  /** The skill's folder in the package. */
  dir: string;
  /** Its files, relative to the folder (POSIX), SKILL.md first. */
  files: string[];
}

/** The name, or a validation error naming the rule (a name is also a folder: `../x` never passes). */
export function checkSkillName(name: string, field = 'skill'): string {
  if (name.length <= 64 && SKILL_NAME_RE.test(name)) return name;
  throw new ValidationError(
    `${field}: '${name}' is not a skill name (1-64 lowercase letters, digits and single hyphens)`,
    { field, value: name, rule: 'agent_skills_name' },
  );
}

/** The front-matter block of a Markdown file (between the leading `---` lines), parsed; {} when absent. */
export function frontMatterOf(text: string, shown: string): Record<string, unknown> {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(text);
  if (!m) return {};
  const data: unknown = yaml().parse(m[1]!);
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    throw new ValidationError(`${shown}: its front-matter is not a mapping`, {
      field: 'front_matter',
      value: shown,
      rule: 'mapping',
    });
  return data as Record<string, unknown>;
}

/** Files of a skill folder, relative, walking plain folders only (links are not followed, nor packaged). */
function skillFiles(dir: string): string[] {
  const out: string[] = [];
  const stack = [''];
  while (stack.length > 0) {
    const rel = stack.pop()!;
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) stack.push(p);
      else if (e.isFile()) out.push(p);
    }
  }
  if (out.length > MAX_SKILL_FILES)
    throw new Error(`skill folder ${dir} holds more than ${MAX_SKILL_FILES} files`);
  return out.sort((a, b) => (a === 'SKILL.md' ? -1 : b === 'SKILL.md' ? 1 : a.localeCompare(b)));
}

/** Reads and checks one skill folder against the Agent Skills format. */
export function readSkill(skillsDir: string, name: string): BundledSkill {
  const dir = join(skillsDir, name);
  const shown = `skills/${name}/SKILL.md`;
  const text = readFileBounded(join(dir, 'SKILL.md'), {
    maxBytes: MAX_MANAGED_BYTES,
    root: skillsDir,
    field: 'skill',
    shown,
  }).toString('utf8');
  const fm = frontMatterOf(text, shown);
  if (fm.name !== name)
    throw new ValidationError(
      `${shown}: front-matter name '${String(fm.name)}' must equal its folder '${name}'`,
      {
        field: 'name',
        value: String(fm.name),
        rule: 'equals_folder',
      },
    );
  const d = fm.description;
  if (typeof d !== 'string' || d.trim().length === 0 || d.length > MAX_DESCRIPTION)
    throw new ValidationError(`${shown}: description must be 1-${MAX_DESCRIPTION} characters`, {
      field: 'description',
      value: typeof d === 'string' ? d.length : String(d),
      rule: `1-${MAX_DESCRIPTION} characters`,
    });
  return { name, description: d, dir, files: skillFiles(dir) };
}

/** Every bundled skill (folders of `skillsDir` holding a SKILL.md), sorted by name. */
export function listBundledSkills(skillsDir: string): BundledSkill[] {
  let names: string[];
  try {
    names = readdirSync(skillsDir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && SKILL_NAME_RE.test(e.name))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
  return names.map((n) => readSkill(skillsDir, n));
}

/** The bundled skill of a name, or a not-found error listing the bundled ones (with "did you mean"). */
export function bundledSkill(skills: BundledSkill[], name: string, field = 'skill'): BundledSkill {
  checkSkillName(name, field);
  const found = skills.find((s) => s.name === name);
  if (found) return found;
  const known = skills.map((s) => s.name);
  throw new NotFoundError(
    `${field}: no bundled skill '${name}'${suggestionText(didYouMean(name, known))}; bundled: ${known.join(', ') || 'none'}`,
    { field, value: name, rule: 'bundled_skill', known },
  );
}

/** The plans that install one skill folder for a vendor in a scope (nothing is written here). */
export function planSkillInstall(
  vendor: VendorSpec,
  scope: InstallScope,
  roots: InstallRoots,
  skill: BundledSkill,
  opts: { force?: boolean } = {},
): FileWritePlan[] {
  const root = scopeBase(scope, roots);
  const target = join(skillPath(vendor, scope, roots, skill.name), '..');
  return skill.files.map((rel) => {
    const content = readFileBounded(join(skill.dir, rel), {
      maxBytes: MAX_MANAGED_BYTES,
      root: skill.dir,
      field: 'skill',
      shown: `skills/${skill.name}/${rel}`,
    }).toString('utf8');
    return planFileWrite(join(target, rel), content, {
      root,
      force: opts.force,
      mode: rel.endsWith('.sh') ? 0o755 : 0o644,
    });
  });
}
