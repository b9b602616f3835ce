/** What the session-start prompt says about the workspace and its live coordination state. */
export interface SessionStartInput {
  workspaceName: string;
  root: string;
  projects: number;
  repositories: number;
  components: number;
  objective: { id: string; status: string; title: string } | null;
  handoffs: Array<{ id: string; title: string }>;
  approvals: Array<{ id: string; action: string }>;
}

const list = <T>(items: T[], show: (item: T) => string, max = 5): string =>
  items.length === 0
    ? 'none'
    : `${items.slice(0, max).map(show).join(', ')}${items.length > max ? ` and ${items.length - max} more` : ''}`;

/**
 * The session-start prompt: what an agent should do first in this workspace, with the objective to resume, the
 * open handoffs and the pending approvals. Served by MCP (`hub_session_start`, `hub://session/start-prompt`) and
 * by `hub prompt show session-start`.
 */
export function sessionStartPrompt(i: SessionStartInput): string {
  const o = i.objective;
  return [
    `# Start of a work session in ${i.workspaceName}`,
    '',
    `Workspace root: ${i.root} (${i.projects} projects, ${i.repositories} repositories, ` +
      `${i.components} components).`,
    '',
    '1. Call `hub_session_begin` once: it reports what changed since the last session.',
    '2. Orient with the resource `hub://workspace/map` (projects and repositories).',
    o
      ? `3. Resume objective \`${o.id}\` [${o.status}]: ${o.title}. \`hub_context_resume\` shows its notes.`
      : '3. No objective yet: record yours with `hub_objective_upsert` (title, repos).',
    '4. Before editing a file, `hub_component_resolve` its path; before changing a component, `hub_component_graph` it.',
    '5. Record progress with `hub_objective_upsert` (left_off, next, blockers); hand over with `hub_handoff_create`.',
    '6. Ask with `hub_approval_request` before an action that needs a person, and wait for the decision.',
    '',
    `Open handoffs: ${list(i.handoffs, (h) => `\`${h.id}\` ${h.title}`)}.`,
    `Pending approvals: ${list(i.approvals, (a) => `\`${a.id}\` ${a.action}`)}.`,
    '',
  ].join('\n');
}
