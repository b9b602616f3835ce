// The campaign plan as a real task graph (memory store): one node per repository with its patterns and budget,
// the reference implementation first, the others waiting on it when the campaign says so.
import { describe, expect, it } from 'vitest';
import type { HubError } from '../infra/index.js';
import { createMemoryStore } from '../state/index.js';
import { completeNode, createGraph, readGraph } from '../taskgraph/index.js';
import { campaignGraphId, planCampaignGraph } from './index.js';

const deps = () => ({ store: createMemoryStore(), retries: 3, now: () => new Date() });
const rows = [
  { repository: 'web/app', patterns: ['src/**'] },
  { repository: 'core/api', budget: 3000 },
  { repository: 'core/worker' },
];

describe('planCampaignGraph', () => {
  it('reference first: its node is ready alone, the others become ready when it completes', async () => {
    const d = deps();
    const input = planCampaignGraph({
      slug: 'rename-flag',
      title: 'Rename the flag',
      goal: 'One flag name everywhere',
      rows,
      reference: 'core/api',
      reference_first: true,
      budget: 8000,
    });
    expect(input.graph_id).toBe('campaign-rename-flag');
    expect(input.items).toEqual([
      {
        node_id: 'core-api',
        title: 'Rename the flag: core/api (reference implementation)',
        repository: 'core/api',
        patterns: ['**'],
        priority: 100,
        context_budget: 3000,
      },
      {
        node_id: 'web-app',
        title: 'Rename the flag: web/app',
        repository: 'web/app',
        patterns: ['src/**'],
        priority: 0,
        context_budget: 8000,
        depends_on: ['core-api'],
      },
      {
        node_id: 'core-worker',
        title: 'Rename the flag: core/worker',
        repository: 'core/worker',
        patterns: ['**'],
        priority: 0,
        context_budget: 8000,
        depends_on: ['core-api'],
      },
    ]);
    const w = await createGraph(d, input);
    expect(w.ready).toEqual(['core-api']);
    const done = await completeNode(d, {
      graph_id: 'campaign-rename-flag',
      node_id: 'core-api',
      force: true,
    });
    expect(done.ready.sort()).toEqual(['core-worker', 'web-app']);
    const g = await readGraph(d, 'campaign-rename-flag');
    expect(g.graph).toMatchObject({ title: 'Rename the flag', goal: 'One flag name everywhere' });
  });

  it('without reference_first every row is ready at once, the reference still ranked first', async () => {
    const d = deps();
    const input = planCampaignGraph({ slug: 's', title: 'T', rows, reference: 'core/worker' });
    expect(input.items!.map((i) => [i.node_id, i.priority, i.depends_on])).toEqual([
      ['core-worker', 100, undefined],
      ['web-app', 0, undefined],
      ['core-api', 0, undefined],
    ]);
    expect((await createGraph(d, input)).ready.sort()).toEqual(['core-api', 'core-worker', 'web-app']);
  });

  it('node ids stay valid and unique; bad input is refused by field', () => {
    const input = planCampaignGraph({
      slug: 'x'.repeat(64),
      title: 'T',
      rows: [{ repository: 'a.b/c' }, { repository: 'a-b/c' }],
    });
    expect(input.graph_id).toBe(campaignGraphId('x'.repeat(64)));
    expect(input.graph_id!.length).toBeLessThanOrEqual(63);
    expect(input.items!.map((i) => i.node_id)).toEqual(['a-b-c', 'a-b-c-2']);
    const refused = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as HubError).details;
      }
      return undefined;
    };
    expect(refused(() => planCampaignGraph({ slug: 's', title: 'T', rows: [] }))).toMatchObject({
      field: 'repos',
    });
    expect(refused(() => planCampaignGraph({ slug: 's', title: 'T', rows, reference: 'x/y' }))).toMatchObject(
      {
        field: 'reference',
      },
    );
    expect(
      refused(() => planCampaignGraph({ slug: 's', title: 'T', rows, reference_first: true })),
    ).toMatchObject({ field: 'reference_first' });
  });
});
