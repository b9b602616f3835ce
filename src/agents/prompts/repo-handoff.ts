import { commandLine } from '../dispatch/shell.js';

/** A live claim of another agent: paths the agent handed this prompt must not edit. */
export interface ForeignClaim {
  claim_id: string;
  agent_id: string;
  patterns: string[];
  expires_at: string;
  task_id?: string;
}

export interface RepoHandoffInput {
  /** The agent the work goes to (a template), when the prompt is for one. */
  agent?: { id: string; label: string };
  project: string;
  repo: string;
  component?: string | null;
  /** The checkout folder, when the repository is on disk. */
  path?: string | null;
  task: string;
  /** The agent id to put in commands; a `<agent-id>` placeholder when unknown. */
  agentId?: string;
  /** `hub context pack ...` and `hub context compile ...` command lines for this repository. */
  packCommand: string;
  compileCommand: string;
  /** Layered agent_instructions, composed (empty when none). */
  instructions: string;
  profile?: { skills: string[]; mcp: string[]; rules: string[] } | null;
  /** Other repositories of the workspace (how many), live claims of other agents here, the agent's own limits. */
  outOfScope: { otherRepositories: number; claims: ForeignClaim[]; limits: string[] };
}

/** Claims listed in the prompt; the dispatch plan carries them all. */
const CLAIMS_SHOWN = 20;

/**
 * The prompt that hands one task in one repository to an agent: where to work, how to load context and claim
 * paths, what is out of scope (other repositories, paths other agents claim, the agent's own limits), the
 * layered instructions and profile, and how to finish. Plain Markdown: a person can read it, paste it or edit it.
 */
export function repoHandoffPrompt(i: RepoHandoffInput): string {
  const id = `${i.project}/${i.repo}`;
  const agent = i.agentId ?? '<agent-id>';
  const where = `repository ${id}${i.component ? `, component ${i.component}` : ''}${i.path ? ` (${i.path})` : ''}`;
  const claim = commandLine([
    'hub',
    'claim',
    'declare',
    '--repository',
    id,
    '--agent-id',
    agent,
    ...(i.component ? ['--component', i.component] : ['--pattern', '<glob>']),
  ]);
  const lines = [
    `# Hand-off: ${i.task}`,
    '',
    i.agent
      ? `You are ${i.agent.label} (\`${i.agent.id}\`), working in ${where}.`
      : `You are working in ${where}.`,
    `Task: ${i.task}`,
    '',
    '## Start',
    `1. \`${commandLine(['hub', 'session', 'begin', '--project-name', i.project])}\`: what changed since the last session.`,
    `2. Load context: \`${i.packCommand}\`${i.component ? `, then \`${i.compileCommand}\` for the component` : ''}.`,
    `3. Before editing, claim the paths: \`${claim}\`. A refusal names the agent holding them: pick other paths or hand off.`,
    `4. While you work, keep your claims live: \`${commandLine(['hub', 'agent', 'heartbeat', '--agent-id', agent])}\`.`,
    '',
    '## Out of scope',
    i.outOfScope.otherRepositories > 0
      ? `- Every other repository of the workspace (${i.outOfScope.otherRepositories}): do not edit them; hand changes there over with \`hub context handoff create\`.`
      : '- Nothing outside this repository.',
    ...i.outOfScope.claims
      .slice(0, CLAIMS_SHOWN)
      .map(
        (c) =>
          `- ${c.patterns.join(', ')}: claimed by ${c.agent_id} until ${c.expires_at}${c.task_id ? ` (task ${c.task_id})` : ''}.`,
      ),
    ...(i.outOfScope.claims.length > CLAIMS_SHOWN
      ? [
          `- ${i.outOfScope.claims.length - CLAIMS_SHOWN} more claimed path sets: \`${commandLine(['hub', 'claim', 'list', '--repository', id])}\`.`,
        ]
      : []),
    ...i.outOfScope.limits.map((l) => `- ${l}`),
  ];
  if (i.instructions) lines.push('', '## Instructions', '', i.instructions);
  const p = i.profile;
  if (p && (p.skills.length || p.mcp.length || p.rules.length)) {
    lines.push('', '## Agent profile');
    if (p.skills.length) lines.push(`- Skills: ${p.skills.join(', ')}`);
    if (p.mcp.length) lines.push(`- MCP servers: ${p.mcp.join(', ')}`);
    if (p.rules.length) lines.push(`- Rules: ${p.rules.join(', ')}`);
  }
  lines.push(
    '',
    '## Finish',
    '- Record where you left off: `hub context objective set --id <objective-id> --left-off "..." --next "..."`.',
    `- Release your claims: \`${commandLine(['hub', 'claim', 'release', '--agent-id', agent, '--repository', id])}\`.`,
    '- Hand over what is left: `hub context handoff create --title "..."`.',
  );
  return `${lines.join('\n')}\n`;
}
