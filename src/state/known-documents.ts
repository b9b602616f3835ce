/**
 * The documents hub keeps, for `hub state migrate` on a backend that cannot enumerate a workspace (`listAll`):
 * the plain documents by name, and the collections whose documents `list` gives. Kept here rather than imported
 * from the rooms that own them (state is below every room); test/state-migrate.test.ts checks that a workspace
 * with every kind of record migrates whole.
 */
export const KNOWN_PLAIN_DOCUMENTS = [
  'objectives',
  'handoffs',
  'approvals',
  'coord.events',
  'session',
] as const;

export const KNOWN_COLLECTIONS = [
  // advisory coordination (ACL)
  'branches',
  'leases',
  'worktrees',
  'claims',
  'agents',
  'ports',
  'events',
  'concepts',
  // orchestration: task graphs, runs, routing, merges, scheduling
  'tasks',
  'task-contexts',
  'runs',
  'routing',
  'merges',
  'schedule',
] as const;
