// The merge queue through the http state backend: a hub server keeps merges/<repo key> and applies each state
// change (enqueue, claim, finish) atomically on its own store; the client merges in its own checkout. Integrators
// racing for one request through the server leave exactly one winner.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnyOperation, createContext, invoke } from '../src/ops/index.js';
import { mergeEnqueue, mergeIntegrate, mergeStatus } from '../src/ops/merge-ops.js';
import { branchWith, buildWorkspace, git, headOfBranch, removeTempDir } from './fixtures/index.js';
import { type RunningServer, startTestServer } from './http-server.js';

const spec = {
  projects: [{ name: 'platform', repos: [{ name: 'identity', files: { 'README.md': '# identity\n' } }] }],
};
let server: ReturnType<typeof buildWorkspace>;
let client: ReturnType<typeof buildWorkspace>;
let srv: RunningServer;
const R = 'platform/identity';

beforeAll(async () => {
  server = buildWorkspace(spec);
  client = buildWorkspace(spec);
  writeFileSync(join(server.root, 'hub.config.yaml'), 'state:\n  backend: local\n');
  // No compare-and-swap retries on the client: a change the server applies never needs one.
  writeFileSync(join(client.root, 'hub.config.yaml'), 'state:\n  conflict_retries: 0\n');
  srv = await startTestServer({ root: server.root });
  git(client.repoDirs[R]!, ['branch', 'integration']);
});
afterAll(async () => {
  await srv?.close();
  removeTempDir(server.root);
  removeTempDir(client.root);
});

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever result the operation returned.
const run = (op: AnyOperation, input: Record<string, unknown>): Promise<any> => {
  const env = {
    HUB_CACHE_DIR: 'off',
    HUB_STATE_BACKEND: 'http',
    HUB_STATE_URL: srv.base,
    PATH: process.env.PATH ?? '',
  };
  return invoke(op, createContext({ cwd: client.root, env, definition: client.manifestPath }), input);
};
const onServer = (): { merges: Array<{ merge_id: string; status: string; attempts: number }> } =>
  JSON.parse(readFileSync(join(server.root, '.hub', 'merges', 'platform~identity.json'), 'utf8'));

describe('the merge queue through a hub server', () => {
  it('records on the server and merges in the client checkout', async () => {
    const repo = client.repoDirs[R]!;
    branchWith(repo, 'agent/h1', 'main', { 'h1.txt': 'h1\n' });
    const q = await run(mergeEnqueue, { repository: R, branch: 'agent/h1', into: 'integration' });
    expect(q).toMatchObject({ created: true, merge: { status: 'queued' } });
    expect(onServer().merges.map((m) => m.status)).toEqual(['queued']);
    const done = await run(mergeIntegrate, { merge_id: q.merge.merge_id });
    expect(done.merge).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(headOfBranch(repo, 'integration')).toBe(done.merge.commit_sha);
    expect(onServer().merges[0]).toMatchObject({ status: 'succeeded', attempts: 1 });
    // The server's own checkout never saw the branch.
    expect(headOfBranch(server.repoDirs[R]!, 'integration')).toBeUndefined();
    const list = await run(mergeStatus, { repository: R, status: 'succeeded' });
    expect(list.merges.map((m: { merge_id: string }) => m.merge_id)).toEqual([q.merge.merge_id]);
  });

  it('leaves one winner when integrators race for one request through the server', async () => {
    const repo = client.repoDirs[R]!;
    for (let round = 0; round < 3; round++) {
      branchWith(repo, `agent/race${round}`, 'integration', { [`race${round}.txt`]: 'x\n' });
      const q = await run(mergeEnqueue, { repository: R, branch: `agent/race${round}`, into: 'integration' });
      const outcomes = await Promise.allSettled(
        [0, 1, 2].map(() => run(mergeIntegrate, { merge_id: q.merge.merge_id })),
      );
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const o of outcomes)
        if (o.status === 'rejected') expect((o.reason as { code: string }).code).toBe('refused');
      const stored = onServer().merges.find((m) => m.merge_id === q.merge.merge_id)!;
      expect(stored).toMatchObject({ status: 'succeeded', attempts: 1 });
    }
  });
});
