import { describe, expect, it } from 'vitest';
import type { CoordDeps } from '../coord/index.js';
import { readRecordedEvents } from '../coord/index.js';
import { createMemoryStore } from '../state/index.js';
import { addClass } from './classes.js';
import { exportRuns } from './export.js';
import { listRuns, pageRuns, showRun } from './ledger-read.js';
import { closeRun, openRun, parseGates, replayRun } from './ledger-write.js';
import { RUN_ID_RE, runDocument } from './run-schema.js';

/** A memory store and a clock that moves 1 ms per reading, so ids sort in opening order. */
function deps(): CoordDeps {
  let t = Date.parse('2026-08-10T12:00:00.000Z');
  return { store: createMemoryStore(), retries: 1, now: () => new Date(t++) };
}

async function events(d: CoordDeps) {
  return readRecordedEvents(d.store);
}

describe('run open', () => {
  it('records an open run with a sortable id, event RunOpened (source run), and the actor as seen', async () => {
    const d = deps();
    const { run } = await openRun(d, {
      actor: 'agent-a',
      task_id: 't1',
      graph_id: 'g1',
      repository: 'platform/identity',
      branch: 'agent/t1',
      objective: 'fix login',
      tier: 'skilled',
      lane: 'code',
      session_id: 's-1',
      workdir: '/work/x',
    });
    expect(run.run_id).toMatch(RUN_ID_RE);
    expect(run.run_id.startsWith('run-20260810T120000.')).toBe(true);
    expect(run).toMatchObject({ status: 'open', actor: 'agent-a', tier: 'skilled', lane: 'code', gates: [] });
    expect((await d.store.read(runDocument(run.run_id))).value).toEqual({ run });
    expect(await events(d)).toEqual([
      expect.objectContaining({
        source: 'run',
        kind: 'RunOpened',
        subject: run.run_id,
        data: expect.objectContaining({ actor: 'agent-a', task_id: 't1', repository: 'platform/identity' }),
      }),
    ]);
    expect((await d.store.read<{ agent: { note: string } }>('agents/agent-a')).value?.agent.note).toBe(
      `run ${run.run_id}`,
    );
  });

  it('takes tier and lane from the class, and refuses an unknown class with a hint', async () => {
    const d = deps();
    await expect(openRun(d, { actor: 'a', class: 'REQ-docs' })).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('hub route add'),
    });
    await addClass(d, {
      id: 'REQ-docs',
      title: 'Docs',
      triggers: ['update docs'],
      tier: 'skilled',
      lane: 'docs',
    });
    const { run } = await openRun(d, { actor: 'a', class: 'REQ-docs' });
    expect(run).toMatchObject({ class: 'REQ-docs', tier: 'skilled', lane: 'docs' });
    await expect(openRun(d, { actor: 'a', class: 'REQ-doc' })).rejects.toMatchObject({
      details: { suggestions: ['REQ-docs'] },
    });
    expect((await openRun(d, { actor: 'a', class: 'REQ-docs', tier: 'novel' })).run.tier).toBe('novel');
  });

  it('refuses bad actors, branches and oversized text', async () => {
    const d = deps();
    await expect(openRun(d, { actor: '../x' })).rejects.toMatchObject({ details: { field: 'actor' } });
    await expect(openRun(d, { actor: 'a', branch: 'a..b' })).rejects.toMatchObject({
      details: { field: 'branch' },
    });
    await expect(openRun(d, { actor: 'a', objective: 'x'.repeat(5000) })).rejects.toMatchObject({
      details: { field: 'objective' },
    });
  });
});

describe('run close', () => {
  it('closes with outcome, gates, MR URL and evidence stored with secrets masked; event RunClosed', async () => {
    const d = deps();
    const { run } = await openRun(d, { actor: 'agent-a' });
    const token = ['ghp', 'R8x2Kq9LmZ4vT7pW1nB6cY3hJ5dF0sGaE2uQ'].join('_');
    const { run: closed } = await closeRun(d, {
      run_id: run.run_id,
      outcome: 'landed',
      mr_url: 'https://bot:hunter22@git.example.com/p/r/-/merge_requests/7',
      gates: ['lint=pass', 'test=fail', 'test=pass'],
      evidence: `ran tests\nGITHUB_TOKEN=${token}\n`,
      note: `used ${token}`,
      by: 'agent-a',
    });
    expect(closed).toMatchObject({
      status: 'closed',
      outcome: 'landed',
      closed_by: 'agent-a',
      gates: [
        { name: 'lint', result: 'pass' },
        { name: 'test', result: 'pass' },
      ],
      mr_url: 'https://bot:***er22@git.example.com/p/r/-/merge_requests/7',
      evidence: { text: 'ran tests\nGITHUB_TOKEN=***E2uQ\n', redactions: 1 },
      note: 'used ***E2uQ',
    });
    expect(JSON.stringify((await d.store.read(runDocument(run.run_id))).value)).not.toContain(token);
    const ev = (await events(d)).find((e) => e.kind === 'RunClosed');
    expect(ev).toMatchObject({
      source: 'run',
      subject: run.run_id,
      data: { outcome: 'landed', gates_failed: 0 },
    });
    expect(JSON.stringify(ev)).not.toContain('E2uQ');
  });

  it('refuses closing twice (409 naming the outcome), unknown ids with did-you-mean, and bad outcomes', async () => {
    const d = deps();
    const { run } = await openRun(d, { actor: 'a' });
    await closeRun(d, { run_id: run.run_id, outcome: 'noop' });
    await expect(closeRun(d, { run_id: run.run_id, outcome: 'landed' })).rejects.toMatchObject({
      code: 'refused',
      httpStatus: 409,
      details: { rule: 'run_closed', outcome: 'noop' },
    });
    const typo = `${run.run_id.slice(0, -1)}${run.run_id.endsWith('0') ? '1' : '0'}`;
    await expect(closeRun(d, { run_id: typo, outcome: 'landed' })).rejects.toMatchObject({
      code: 'not_found',
      details: { suggestions: [run.run_id] },
    });
    await expect(closeRun(d, { run_id: run.run_id, outcome: 'merged' as never })).rejects.toMatchObject({
      code: 'validation',
      details: { field: 'outcome' },
    });
    for (const bad of ['../../etc/passwd', 'runs/x', 'run-..', '..'])
      await expect(closeRun(d, { run_id: bad, outcome: 'landed' })).rejects.toMatchObject({
        code: 'validation',
        details: { field: 'run_id' },
      });
  });

  it('parses gates strictly', () => {
    expect(parseGates(['a=pass', 'b:c=fail'])).toEqual([
      { name: 'a', result: 'pass' },
      { name: 'b:c', result: 'fail' },
    ]);
    expect(() => parseGates(['lint'])).toThrow(/name=pass or name=fail/);
    expect(() => parseGates(['lint=ok'])).toThrow(/pass or fail/);
    expect(() => parseGates(['=pass'])).toThrow(/not a valid name/);
    expect(() => parseGates(Array.from({ length: 65 }, (_, i) => `g${i}=pass`))).toThrow(/at most 64/);
  });
});

describe('run list, show, replay and export', () => {
  async function ledger() {
    const d = deps();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const { run } = await openRun(d, { actor: i % 2 ? 'odd' : 'even', task_id: `t${i}` });
      ids.push(run.run_id);
      if (i < 4) await closeRun(d, { run_id: run.run_id, outcome: i === 1 ? 'bounced' : 'landed' });
    }
    return { d, ids };
  }

  it('lists newest first with filters, and pages with a cursor', async () => {
    const { d, ids } = await ledger();
    expect((await listRuns(d)).map((r) => r.run_id)).toEqual([...ids].reverse());
    expect((await listRuns(d, { open: true })).map((r) => r.task_id)).toEqual(['t6', 't5', 't4']);
    expect((await listRuns(d, { actor: 'odd', open: false })).map((r) => r.task_id)).toEqual(['t3', 't1']);
    expect((await listRuns(d, { outcome: 'bounced' })).map((r) => r.task_id)).toEqual(['t1']);
    const p1 = await pageRuns(d, {}, { limit: 3 });
    expect(p1.runs.map((r) => r.task_id)).toEqual(['t6', 't5', 't4']);
    expect(p1.next_cursor).toBe(ids[4]);
    const p2 = await pageRuns(d, {}, { limit: 3, cursor: p1.next_cursor! });
    expect(p2.runs.map((r) => r.task_id)).toEqual(['t3', 't2', 't1']);
    const p3 = await pageRuns(d, {}, { limit: 3, cursor: p2.next_cursor! });
    expect(p3).toMatchObject({ count: 1, next_cursor: null });
    // Exactly a page left: no next page announced.
    expect((await pageRuns(d, { actor: 'even' }, { limit: 4 })).next_cursor).toBeNull();
    await expect(pageRuns(d, {}, { limit: 0 })).rejects.toMatchObject({ details: { field: 'limit' } });
    await expect(pageRuns(d, {}, { cursor: 'x/..' })).rejects.toMatchObject({ details: { field: 'cursor' } });
  });

  it('shows a run, and suggests the closest id for an unknown one', async () => {
    const { d, ids } = await ledger();
    expect((await showRun(d, ids[2]!)).run.task_id).toBe('t2');
    const typo = `${ids[2]!.slice(0, -2)}${ids[2]!.endsWith('00') ? '11' : '00'}`;
    await expect(showRun(d, typo)).rejects.toMatchObject({
      code: 'not_found',
      details: { suggestions: expect.arrayContaining([ids[2]]) },
    });
  });

  it('replays a run as a new open run linked replay_of, leaving the original as it was', async () => {
    const d = deps();
    await addClass(d, { id: 'REQ-fix', title: 'Fix', triggers: ['fix bug'], tier: 'skilled' });
    const { run } = await openRun(d, {
      actor: 'a1',
      class: 'REQ-fix',
      task_id: 't1',
      repository: 'p/r',
      branch: 'agent/t1',
      objective: 'fix it',
      lane: 'code',
      session_id: 'sess',
      workdir: '/w',
    });
    await closeRun(d, { run_id: run.run_id, outcome: 'failed' });
    const before = (await d.store.read(runDocument(run.run_id))).value;
    const r = await replayRun(d, { run_id: run.run_id, actor: 'a2' });
    expect(r.replay_of).toBe(run.run_id);
    expect(r.run).toMatchObject({
      status: 'open',
      actor: 'a2',
      class: 'REQ-fix',
      task_id: 't1',
      repository: 'p/r',
      branch: 'agent/t1',
      objective: 'fix it',
      tier: 'skilled',
      lane: 'code',
      replay_of: run.run_id,
    });
    expect(r.run.session_id).toBeUndefined();
    expect(r.run.run_id).not.toBe(run.run_id);
    expect((await d.store.read(runDocument(run.run_id))).value).toEqual(before);
    expect((await events(d)).filter((e) => e.kind === 'RunReplayed')).toEqual([
      expect.objectContaining({
        subject: r.run.run_id,
        data: expect.objectContaining({ replay_of: run.run_id }),
      }),
    ]);
    expect((await replayRun(d, { run_id: run.run_id })).run.actor).toBe('a1');
  });

  it('exports json and jsonl with secrets masked, even in records another tool wrote', async () => {
    const { d, ids } = await ledger();
    const token = ['xoxb', '2048193726-5512093847120-Hq7ZxLmP2vN9sR4tK8wY1cB3'].join('-');
    // A record written by another tool, straight into the store, with secrets in the clear.
    const name = runDocument(ids[0]!);
    const doc = (await d.store.read<{ run: Record<string, unknown> }>(name)).value!;
    const etag = (await d.store.read(name)).etag!;
    await d.store.write(
      name,
      { run: { ...doc.run, note: `slack ${token}`, env: { API_TOKEN: 'plain-secret-1234' } } },
      etag,
    );
    const json = await exportRuns(d, {});
    expect(json).toMatchObject({ format: 'json', count: 7 });
    const text = JSON.stringify(json);
    expect(text).not.toContain(token);
    expect(text).not.toContain('plain-secret');
    if (json.format !== 'json') throw new Error('json');
    expect(json.runs[0]!.run_id).toBe(ids[0]);
    const lines = await exportRuns(d, { format: 'jsonl', actor: 'odd' });
    if (lines.format !== 'jsonl') throw new Error('jsonl');
    expect(
      lines.text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).task_id),
    ).toEqual(['t1', 't3', 't5']);
    const one = await exportRuns(d, { run_id: ids[0]! });
    expect(one.count).toBe(1);
    await expect(exportRuns(d, { run_id: ids[0]!, actor: 'odd' })).rejects.toMatchObject({
      details: { rule: 'id_or_filters' },
    });
    await expect(exportRuns(d, { format: 'csv' as never })).rejects.toMatchObject({
      details: { field: 'format' },
    });
  });
});
