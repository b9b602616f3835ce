// Coordination state for the Agents and Console browser tests, made through the real CLI on a fresh copy of the
// demo workspace: objectives in every status, a claimed and an open handoff, a file claim, a lease (with its
// branch) and a worktree, and two pending approvals.
import { join } from 'node:path';
import { createDemo } from '../../examples/demo-workspace.mjs';
import { type HubRun, runHub } from '../run-hub.js';

export function hubIn(root: string, args: string[]): HubRun {
  const r = runHub(args, { cwd: root });
  if (r.code !== 0) throw new Error(`hub ${args.join(' ')} exited ${r.code}: ${r.stderr || r.stdout}`);
  return r;
}

export interface Seeded {
  root: string;
  /** Approval ids by action. */
  approvals: Record<string, string>;
}

/** A demo workspace in `dir` with the coordination state above. */
export function seedCoordination(dir: string): Seeded {
  const { root } = createDemo(join(dir, 'demo'));
  const hub = (...args: string[]) => hubIn(root, args);
  hub(
    'context',
    'objective',
    'set',
    '--id',
    'auth-refresh',
    '--title',
    'Add token refresh',
    '--status',
    'in_progress',
    '--repos',
    'platform/identity',
    '--acceptance',
    'Tokens refresh before expiry',
  );
  hub('context', 'objective', 'set', '--id', 'docs-pass', '--title', 'Docs pass');
  hub(
    'context',
    'objective',
    'set',
    '--id',
    'infra-wait',
    '--title',
    'Wait for the cluster',
    '--status',
    'blocked',
    '--blockers',
    'waiting on infra',
  );
  hub('context', 'objective', 'set', '--id', 'old-ui', '--title', 'Retire the old UI', '--status', 'done');
  hub('context', 'objective', 'set', '--id', 'dropped', '--title', 'Dropped idea', '--status', 'cancelled');
  hub(
    'context',
    'handoff',
    'create',
    '--id',
    'ho-review',
    '--title',
    'Review the auth change',
    '--created-by',
    'agent-a',
    '--payload',
    '{"objective_id":"auth-refresh"}',
  );
  hub(
    'context',
    'handoff',
    'create',
    '--id',
    'ho-notes',
    '--title',
    'Write migration notes',
    '--created-by',
    'agent-b',
  );
  hub('context', 'handoff', 'claim', '--id', 'ho-review', '--by', 'agent-b', '--ttl', '2h');
  hub(
    'claim',
    'declare',
    '--repository',
    'platform/identity',
    '--agent-id',
    'agent-a',
    '--component',
    'api',
    '--task-id',
    'auth-refactor',
    '--ttl',
    '1h',
  );
  hub(
    'lease',
    'acquire',
    '--repository',
    'platform/identity',
    '--agent-id',
    'agent-a',
    '--task-id',
    'auth-refactor',
    '--allocate',
    '--ttl',
    '1h',
  );
  hub(
    'worktree',
    'create',
    '--repository',
    'platform/identity',
    '--agent-id',
    'agent-a',
    '--task-id',
    'auth-refactor',
    '--branch',
    'agent/auth-refactor',
  );
  const approvals: Record<string, string> = {};
  for (const [action, by] of [
    ['deploy identity to prod', 'agent-a'],
    ['rotate signing keys', 'agent-b'],
  ] as const) {
    const r = hub('context', 'approval', 'request', '--action', action, '--requested-by', by, '--json');
    approvals[action] = r.json().request.id;
  }
  return { root, approvals };
}
