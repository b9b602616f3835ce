import { ValidationError } from '../../infra/index.js';
import { yaml } from '../../model/index.js';
import { VENDORS, type VendorId, type VendorSpec } from '../vendors.js';
import { TEMPLATE_ID_RE, type TemplateManifest } from './schema.js';

export type FrontMatter = Record<string, unknown>;

/** Agent Skills: `name` 1-64 chars of lowercase letters, digits and single hyphens; `description` 1-1024. */
export const SKILL_DESCRIPTION_MAX = 1024;
const SKILL_KEYS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'];

/**
 * The front-matter a vendor requires for this template (REFERENCE.md, "Coding-agent vendors"), from the manifest
 * and its vendor hints. Without a vendor: `name` and `description` (what `agent export` writes).
 */
export function frontMatterFor(m: TemplateManifest, vendor?: VendorSpec): FrontMatter {
  const base = { name: m.id, description: m.description };
  if (!vendor) return base;
  const v = vendor.id as VendorId;
  switch (v) {
    case 'claude_code': {
      const h = m.vendors.claude_code ?? {};
      // Claude Code reads `tools` as one comma-separated string.
      return {
        ...base,
        ...(h.model ? { model: h.model } : {}),
        ...(h.tools ? { tools: h.tools.join(', ') } : {}),
      };
    }
    case 'cursor': {
      const h = m.vendors.cursor ?? {};
      return { ...base, ...(h.model ? { model: h.model } : {}) };
    }
    case 'github_copilot': {
      const h = m.vendors.github_copilot ?? {};
      return { ...base, ...(h.tools ? { tools: h.tools } : {}), ...(h.model ? { model: h.model } : {}) };
    }
    case 'opencode': {
      const h = m.vendors.opencode ?? {};
      // OpenCode names agents by file; its front-matter has no `name`.
      return {
        description: m.description,
        mode: h.mode ?? 'subagent',
        ...(h.model ? { model: h.model } : {}),
        ...(h.tools ? { tools: h.tools } : {}),
      };
    }
    default: {
      const h = m.vendors[v] ?? {};
      return {
        ...base,
        ...(h.license ? { license: h.license } : {}),
        ...(h.compatibility ? { compatibility: h.compatibility } : {}),
        ...(h.metadata ? { metadata: h.metadata } : {}),
      };
    }
  }
}

/**
 * Problems of a front-matter under a vendor's rules: agent vendors' required and known keys (vendors.ts), and for
 * skill vendors the Agent Skills rules (`name` equal to the skill folder, `description` 1-1024 characters).
 */
export function frontMatterProblems(
  fm: FrontMatter,
  vendor: VendorSpec | undefined,
  folder: string,
): string[] {
  const out: string[] = [];
  const desc = fm.description;
  if (typeof desc !== 'string' || desc.trim() === '') out.push('description is required');
  if (!vendor) return out;
  if (vendor.kind === 'skill') {
    const name = fm.name;
    if (typeof name !== 'string' || name.length > 64 || !TEMPLATE_ID_RE.test(name))
      out.push(`name '${String(name)}' is not a skill name (1-64 lowercase letters, digits, single hyphens)`);
    else if (name !== folder) out.push(`name '${name}' must equal its folder '${folder}'`);
    if (typeof desc === 'string' && desc.length > SKILL_DESCRIPTION_MAX)
      out.push(`description is ${desc.length} characters; at most ${SKILL_DESCRIPTION_MAX}`);
    for (const k of Object.keys(fm))
      if (!SKILL_KEYS.includes(k)) out.push(`key '${k}' is not an Agent Skills key`);
    return out;
  }
  const rules = VENDORS[vendor.id].frontMatter ?? { required: [], optional: [] };
  for (const k of rules.required) if (fm[k] === undefined) out.push(`${k} is required by ${vendor.label}`);
  for (const k of Object.keys(fm))
    if (!rules.required.includes(k) && !rules.optional.includes(k))
      out.push(`key '${k}' is not read by ${vendor.label}`);
  return out;
}

/** `---\n<yaml>---\n\n<body>`: the artifact a vendor reads. */
export function withFrontMatter(fm: FrontMatter, body: string): string {
  const head = yaml().stringify(fm, { lineWidth: 0 });
  return `---\n${head}---\n\n${body.endsWith('\n') ? body : `${body}\n`}`;
}

/** Throws when the front-matter breaks the vendor's rules (a template whose hints the schema let through). */
export function checkFrontMatter(
  fm: FrontMatter,
  vendor: VendorSpec | undefined,
  folder: string,
  file: string,
): void {
  const problems = frontMatterProblems(fm, vendor, folder);
  if (problems.length > 0)
    throw new ValidationError(
      `agent template ${file}: front-matter for ${vendor?.label ?? 'export'}: ${problems.join('; ')}`,
      {
        file,
        field: 'vendors',
        value: vendor?.id ?? null,
        rule: 'vendor_front_matter',
        problems,
      },
    );
}
