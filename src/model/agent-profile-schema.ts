import * as z from 'zod';

/** The eight coding-agent vendors hub installs for (see docs/decisions.md). */
export const VENDOR_IDS = [
  'claude_code',
  'cursor',
  'github_copilot',
  'opencode',
  'hermes',
  'openclaw',
  'windsurf',
  'codex',
] as const;

/** Skill ids follow the Agent Skills name rule: lowercase letters, digits and single hyphens, 1-64 chars. */
export const SKILL_ID_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** MCP server ids as vendors' config files key them. */
export const MCP_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** Rule ids may be namespaced with slashes (`security/no-secrets`). */
export const RULE_ID_RE = /^[a-z0-9][a-z0-9._-]*(?:\/[a-z0-9][a-z0-9._-]*)*$/;

/** Builds the schemas; zod takes milliseconds per schema at construction, so this runs on first use only. */
function buildAgentProfileSchema() {
  // Ids are plain strings here so that a bad id is reported by `config validate` with its line, not as a load failure.
  const AgentProfileSchema = z
    .strictObject({
      skills: z.array(z.string()).optional().describe('Skill ids the agent should have installed.'),
      mcp: z.array(z.string()).optional().describe('MCP server ids the agent should be able to call.'),
      rules: z.array(z.string()).optional().describe('Rule ids (instructions) that apply.'),
      vendors: z.array(z.enum(VENDOR_IDS)).optional().describe('Vendors this profile targets.'),
      tier: z
        .union([z.literal(0), z.literal(1), z.literal(2)])
        .optional()
        .describe('Context pack tier to hand over.'),
      inherit: z.boolean().optional().describe('false stops inheritance from the enclosing scopes.'),
    })
    .describe('Inheritable agent profile: workspace -> project -> repo -> component.');

  return AgentProfileSchema;
}

let built: ReturnType<typeof buildAgentProfileSchema> | undefined;

/** The agent profile schema, built on first use. */
export function agentProfileSchema(): ReturnType<typeof buildAgentProfileSchema> {
  built ??= buildAgentProfileSchema();
  return built;
}

export type AgentProfile = z.infer<ReturnType<typeof buildAgentProfileSchema>>;
