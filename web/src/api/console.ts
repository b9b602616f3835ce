// Hooks of the routes the Workspace Console calls: handoffs, claims, pending approvals (and their resolution),
// worktrees, leases and the agents registry (docs/coordination.md, docs/http.md). The events feed is the shared
// live feed (live-events.ts).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { useWholeList } from './query';

export interface HandoffEvent {
  at: string;
  by: string;
  action: string;
  note?: string;
}

export interface Handoff {
  id: string;
  title: string;
  status: 'open' | 'claimed' | 'completed' | 'cancelled';
  created_by: string;
  created_at: string;
  updated_at: string;
  payload: Record<string, unknown>;
  events: HandoffEvent[];
  claimed_by?: string;
  claimed_at?: string;
  claim_ttl?: string;
  claim_expires_at?: string | null;
  last_heartbeat_at?: string;
}

export interface Claim {
  claim_id: string;
  repository: string;
  agent_id: string;
  task_id?: string;
  component?: string;
  patterns: string[];
  status: string;
  ttl: string;
  expires_at: string | null;
  created_at: string;
}

export interface ApprovalRequest {
  id: string;
  action: string;
  requested_by: string;
  payload: Record<string, unknown>;
  status: 'pending' | 'approved' | 'denied';
  created_at: string;
  resolved_at?: string;
  decision?: string;
  resolved_by?: string;
  resolver_note?: string;
}

export interface Worktree {
  id: string;
  path: string;
  repository: string;
  branch: string | null;
  agent_id: string;
  task_id: string;
  status: string;
  state?: string;
  current_path?: string;
  expires_at?: string | null;
  created_at: string;
}

export interface Lease {
  lease_id: string;
  repository: string;
  agent_id: string;
  task_id: string;
  branch: string | null;
  status: string;
  ttl: string;
  expires_at: string;
  acquired_at: string;
}

export interface AgentRecord {
  agent_id: string;
  live: boolean;
  last_seen: string | null;
  expires_at: string | null;
  note?: string;
  holds: { branches: unknown[]; leases: unknown[]; worktrees: unknown[]; claims: unknown[] };
}

const live = (refetchInterval: number | false) => ({ refetchInterval, staleTime: 0 });

/** GET /v3/ops/handoffs?status=: open or claimed handoffs, an expired claim shown released. */
export function useHandoffs(status: 'open' | 'claimed', refetchInterval: number | false) {
  return useWholeList<{ handoffs: Handoff[] }>(
    '/v3/ops/handoffs',
    'handoffs',
    { status },
    live(refetchInterval),
  );
}

/** GET /v3/ops/claims: live file claims of every repository. */
export function useClaims(refetchInterval: number | false) {
  return useWholeList<{ claims: Claim[] }>('/v3/ops/claims', 'claims', undefined, live(refetchInterval));
}

/** GET /v3/ops/approvals: the pending queue. */
export function usePendingApprovals(refetchInterval: number | false) {
  return useWholeList<{ requests: ApprovalRequest[] }>(
    '/v3/ops/approvals',
    'requests',
    undefined,
    live(refetchInterval),
  );
}

/** GET /v3/ops/worktrees: every recorded worktree with where it stands. */
export function useWorktrees(refetchInterval: number | false) {
  return useWholeList<{ worktrees: Worktree[] }>(
    '/v3/ops/worktrees',
    'worktrees',
    undefined,
    live(refetchInterval),
  );
}

/** GET /v3/ops/leases: live leases. */
export function useLeases(refetchInterval: number | false) {
  return useWholeList<{ leases: Lease[] }>('/v3/ops/leases', 'leases', undefined, live(refetchInterval));
}

/** GET /v3/ops/agents: the agents registry (who is live, what each holds). */
export function useAgentRegistry(refetchInterval: number | false) {
  return useWholeList<{ agents: AgentRecord[] }>(
    '/v3/ops/agents',
    'agents',
    undefined,
    live(refetchInterval),
  );
}

/** POST /v3/ops/approvals/{id}/resolve, then the queue is read again. */
export function useResolveApproval() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string; decision: 'approved' | 'denied'; note?: string; by?: string }) =>
      api<{ request: ApprovalRequest }>(`/v3/ops/approvals/${encodeURIComponent(v.id)}/resolve`, {
        method: 'POST',
        body: {
          decision: v.decision,
          ...(v.note ? { note: v.note } : {}),
          ...(v.by ? { by: v.by } : {}),
        },
      }),
    onSettled: () => client.invalidateQueries({ queryKey: ['/v3/ops/approvals'] }),
  });
}
