import * as z from 'zod';
import { HubError, RefusedError } from '../infra/index.js';
import { ACL, type AclDeps, aclDocument, updateAcl } from './records.js';
import { readWorktreeRecords, type WorktreeRecord } from './worktrees-record.js';

/**
 * Ports of worktrees (`coordination.worktree.ports`). Agents in parallel worktrees run the same dev server; each
 * worktree leases its own ports from the configured range so none collide. Ports are a machine's resource, so the
 * leases of one machine live in one document (`ports/<host key>`) whatever the repository: every grant is one
 * atomic update of it (compare-and-swap on http and dynamodb), which is what keeps two worktrees off one port.
 * An entry is keyed by the worktree's record id and lives as long as that record: destroy and gc release it; an
 * entry whose record never got written (a crash between the two updates) is reclaimed after PENDING_MS.
 */

/** `coordination.worktree.ports`. */
export interface WorktreePorts {
  count: number;
  range: readonly [number, number];
}

export const PortLeaseSchema = z.looseObject({
  worktree_id: z.string(),
  ports: z.array(z.number().int()),
  repository: z.string(),
  agent_id: z.string(),
  task_id: z.string(),
  path: z.string(),
  leased_at: z.string(),
});
export type PortLease = z.infer<typeof PortLeaseSchema>;

const PortsDocSchema = z.looseObject({ leases: z.array(PortLeaseSchema).default(() => []) });

/** How long a lease may wait for its worktree record before another creator may take its ports back. */
export const PENDING_MS = 10 * 60_000;

/** The document key of a machine: its name in the characters a document key allows. */
export function hostKey(host: string): string {
  const k = host.replace(/[^A-Za-z0-9_.~-]/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return (k || 'host').slice(0, 199);
}

export const portsDoc = (host: string) => aclDocument(ACL.ports, hostKey(host));

/** Whose ports a lease names (the holders of an exhausted range are listed with these). */
const holderOf = (l: PortLease) => ({
  worktree_id: l.worktree_id,
  repository: l.repository,
  agent_id: l.agent_id,
  task_id: l.task_id,
  ports: l.ports,
});

const exhausted = (cfg: WorktreePorts, free: number, leases: PortLease[]) => {
  const [low, high] = cfg.range;
  const shown = leases.slice(0, 20).map(holderOf);
  const names = shown.map(
    (h) => `${h.worktree_id} (${h.agent_id}, task ${h.task_id}: ${h.ports.join(', ')})`,
  );
  return new RefusedError(
    `coordination.worktree.ports: range [${low}, ${high}] has ${free} free port(s), a worktree needs ${cfg.count}; ` +
      `held by ${leases.length} worktree(s): ${names.join('; ')}${leases.length > shown.length ? '; ...' : ''}. ` +
      'Destroy a worktree you are done with (worktree destroy, worktree gc) or widen the range',
    {
      field: 'coordination.worktree.ports.range',
      value: [low, high],
      rule: 'ports_available',
      count: cfg.count,
      free,
      holders: shown,
    },
    409,
  );
};

/** A lease is still held while its worktree's record exists, or (not yet written) for PENDING_MS. */
function held(l: PortLease, records: ReadonlyMap<string, WorktreeRecord>, now: Date): boolean {
  if (records.has(l.worktree_id)) return true;
  return now.getTime() - Date.parse(l.leased_at) < PENDING_MS;
}

const CONFLICT_ROUNDS = 8;

/** `updateAcl` of the machine's ports document, retried on conflict as worktree records are (see updateWorktrees). */
async function updatePorts<R>(
  deps: AclDeps,
  host: string,
  fn: (doc: z.output<typeof PortsDocSchema>) => R,
): Promise<R> {
  for (let round = 1; ; round++) {
    try {
      return await updateAcl(deps, portsDoc(host), PortsDocSchema, fn);
    } catch (err) {
      if (!(err instanceof HubError && err.code === 'conflict') || round >= CONFLICT_ROUNDS) throw err;
      await new Promise((r) => setTimeout(r, Math.random() * 40 * round));
    }
  }
}

/**
 * Leases `cfg.count` ports of the range for a worktree about to be recorded: the lowest ones no held lease of this
 * machine names. Refused (409 `ports_available`, naming the range and its holders) when too few are free.
 */
export async function leasePorts(
  deps: AclDeps & { host: string },
  cfg: WorktreePorts,
  who: { worktree_id: string; repository: string; agent_id: string; task_id: string; path: string },
): Promise<number[]> {
  // Records read before the update: a record written since belongs to a lease younger than PENDING_MS, so it is
  // held either way.
  const records = new Map(
    (await readWorktreeRecords(deps)).filter((r) => r.host === deps.host).map((r) => [r.id, r]),
  );
  return updatePorts(deps, deps.host, (doc) => {
    const now = deps.now();
    doc.leases = doc.leases.filter((l) => held(l, records, now) && l.worktree_id !== who.worktree_id);
    const taken = new Set(doc.leases.flatMap((l) => l.ports));
    const [low, high] = cfg.range;
    const ports: number[] = [];
    for (let p = low; p <= high && ports.length < cfg.count; p++) if (!taken.has(p)) ports.push(p);
    if (ports.length < cfg.count) {
      let free = 0;
      for (let p = low; p <= high; p++) if (!taken.has(p)) free++;
      const inRange = doc.leases.filter((l) => l.ports.some((p) => p >= low && p <= high));
      throw exhausted(cfg, free, inRange);
    }
    doc.leases.push({ ...who, ports, leased_at: now.toISOString() });
    return ports;
  });
}

/** Gives a worktree's ports back (destroy, gc, a creation that failed). */
export async function releasePorts(deps: AclDeps, host: string, worktreeId: string): Promise<void> {
  await updatePorts(deps, host, (doc) => {
    doc.leases = doc.leases.filter((l) => l.worktree_id !== worktreeId);
  });
}
