import { ValidationError } from '../../infra/index.js';
import { yaml } from '../../model/index.js';
import { VENDORS, type VendorId, type VendorSpec } from '../vendors.js';
import { TEMPLATE_ID_RE, type TemplateManifest } from './schema.js';

export type FrontMatter = Record<string, unknown>;

/** Agent Skills: `name` 1-64 chars of lowercase letters, digits and single hyphens; `description` 1-1024. */
export const SKILL_DESCRIPTION_MAX = 1024;
const SKILL_KEYS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'];

/** The name of hub's MCP server in every vendor file hub writes (`mcp install`, `agent create --install-mcp`). */
export const HUB_MCP_SERVER = 'hub';

/**
 * The tools a server started with `--dynamic` adds: an installed agent lists and enables toolsets with them. They
 * belong to the MCP surface, which names them here so that agent files can allow them.
 */
export const DYNAMIC_TOOLS: readonly string[] = ['hub_toolsets_list', 'hub_toolsets_enable'];

/**
 * A hub MCP tool as a vendor's agent file names it in its tool allowlist: Claude Code `mcp__<server>__<tool>`,
 * GitHub Copilot `<server>/<tool>`, OpenCode `<server>_<tool>`; undefined for vendors without an allowlist.
 */
export function vendorToolName(vendor: VendorId, tool: string, server = HUB_MCP_SERVER): string | undefined {
  if (vendor === 'claude_code') return `mcp__${server}__${tool}`;
  if (vendor === 'github_copilot') return `${server}/${tool}`;
  if (vendor === 'opencode') return `${server}_${tool}`;
  return undefined;
}

/** The hub tools an agent of this template calls (its `mcp_tools`, then the dynamic pair), in `vendor`'s naming. */
export function allowedHubTools(m: TemplateManifest, vendor: VendorId): string[] {
  if (m.mcp_tools.length === 0) return [];
  return [...m.mcp_tools, ...DYNAMIC_TOOLS].flatMap((t) => vendorToolName(vendor, t) ?? []);
}

/** An allowlist with hub's tools added after the template's own (each once). */
const withHub = (own: readonly string[], hub: readonly string[]) => [...new Set([...own, ...hub])];

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
      // Claude Code reads `tools` as one comma-separated string; without one the agent may use every tool.
      return {
        ...base,
        ...(h.model ? { model: h.model } : {}),
        ...(h.tools ? { tools: withHub(h.tools, allowedHubTools(m, v)).join(', ') } : {}),
      };
    }
    case 'cursor': {
      const h = m.vendors.cursor ?? {};
      return { ...base, ...(h.model ? { model: h.model } : {}) };
    }
    case 'github_copilot': {
      const h = m.vendors.github_copilot ?? {};
      return {
        ...base,
        ...(h.tools ? { tools: withHub(h.tools, allowedHubTools(m, v)) } : {}),
        ...(h.model ? { model: h.model } : {}),
      };
    }
    case 'opencode': {
      const h = m.vendors.opencode ?? {};
      // OpenCode names agents by file; its front-matter has no `name`.
      return {
        description: m.description,
        mode: h.mode ?? 'subagent',
        ...(h.model ? { model: h.model } : {}),
        // A tools map turns tools off; hub's are named on, so a wildcard that turns others off leaves them.
        ...(h.tools
          ? { tools: { ...h.tools, ...Object.fromEntries(allowedHubTools(m, v).map((t) => [t, true])) } }
          : {}),
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
