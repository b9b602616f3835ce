// Crash safety of the local backend: a writer SIGKILLed at a random instant never leaves a torn document or a
// lock that stays stuck.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStore, updateDocument } from '../src/state/index.js';
import { bundleProcess } from './fixtures/bundle-process.js';
import type { CrashDoc } from './fixtures/state-writer.js';

const ROUNDS = 40;
// Mirrors test/fixtures/state-writer.ts (importing its values would start its loop).
const DOC = 'crash';
const PAYLOAD_BYTES = 20_000;
const KEEP_ITEMS = 5;

let tmp: string;
let writer: string;

let bundled: { bundle: string; remove(): void } | undefined;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'hub-state-crash-'));
  bundled = await bundleProcess('state-writer.ts');
  writer = bundled.bundle;
});

afterAll(async () => {
  bundled?.remove();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** Throws unless `doc` is a whole document of the writer's shape. */
function checkShape(doc: unknown): CrashDoc {
  const d = doc as CrashDoc;
  expect(Number.isInteger(d.n) && d.n > 0, 'n').toBe(true);
  expect(Array.isArray(d.items), 'items').toBe(true);
  expect(d.items.length).toBe(Math.min(d.n, KEEP_ITEMS));
  d.items.forEach((item, i) => {
    expect(item.n).toBe(d.n - d.items.length + 1 + i);
    expect(item.payload.length).toBe(PAYLOAD_BYTES);
  });
  return d;
}

/** A loaded writer, waiting for `go()` to start writing. */
async function startWriter(
  hub: string,
): Promise<{ child: ChildProcess; stderr: () => string; go(): void; wrote: Promise<void> }> {
  const child = spawn(process.execPath, [writer, hub], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin!.on('error', () => {});
  let err = '';
  child.stderr!.on('data', (b: Buffer) => {
    err += b.toString();
  });
  let out = '';
  let wroteOnce: () => void;
  const wrote = new Promise<void>((r) => {
    wroteOnce = r;
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('ready\n')) resolve();
      if (out.includes('wrote\n')) wroteOnce();
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`writer exited early (${code ?? signal}): ${err}`)),
    );
  });
  return { child, stderr: () => err, go: () => child.stdin!.write('go\n'), wrote };
}

describe('local store under SIGKILL', () => {
  it(`never tears the document or leaves the lock stuck (${ROUNDS} rounds)`, async () => {
    const hub = join(tmp, '.hub');
    const file = join(hub, `${DOC}.json`);
    const lock = join(hub, 'locks', `${DOC}.lock`);
    const store = createLocalStore({ dir: hub, lockTimeoutMs: 20_000 });
    let last = 0;
    let writerUpdates = 0;
    let deadLocks = 0;

    // The next two writers load while the current round runs (a writer starts writing only on go()).
    const loading = [startWriter(hub), startWriter(hub)];
    for (let round = 0; round < ROUNDS; round++) {
      const { child, stderr, go, wrote } = await loading.shift()!;
      if (round + 2 < ROUNDS) loading.push(startWriter(hub));
      go();
      // Killed at a random instant after its first update, mostly while it writes the next ones: a sleep alone
      // (no wait for the first update) let a busy machine kill every writer before it wrote anything.
      await wrote;
      await sleep(Math.floor(Math.random() * 30));
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      const [code, signal] = (await exited) as [number | null, string | null];
      // Killed, not failed on its own.
      expect({ code, signal, stderr: stderr() }).toEqual({ code: null, signal: 'SIGKILL', stderr: '' });

      // The file is the old or the new version, never a torn one.
      let n = last;
      if (existsSync(file)) {
        const text = readFileSync(file, 'utf8');
        let doc: unknown;
        expect(() => {
          doc = JSON.parse(text);
        }, `round ${round}: ${text.length} bytes`).not.toThrow();
        n = checkShape(doc).n;
      }
      expect(n).toBeGreaterThanOrEqual(last);
      writerUpdates += n - last;
      if (existsSync(lock)) deadLocks++;

      // The next writer gets through: a lock the dead writer held is recovered.
      const { value } = await updateDocument<CrashDoc>(
        store,
        DOC,
        (cur) => {
          const next = (cur?.n ?? 0) + 1;
          const item = { n: next, by: process.pid, payload: 'z'.repeat(PAYLOAD_BYTES) };
          return {
            value: { n: next, items: [...(cur?.items ?? []), item].slice(-KEEP_ITEMS) },
            result: undefined,
          };
        },
        { retries: 3 },
      );
      expect(value.n).toBe(n + 1);
      checkShape(JSON.parse(readFileSync(file, 'utf8')));
      expect(existsSync(lock)).toBe(false);
      last = n + 1;
    }

    // The writers really were killed while writing, some of them holding the lock.
    expect(writerUpdates).toBeGreaterThan(0);
    console.error(
      `[state-crash] ${ROUNDS} rounds: ${writerUpdates} writer updates, ${deadLocks} locks left by a killed writer, ` +
        `${readdirSync(hub).filter((f) => f.endsWith('.tmp')).length} temp files left behind`,
    );
  }, 240_000); // 40 writer processes: slow only when the machine is loaded, never judged by time
});
