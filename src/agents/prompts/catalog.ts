import { didYouMean, suggestionText } from '../../catalog/index.js';
import { ValidationError } from '../../infra/index.js';

/** Inputs a prompt may take (the `prompt show` fields). */
export const PROMPT_INPUTS = [
  'project',
  'repo',
  'component',
  'task',
  'template',
  'agent_id',
  'task_id',
  'graph_id',
] as const;
export type PromptInputName = (typeof PROMPT_INPUTS)[number];

/** One prompt hub generates: what it is for, what it needs, and where else hub serves it. */
export interface PromptSpec {
  name: string;
  summary: string;
  required: PromptInputName[];
  optional: PromptInputName[];
  /** Where hub uses the same text (so a person can see what agents get). */
  used_by: string[];
}

/** Every prompt `hub prompt show` prints, in the order `prompt list` shows them. */
export const PROMPTS: readonly PromptSpec[] = [
  {
    name: 'session-start',
    summary: 'What an agent does first in this workspace: begin a session, orient, resume, coordinate.',
    required: [],
    optional: [],
    used_by: ['MCP prompt hub_session_start', 'MCP resource hub://session/start-prompt'],
  },
  {
    name: 'repo-handoff',
    summary:
      'Hands one task in one repository to an agent: context, claims, out of scope, instructions, finish.',
    required: ['project', 'repo'],
    optional: ['component', 'task', 'template', 'agent_id'],
    used_by: ['agent dispatch-plan (handoff.prompt)'],
  },
  {
    name: 'task-dispatch',
    summary: 'Gives one task graph node to an agent: start, bind-acl, compiled context, complete or block.',
    required: ['task_id'],
    optional: ['graph_id', 'agent_id'],
    used_by: ['task graphs (hub task ..., hub schedule next)'],
  },
  {
    name: 'context-switch',
    summary: 'Orients an agent that switches to a project or repository: objective, instructions, profile.',
    required: ['project'],
    optional: ['repo'],
    used_by: ['context switch (prompt)', 'MCP hub_context_switch'],
  },
];

/** The prompt of a name, or a ValidationError naming the known ones (with "did you mean"). */
export function promptSpec(name: string): PromptSpec {
  const hit = PROMPTS.find((p) => p.name === name);
  if (hit) return hit;
  const names = PROMPTS.map((p) => p.name);
  throw new ValidationError(
    `name: unknown prompt '${name}'${suggestionText(didYouMean(name, names))}; known: ${names.join(', ')}`,
    { field: 'name', value: name, rule: 'known_prompt', known: names },
  );
}

/** Refuses inputs a prompt does not take, and missing required ones, naming the field. */
export function checkPromptInputs(spec: PromptSpec, given: Partial<Record<PromptInputName, unknown>>): void {
  for (const f of spec.required)
    if (given[f] === undefined)
      throw new ValidationError(`${f}: required by prompt ${spec.name}`, {
        field: f,
        rule: 'required',
        prompt: spec.name,
      });
  for (const f of PROMPT_INPUTS)
    if (given[f] !== undefined && !spec.required.includes(f) && !spec.optional.includes(f))
      throw new ValidationError(
        `${f}: prompt ${spec.name} does not take it (it takes ${[...spec.required, ...spec.optional].join(', ') || 'nothing'})`,
        { field: f, rule: 'not_taken', prompt: spec.name },
      );
}
