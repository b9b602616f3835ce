// Racing closers of one run through every surface that reaches the ledger: concurrent operations through a hub
// server (the http state backend, where the server applies the close atomically), real CLI processes on the local
// backend, and concurrent requests to the server's route. Exactly one closes the run each time; the others get
// 409 naming the outcome it has. (src/runs/close-race.test.ts races the domain on memory and local and shows the
// harness catches a close that is not atomic.)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext, invoke, type OpContext } from '../src/ops/index.js';
import { runClose, runExport, runList, runOpen, runShow } from '../src/ops/run-ops.js';
import { RUN_OUTCOMES } from '../src/runs/index.js';
import { buildWorkspace, hubAsync, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';

const RACERS = 8;
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) removeTempDir(t);
});

function workspace() {
  const ws = buildWorkspace({
    projects: [{ name: 'platform', repos: [{ name: 'identity', files: { 'README.md': '# identity\n' } }] }],
  });
  temps.push(ws.root);
  writeFileSync(join(ws.root, 'hub.config.yaml'), 'state:\n  backend: local\n');
  return ws;
}

interface Tally {
  wins: number[];
  refusedOutcomes: string[];
  others: string[];
}

function tally(settled: PromiseSettledResult<unknown>[]): Tally {
  const out: Tally = { wins: [], refusedOutcomes: [], others: [] };
  settled.forEach((s, i) => {
    if (s.status === 'fulfilled') out.wins.push(i);
    else {
      const e = s.reason as { code?: string; details?: { rule?: string; outcome?: string }; message: string };
      if (e.code === 'refused' && e.details?.rule === 'run_closed')
        out.refusedOutcomes.push(String(e.details.outcome));
      else out.others.push(e.message);
    }
  });
  return out;
}

const outcomeOf = (i: number) => RUN_OUTCOMES[i % RUN_OUTCOMES.length]!;

describe('racing closers through a hub server (http state backend)', () => {
  let server: ReturnType<typeof workspace>;
  let client: ReturnType<typeof workspace>;
  let srv: RunningServer;
  beforeAll(async () => {
    server = workspace();
    client = workspace();
    srv = await startTestServer({ root: server.root });
  });
  afterAll(async () => {
    await srv?.close();
  });

  const clientCtx = (): OpContext =>
    createContext({
      cwd: client.root,
      env: { HUB_CACHE_DIR: 'off', HUB_STATE_BACKEND: 'http', HUB_STATE_URL: srv.base },
      definition: client.manifestPath,
    });

  it('exactly one of 8 concurrent clients closes the run, 10 times over; the record is on the server', async () => {
    for (let r = 0; r < 10; r++) {
      const { run } = (await invoke(runOpen, clientCtx(), { actor: `opener-${r}` })) as {
        run: { run_id: string };
      };
      const t = tally(
        await Promise.allSettled(
          Array.from({ length: RACERS }, (_, i) =>
            invoke(runClose, clientCtx(), { id: run.run_id, outcome: outcomeOf(i), by: `closer-${i}` }),
          ),
        ),
      );
      expect(t.others).toEqual([]);
      expect(t.wins).toHaveLength(1);
      const winner = outcomeOf(t.wins[0]!);
      expect(t.refusedOutcomes).toEqual(Array(RACERS - 1).fill(winner));
      const stored = JSON.parse(readFileSync(join(server.root, '.hub/runs', `${run.run_id}.json`), 'utf8'));
      expect(stored.run).toMatchObject({
        status: 'closed',
        outcome: winner,
        closed_by: `closer-${t.wins[0]}`,
      });
    }
  });

  it('reads the evidence file on the client and stores it redacted on the server', async () => {
    const { run } = (await invoke(runOpen, clientCtx(), { actor: 'ev' })) as { run: { run_id: string } };
    const token = ['glpat', 'xY7zQ2wE9rT4yU1iO6pA'].join('-');
    writeFileSync(join(client.root, 'evidence.log'), `deploy ok\nGITLAB_TOKEN=${token}\n`);
    const ctx = clientCtx();
    await invoke(runClose, ctx, { id: run.run_id, outcome: 'landed', evidence_file: 'evidence.log' });
    const onServer = readFileSync(join(server.root, '.hub/runs', `${run.run_id}.json`), 'utf8');
    expect(onServer).not.toContain(token);
    expect(JSON.parse(onServer).run.evidence).toMatchObject({
      text: 'deploy ok\nGITLAB_TOKEN=***O6pA\n',
      redactions: 1,
    });
    const shown = (await invoke(runShow, clientCtx(), { id: run.run_id })) as { run: { outcome: string } };
    expect(shown.run.outcome).toBe('landed');
    // Listing and export are answered by the server (one request, not one per run), masked alike.
    const listed = (await invoke(runList, clientCtx(), { actor: 'ev' })) as {
      runs: Array<{ run_id: string }>;
    };
    expect(listed.runs.map((r) => r.run_id)).toEqual([run.run_id]);
    const exported = await invoke(runExport, clientCtx(), { id: run.run_id, format: 'jsonl' });
    expect(JSON.stringify(exported)).toContain('***O6pA');
    expect(JSON.stringify(exported)).not.toContain(token);
  });

  it('exactly one of 8 concurrent POST /v3/ops/runs/{id}/close requests wins', async () => {
    const opened = await call(srv.base, 'POST', '/v3/ops/runs', { body: { actor: 'http-opener' } });
    expect(opened.status, opened.text).toBe(200);
    const id = opened.json.run.run_id as string;
    const replies = await Promise.all(
      Array.from({ length: RACERS }, (_, i) =>
        call(srv.base, 'POST', `/v3/ops/runs/${id}/close`, { body: { outcome: outcomeOf(i) } }),
      ),
    );
    const ok = replies.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of replies.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.json.error.details).toMatchObject({ rule: 'run_closed', outcome: ok[0]!.json.run.outcome });
    }
  });
});

describe('racing closers as real CLI processes (local backend)', () => {
  it('exactly one process exits 0; the others exit 1 with 409 naming the outcome', async () => {
    const ws = workspace();
    const open = await hubAsync(ws.manifestPath, ['run', 'open', '--actor', 'opener', '--json']);
    expect(open.code, open.out).toBe(0);
    const id = JSON.parse(open.out).run.run_id as string;
    const runs = await Promise.all(
      Array.from({ length: RACERS }, (_, i) =>
        hubAsync(ws.manifestPath, ['run', 'close', '--id', id, '--outcome', outcomeOf(i), '--json']),
      ),
    );
    const winners = runs.filter((r) => r.code === 0);
    expect(winners).toHaveLength(1);
    const outcome = JSON.parse(winners[0]!.out).run.outcome;
    for (const r of runs.filter((x) => x.code !== 0)) {
      expect(r.code).toBe(1);
      expect(JSON.parse(r.out.slice(r.out.indexOf('{'))).error).toMatchObject({
        code: 'refused',
        details: { rule: 'run_closed', outcome },
      });
    }
  });
});
