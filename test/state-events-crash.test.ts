// Crash safety of the local events log: writers SIGKILLed at random instants, some in the middle of an append,
// never leave a torn event, a gap or a duplicate sequence, and never lose an event whose append returned.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStore } from '../src/state/index.js';
import { bundleProcess } from './fixtures/bundle-process.js';
import { letGo } from './fixtures/logged-events.js';

const ROUNDS = 12;
let tmp: string;
let writer: string;

let bundled: { bundle: string; remove(): void } | undefined;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'hub-events-crash-'));
  bundled = await bundleProcess('event-writer.ts');
  writer = bundled.bundle;
});

afterAll(async () => {
  bundled?.remove();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

interface Writer {
  child: ChildProcess;
  acks: Map<number, string>;
  stderr: () => string;
  /** Resolves once the writer acknowledged at least `n` events. */
  acked(n: number): Promise<void>;
  go(): void;
}

async function startWriter(hub: string, name: string, mode?: 'change'): Promise<Writer> {
  const child = spawn(process.execPath, [writer, hub, name, ...(mode ? [mode] : [])], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin!.on('error', () => {});
  let err = '';
  child.stderr!.on('data', (b: Buffer) => {
    err += b.toString();
  });
  const acks = new Map<number, string>();
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  let out = '';
  let ready: () => void;
  const isReady = new Promise<void>((r) => {
    ready = r;
  });
  child.stdout!.on('data', (b: Buffer) => {
    out += b.toString();
    let nl = out.indexOf('\n');
    while (nl >= 0) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      if (line === 'ready') ready();
      const m = /^ack (\d+) (\S+)$/.exec(line);
      if (m) acks.set(Number(m[1]), m[2]!);
      for (const w of waiters.splice(0)) {
        if (acks.size >= w.n) w.resolve();
        else waiters.push(w);
      }
      nl = out.indexOf('\n');
    }
  });
  await Promise.race([
    isReady,
    once(child, 'exit').then(() => {
      throw new Error(`writer exited early: ${err}`);
    }),
  ]);
  return {
    child,
    acks,
    stderr: () => err,
    acked: (n) =>
      acks.size >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })),
    go: () => child.stdin!.write('go\n'),
  };
}

/**
 * Rounds of two writers (the next round's loading while one runs): each let to acknowledge once, then SIGKILLed at
 * a random instant of the appends that follow. `killed` sees each writer with how it exited; `after` runs after
 * each round.
 */
async function killRounds(
  hub: string,
  rounds: number,
  prefix: string,
  mode: 'change' | undefined,
  killed: (w: Writer, exit: [number | null, string | null]) => void,
  after: (round: number) => Promise<void>,
): Promise<void> {
  const load = (round: number) =>
    Promise.all([startWriter(hub, `${prefix}${round}a`, mode), startWriter(hub, `${prefix}${round}b`, mode)]);
  let loading = load(0);
  for (let round = 0; round < rounds; round++) {
    const writers = await loading;
    if (round + 1 < rounds) loading = load(round + 1);
    for (const w of writers) w.go();
    // Killed after a first acknowledged append, at a random instant of the ones that follow.
    await Promise.race(writers.map((w) => w.acked(1)));
    await sleep(Math.floor(Math.random() * 25));
    for (const w of writers) {
      const exited = once(w.child, 'exit');
      w.child.kill('SIGKILL');
      killed(w, (await exited) as [number | null, string | null]);
    }
    await after(round);
  }
}

describe('local events log under SIGKILL', () => {
  it(`0 torn, 0 gaps, 0 duplicates, 0 lost acknowledged events (${ROUNDS} rounds of two writers)`, async () => {
    const hub = join(tmp, '.hub');
    const store = createLocalStore({ dir: hub, lockTimeoutMs: 20_000, segmentEvents: 25 });
    const acked = new Map<number, string>();
    let tornSeen = 0;
    let mine = 0;
    const killed = (w: Writer, [code, signal]: [number | null, string | null]) => {
      expect({ code, signal, stderr: w.stderr() }).toEqual({ code: null, signal: 'SIGKILL', stderr: '' });
      for (const [seq, id] of w.acks) {
        expect(acked.has(seq), `sequence ${seq} acknowledged twice`).toBe(false);
        acked.set(seq, id);
      }
    };
    await killRounds(hub, ROUNDS, 'r', undefined, killed, async (round) => {
      // A half-written line may be left at the end of the newest segment: readers never serve it.
      const dir = join(hub, 'coord.events.log');
      const newest = readdirSync(dir)
        .filter((name) => name.endsWith('.jsonl'))
        .sort()
        .at(-1)!;
      const text = readFileSync(join(dir, newest), 'utf8');
      if (text !== '' && !text.endsWith('\n')) tornSeen++;

      // The next append (this process) repairs the tail and numbers on.
      const before = await store.events!.read();
      const { seq } = await store.events!.append({
        id: `parent-${round}`,
        timestamp: new Date().toISOString(),
        source: 'crash',
        kind: 'Check',
        data: {},
      });
      expect(seq).toBe(before.last_seq + 1);
      acked.set(seq!, `parent-${round}`);
      mine++;
    });
    const all = await store.events!.read();
    const seqs = all.events.map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    const byseq = new Map(all.events.map((e) => [e.seq, e.id]));
    for (const [seq, id] of acked) expect(byseq.get(seq), `acknowledged ${seq} ${id}`).toBe(id);
    // Every line of every segment is a whole event (the parent's appends cut what killed writers left).
    const dir = join(hub, 'coord.events.log');
    let lines = 0;
    for (const f of readdirSync(dir).filter((name) => name.endsWith('.jsonl'))) {
      const text = readFileSync(join(dir, f), 'utf8');
      expect(text === '' || text.endsWith('\n'), f).toBe(true);
      for (const line of text.split('\n').filter(Boolean)) {
        expect(() => JSON.parse(line), `${f}: ${line.slice(0, 60)}`).not.toThrow();
        lines++;
      }
    }
    expect(lines).toBe(seqs.length);
    expect(acked.size - mine).toBeGreaterThan(0);
    console.error(
      `[state-events-crash] ${ROUNDS} rounds: ${acked.size - mine} writer events acknowledged, ${all.events.length - acked.size} recorded but not acknowledged, ${tornSeen} torn tails cut`,
    );
  });
});

describe('document changes recorded through their outbox, under SIGKILL', () => {
  it('every change made has its event and every event its change; acknowledged ones are all there', async () => {
    const hub = join(tmp, 'changes', '.hub');
    mkdirSync(hub, { recursive: true });
    const store = createLocalStore({ dir: hub, lockTimeoutMs: 20_000, segmentEvents: 25 });
    const acked = new Map<number, string>();
    const killed = (w: Writer) => {
      expect(w.stderr()).toBe('');
      for (const [seq, id] of w.acks) acked.set(seq, id);
    };
    await killRounds(hub, 6, 'c', 'change', killed, async (round) => {
      // The next append puts right what a writer killed between its document and its line left.
      await store.events!.append({
        id: `parent-${round}`,
        timestamp: new Date().toISOString(),
        kind: 'Check',
      });
    });
    const all = await store.events!.read();
    const seqs = all.events.map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    const byseq = new Map(all.events.map((e) => [e.seq, e.id]));
    for (const [seq, id] of acked) expect(byseq.get(seq), `acknowledged ${seq} ${id}`).toBe(id);
    const made = (await store.read<{ ids: string[] }>('changes')).value!.ids;
    const recorded = all.events.filter((e) => e.kind === 'Change').map((e) => e.id);
    expect(new Set(made).size).toBe(made.length);
    expect([...recorded].sort()).toEqual([...made].sort());
    expect(acked.size).toBeGreaterThan(0);
  });
});

describe('local events log: a line a killed writer left half-written', () => {
  it('is never served, and the next append cuts it and takes its sequence', async () => {
    const hub = join(tmp, 'torn', '.hub');
    mkdirSync(hub, { recursive: true });
    const store = createLocalStore({ dir: hub });
    const ev = (id: string) => ({
      id,
      timestamp: new Date().toISOString(),
      source: 's',
      kind: 'K',
      data: {},
    });
    await store.events!.append(ev('a'));
    await store.events!.append(ev('b'));
    const seg = join(hub, 'coord.events.log', `${'1'.padStart(16, '0')}.jsonl`);
    await letGo();
    appendFileSync(seg, '{"id":"half","seq":3,"data":{"note":"é');
    expect((await store.events!.read()).events.map((e) => e.id)).toEqual(['a', 'b']);
    expect(await store.events!.read({ after: 2 })).toEqual({ events: [], first_seq: 1, last_seq: 2 });
    expect((await store.events!.append(ev('c'))).seq).toBe(3);
    const lines = readFileSync(seg, 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((l) => JSON.parse(l).id)).toEqual(['a', 'b', 'c']);
  });

  it('refuses to number on from a last line that is not an event, rather than give a sequence twice', async () => {
    const hub = join(tmp, 'bad', '.hub');
    mkdirSync(hub, { recursive: true });
    const store = createLocalStore({ dir: hub });
    await store.events!.append({ id: 'a', timestamp: new Date().toISOString(), source: 's', kind: 'K' });
    const seg = join(hub, 'coord.events.log', `${'1'.padStart(16, '0')}.jsonl`);
    await letGo();
    appendFileSync(seg, 'not json\n');
    await expect(store.events!.append({ id: 'b' })).rejects.toMatchObject({
      code: 'refused',
      details: { rule: 'log_last_line' },
    });
  });
});
