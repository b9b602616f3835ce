import * as z from 'zod';
import { ValidationError } from '../../infra/index.js';

/**
 * Template ids double as file names (`<id>.md`) and as skill folder names, so they follow the Agent Skills name
 * rule: 1-64 lowercase letters, digits and single hyphens, no leading or trailing hyphen.
 */
export const TEMPLATE_ID_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const TEMPLATE_ID_MAX = 64;
/** Names of inputs and of the variables a `.tpl` may use. */
export const VARIABLE_RE = /^[a-z][a-z0-9_]*$/;

/** Bounds that keep an overlay from costing unbounded time or memory (docs/agents.md, Templates). */
export const TEMPLATE_LIMITS = {
  /** template.yaml of any layer. */
  manifestBytes: 128 * 1024,
  /** One `.tpl` file. */
  tplBytes: 256 * 1024,
  /** `.tpl` files in one template folder (each layer). */
  filesPerLayer: 64,
  /** Template folders in one root (bundled, committed overlays, local overlays). */
  templatesPerRoot: 256,
  /** Partials nest at most this deep (a body that includes a partial that includes one is depth 2). */
  partialDepth: 3,
  /** A rendered body or fragment, counted before rendering from the parts it would join. */
  renderedBytes: 1024 * 1024,
  /** An answers file, and one answer's value. */
  answersFileBytes: 64 * 1024,
  answerChars: 4096,
  /** Inputs one template declares. */
  inputs: 64,
} as const;

/** The files every template has, and the optional AGENTS.md fragment. */
export const BODY_FILE = 'body.md.tpl';
export const FRAGMENT_FILE = 'AGENTS.md.fragment.tpl';
export const MANIFEST_FILE = 'template.yaml';

/** Variables every template may use besides its inputs. */
export const BUILTIN_VARIABLES = [
  'id',
  'name',
  'description',
  'scope',
  'category',
  'vendor',
  'vendor_label',
  'vendor_is_agent',
  'vendor_is_skill',
] as const;

export const TEMPLATE_SCOPES = ['workspace', 'project', 'repo'] as const;
export const ARCHETYPES = ['control_plane', 'specialist'] as const;

const skillName = z
  .string()
  .max(64)
  .regex(TEMPLATE_ID_RE, 'a skill name is lowercase letters, digits and single hyphens');

const InputSchema = z.strictObject({
  question: z.string().min(1).max(300).describe('What to ask for this answer.'),
  description: z.string().max(1000).optional().describe('Why it matters; shown with the question.'),
  default: z
    .union([z.string().max(TEMPLATE_LIMITS.answerChars), z.number(), z.boolean()])
    .optional()
    .describe('Answer used when none is given (stringified).'),
  default_from: z
    .enum(['workspace_name', 'directory_name'])
    .optional()
    .describe('Take the default from the workspace: its manifest name, or its folder name.'),
  required: z.boolean().default(true).describe('An empty answer is refused when true.'),
});

const model = z.string().min(1).max(120);
const toolList = z.array(z.string().min(1).max(80)).max(64);

/** Per-vendor hints: only the front-matter keys each vendor reads (REFERENCE.md, "Coding-agent vendors"). */
const SkillHints = z.strictObject({
  license: z.string().min(1).max(200).optional(),
  compatibility: z.string().min(1).max(500).optional(),
  metadata: z.record(z.string().min(1).max(64), z.string().max(500)).optional(),
});
const VendorHintsSchema = z.strictObject({
  claude_code: z.strictObject({ model: model.optional(), tools: toolList.optional() }).optional(),
  cursor: z.strictObject({ model: model.optional() }).optional(),
  github_copilot: z.strictObject({ model: model.optional(), tools: toolList.optional() }).optional(),
  opencode: z
    .strictObject({
      mode: z.enum(['subagent', 'primary', 'all']).optional(),
      model: model.optional(),
      tools: z.record(z.string().min(1).max(80), z.boolean()).optional(),
    })
    .optional(),
  hermes: SkillHints.optional(),
  openclaw: SkillHints.optional(),
  windsurf: SkillHints.optional(),
  codex: SkillHints.optional(),
});

/** template.yaml, schema version 1: what the catalog lists and what rendering needs. */
export const TemplateManifestSchema = z.strictObject({
  schema_version: z
    .union([z.literal(1), z.string().regex(/^1(\.\d+)?$/, 'schema version 1 ("1" or "1.x")')])
    .describe('Schema version; only major 1 exists.'),
  id: z
    .string()
    .max(TEMPLATE_ID_MAX)
    .regex(TEMPLATE_ID_RE, 'lowercase letters, digits and single hyphens')
    .describe('Equals the folder name.'),
  name: z.string().min(1).max(80).describe('Human name.'),
  description: z.string().min(1).max(1024).describe('One paragraph; the description every vendor shows.'),
  archetype: z.enum(ARCHETYPES).default('specialist'),
  scope: z.enum(TEMPLATE_SCOPES).describe('Where the agent works: the workspace, a project, one repository.'),
  status: z.enum(['stable', 'beta']).default('stable'),
  version: z
    .string()
    .regex(/^\d+\.\d+\.\d+$/, 'major.minor.patch')
    .default('1.0.0'),
  ui: z.strictObject({
    category: z.string().min(1).max(60).describe('Catalog group (Control plane, Execution, ...).'),
    sort_order: z.number().int().min(0).max(10_000).default(100),
    icon: z.string().max(60).default(''),
  }),
  recommended_skills: z.array(skillName).max(32).default([]),
  external_skills: z
    .array(z.strictObject({ name: z.string().min(1).max(80), note: z.string().max(300).default('') }))
    .max(32)
    .default([]),
  mcp_tools: z
    .array(z.string().regex(/^hub_[a-z_]+$/, 'a hub MCP tool name (hub_...)'))
    .max(64)
    .default([]),
  delegates_to: z.array(z.string().regex(TEMPLATE_ID_RE, 'a template id')).max(32).default([]),
  inputs: z
    .record(z.string().max(64).regex(VARIABLE_RE, 'lowercase letters, digits and _'), InputSchema)
    .default({})
    .describe('Answers the templates use, by variable name.'),
  vendors: VendorHintsSchema.default({}).describe('Front-matter hints per vendor (model, tools, mode).'),
});

export type TemplateManifest = z.output<typeof TemplateManifestSchema>;
export type TemplateInput = z.output<typeof InputSchema>;
export type TemplateScope = (typeof TEMPLATE_SCOPES)[number];

/** The id, or a validation error naming the rule (ids are folder names: `../x` never reaches a path). */
export function checkTemplateId(id: string, field = 'id'): string {
  if (id.length > 0 && id.length <= TEMPLATE_ID_MAX && TEMPLATE_ID_RE.test(id)) return id;
  throw new ValidationError(
    `${field}: '${id.slice(0, 80)}' is not a template id (1-${TEMPLATE_ID_MAX} lowercase letters, digits and single hyphens)`,
    { field, value: id.slice(0, 200), rule: 'template_id' },
  );
}

/** The JSON Schema of template.yaml (`hub agent schema`, schemas/agent-template.schema.json). */
export function templateJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(TemplateManifestSchema, { io: 'input', target: 'draft-2020-12' }),
    $id: 'https://hub-workspace.dev/schemas/agent-template.schema.json',
    title: 'hub agent template (template.yaml, schema version 1)',
  };
}
