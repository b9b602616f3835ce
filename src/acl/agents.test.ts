import { describe, expect, it } from 'vitest';
import { ValidationError } from '../infra/index.js';
import { createMemoryStore } from '../state/index.js';
import { listAgents, touchAgent } from './agents.js';
import { isLive } from './liveness.js';

describe('the agents registry', () => {
  it('records first and last seen, and lets an agent lapse after its TTL', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const deps = { store: createMemoryStore(), retries: 1, now: () => now };
    const first = await touchAgent(deps, 'agent-7', { ttl: '10m' });
    expect(first).toMatchObject({
      first_seen: '2026-01-01T00:00:00.000Z',
      expires_at: '2026-01-01T00:10:00.000Z',
    });
    now = new Date('2026-01-01T00:05:00Z');
    const again = await touchAgent(deps, 'agent-7');
    expect(again).toMatchObject({
      first_seen: first.first_seen,
      last_seen: '2026-01-01T00:05:00.000Z',
      ttl: '10m',
    });
    await touchAgent(deps, 'agent-2');
    now = new Date('2026-01-01T00:20:00Z');
    const list = await listAgents(deps);
    expect(list.map((a) => [a.agent_id, a.live])).toEqual([
      ['agent-2', true],
      ['agent-7', false],
    ]);
  });

  it('refuses an agent id that cannot name a document', async () => {
    const deps = { store: createMemoryStore(), retries: 1, now: () => new Date() };
    await expect(touchAgent(deps, '../x')).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('isLive', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  it('is true for an active holding until its expiry, false after and when released', () => {
    expect(isLive({ status: 'active', expires_at: '2026-01-01T00:00:01Z' }, now)).toBe(true);
    expect(isLive({ status: 'active', expires_at: '2026-01-01T00:00:00Z' }, now)).toBe(false);
    expect(isLive({ status: 'active' }, now)).toBe(true);
    expect(isLive({ status: 'released' }, now)).toBe(false);
  });
});
