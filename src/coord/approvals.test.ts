import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NotFoundError, RefusedError, ValidationError } from '../infra/index.js';
import { createLocalStore, createMemoryStore, type DocumentStore } from '../state/index.js';
import { type CoordDeps, eventsFeed, listApprovals, requestApproval, resolveApproval } from './index.js';

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const BACKENDS: Array<[string, () => DocumentStore]> = [
  ['memory', () => createMemoryStore()],
  [
    'local',
    () => {
      const root = mkdtempSync(join(tmpdir(), 'hub-approval-'));
      temps.push(root);
      return createLocalStore({ dir: join(root, '.hub') });
    },
  ],
];

describe.each(BACKENDS)('approvals on the %s store', (_name, make) => {
  const setup = (): CoordDeps => {
    let t = Date.parse('2026-03-01T10:00:00.000Z');
    const now = () => {
      t += 1000;
      return new Date(t);
    };
    return { store: make(), retries: 1, now };
  };

  it('queues a pending request; requested_by defaults to "agent"; the same idempotency key returns it', async () => {
    const deps = setup();
    const a = await requestApproval(deps, {
      action: 'deploy',
      payload: { env: 'prod' },
      idempotency_key: 'k1',
    });
    expect(a.created).toBe(true);
    expect(a.request).toMatchObject({
      action: 'deploy',
      requested_by: 'agent',
      payload: { env: 'prod' },
      status: 'pending',
      idempotency_key: 'k1',
    });
    expect(a.request.id).toMatch(/^apr-[0-9a-f]{12}$/);
    const again = await requestApproval(deps, { action: 'deploy', idempotency_key: 'k1' });
    expect(again).toEqual({ created: false, request: a.request });
    await requestApproval(deps, { action: 'drop table', requested_by: 'bob' });
    expect(await listApprovals(deps)).toHaveLength(2);
    await expect(requestApproval(deps, { action: ' ' })).rejects.toBeInstanceOf(ValidationError);
  });

  it('resolves once with a decision and note; pending list shrinks; all keeps it', async () => {
    const deps = setup();
    const { request } = await requestApproval(deps, { action: 'deploy' });
    const r = await resolveApproval(deps, { id: request.id, decision: 'approved', note: 'go', by: 'lead' });
    expect(r).toMatchObject({
      status: 'approved',
      decision: 'approved',
      resolver_note: 'go',
      resolved_by: 'lead',
    });
    expect(Date.parse(r.resolved_at!)).toBeGreaterThan(Date.parse(request.created_at));
    await expect(resolveApproval(deps, { id: request.id, decision: 'denied' })).rejects.toBeInstanceOf(
      RefusedError,
    );
    await expect(resolveApproval(deps, { id: 'apr-nope', decision: 'denied' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(await listApprovals(deps)).toEqual([]);
    expect(await listApprovals(deps, 'all')).toHaveLength(1);
  });

  it('records ApprovalRequested and ApprovalResolved in coord.events', async () => {
    const deps = setup();
    const { request } = await requestApproval(deps, { action: 'deploy' });
    await resolveApproval(deps, { id: request.id, decision: 'denied' });
    const feed = await eventsFeed(deps.store, {}, deps.now);
    expect(feed.events.filter((e) => e.source === 'approval').map((e) => e.kind)).toEqual([
      'ApprovalRequested',
      'ApprovalResolved',
    ]);
  });
});
