import { commandLine } from '../dispatch/shell.js';

/** A task graph node and what surrounds it, as the dispatch prompt needs them. */
export interface TaskDispatchInput {
  graph: { graph_id: string; title: string; goal?: string; acceptance: string[] };
  node: {
    node_id: string;
    title: string;
    status: string;
    repository?: string;
    component?: string;
    patterns?: string[];
    depends_on: string[];
    agent_id?: string;
    blocker_reason?: string;
  };
  objective: { id: string; title: string; status: string } | null;
  /** Holdings `task bind-acl` recorded on the node, when it is bound. */
  acl?: { branch?: string; worktree_path?: string; claim_ids: string[] } | null;
  /** The agent the prompt is for; the node's agent, else a `<agent-id>` placeholder. */
  agentId?: string;
  /** Layered instructions of the node's repository, composed (empty when none). */
  instructions: string;
}

/**
 * The prompt that gives one task graph node to an agent: the node in its graph (goal, acceptance, objective),
 * how to take it (start, bind-acl: branch, lease, worktree, claims), how to load its compiled context, and how
 * to finish or block it. Commands name the graph explicitly, so a node id that appears in two graphs is safe.
 */
export function taskDispatchPrompt(i: TaskDispatchInput): string {
  const { graph: g, node: n } = i;
  const agent = i.agentId ?? n.agent_id ?? '<agent-id>';
  const node = ['--graph-id', g.graph_id, '--node-id', n.node_id];
  const bound = i.acl && (i.acl.branch || i.acl.worktree_path || i.acl.claim_ids.length);
  const lines = [
    `# Task ${g.graph_id}/${n.node_id}: ${n.title}`,
    '',
    `Graph: ${g.title}${g.goal ? `. Goal: ${g.goal}` : ''}`,
    ...(i.objective ? [`Objective ${i.objective.id} [${i.objective.status}]: ${i.objective.title}`] : []),
    `Status: ${n.status}${n.blocker_reason ? ` (blocked: ${n.blocker_reason})` : ''}` +
      `${n.repository ? `; repository ${n.repository}` : ''}${n.component ? `, component ${n.component}` : ''}`,
    ...(n.depends_on.length ? [`Depends on: ${n.depends_on.join(', ')}`] : []),
    ...(n.patterns?.length ? [`Paths: ${n.patterns.join(', ')}`] : []),
  ];
  if (g.acceptance.length) lines.push('', '## Acceptance', ...g.acceptance.map((a) => `- ${a}`));
  lines.push('', '## Take it');
  if (n.status === 'ready' || n.status === 'pending')
    lines.push(`1. Start it: \`${commandLine(['hub', 'task', 'start', ...node, '--agent-id', agent])}\`.`);
  else
    lines.push(
      `1. It is ${n.status}${n.agent_id ? ` (agent ${n.agent_id})` : ''}: go on only if it is yours.`,
    );
  lines.push(
    bound
      ? `2. Already bound: branch ${i.acl!.branch ?? '-'}, worktree ${i.acl!.worktree_path ?? '-'}, ${i.acl!.claim_ids.length} claim(s).`
      : `2. Bind it (branch, lease, worktree, claims): \`${commandLine(['hub', 'task', 'bind-acl', ...node, '--agent-id', agent])}\`.`,
    `3. Load its context: \`${commandLine(['hub', 'context', 'compile', '--task-id', n.node_id, '--graph-id', g.graph_id, '--json'])}\`.`,
    `4. While you work: \`${commandLine(['hub', 'agent', 'heartbeat', '--agent-id', agent])}\`.`,
  );
  if (i.instructions) lines.push('', '## Instructions', '', i.instructions);
  lines.push(
    '',
    '## Finish',
    `- Done: \`${commandLine(['hub', 'task', 'complete', ...node, '--agent-id', agent])}\` (its dependants become ready).`,
    `- Stuck: \`${commandLine(['hub', 'task', 'block', ...node, '--agent-id', agent, '--reason', '<why>'])}\`.`,
  );
  return `${lines.join('\n')}\n`;
}
