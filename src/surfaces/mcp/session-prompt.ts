import type { ApprovalRequest, Handoff, Objective } from '../../coord/index.js';
import { invoke } from '../../ops/index.js';
import { type ResourceEnv, runOp, TextBody } from './resource-env.js';

/** Id of an operation that renders the session-start prompt, used instead of the text below once it exists. */
export const SESSION_PROMPT_OP = 'session.prompt';

const list = <T>(items: T[], show: (item: T) => string, max = 5): string =>
  items.length === 0
    ? 'none'
    : `${items.slice(0, max).map(show).join(', ')}${items.length > max ? ` and ${items.length - max} more` : ''}`;

/** The session-start prompt: what an agent should do first in this workspace, with the live coordination state. */
export async function sessionStartPrompt(env: ResourceEnv): Promise<TextBody> {
  const op = env.ops.find((o) => o.id === SESSION_PROMPT_OP);
  if (op) {
    const r = await invoke(op, env.ctx, {});
    const text = typeof r === 'string' ? r : ((r as { text?: unknown })?.text ?? JSON.stringify(r));
    return new TextBody(String(text), 'text/markdown');
  }
  const ws = env.ctx.workspace();
  const resume = await runOp<{ objective: Objective | null }>(env, 'context.resume');
  const { handoffs } = await runOp<{ handoffs: Handoff[] }>(env, 'context.handoff.list', { status: 'open' });
  const { requests } = await runOp<{ requests: ApprovalRequest[] }>(env, 'context.approval.list');
  const name = ws.file.manifest.workspace?.name ?? ws.file.manifest.name ?? 'this workspace';
  const projects = new Set(ws.catalog.repos.map((r) => r.project)).size;
  const o = resume.objective;
  const text = [
    `# Start of a work session in ${name}`,
    '',
    `Workspace root: ${ws.file.root} (${projects} projects, ${ws.catalog.repos.length} repositories, ` +
      `${ws.catalog.components.length} components).`,
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
    `Open handoffs: ${list(handoffs, (h) => `\`${h.id}\` ${h.title}`)}.`,
    `Pending approvals: ${list(requests, (a) => `\`${a.id}\` ${a.action}`)}.`,
    '',
  ].join('\n');
  return new TextBody(text, 'text/markdown');
}
