import { sessionStartPrompt as renderSessionStart } from '../../agents/index.js';
import type { ApprovalRequest, Handoff, Objective } from '../../coord/index.js';
import { invoke } from '../../ops/index.js';
import { type ResourceEnv, runOp, TextBody } from './resource-env.js';

/** The operation that renders hub's prompts (`hub prompt show`); the session-start prompt is one of them. */
export const SESSION_PROMPT_OP = 'prompt.show';

/** The session-start prompt: what an agent should do first in this workspace, with the live coordination state. */
export async function sessionStartPrompt(env: ResourceEnv): Promise<TextBody> {
  const op = env.ops.find((o) => o.id === SESSION_PROMPT_OP);
  if (op) {
    const r = await invoke(op, env.ctx, { name: 'session-start' });
    const text = typeof r === 'string' ? r : ((r as { text?: unknown })?.text ?? JSON.stringify(r));
    return new TextBody(String(text), 'text/markdown');
  }
  // A registry without the prompt operation (a trimmed build): the same generator over the same reads.
  const ws = env.ctx.workspace();
  const resume = await runOp<{ objective: Objective | null }>(env, 'context.resume');
  const { handoffs } = await runOp<{ handoffs: Handoff[] }>(env, 'context.handoff.list', { status: 'open' });
  const { requests } = await runOp<{ requests: ApprovalRequest[] }>(env, 'context.approval.list');
  const text = renderSessionStart({
    workspaceName: ws.file.manifest.workspace?.name ?? ws.file.manifest.name ?? 'this workspace',
    root: ws.file.root,
    projects: new Set(ws.catalog.repos.map((r) => r.project)).size,
    repositories: ws.catalog.repos.length,
    components: ws.catalog.components.length,
    objective: resume.objective,
    handoffs,
    approvals: requests,
  });
  return new TextBody(text, 'text/markdown');
}
