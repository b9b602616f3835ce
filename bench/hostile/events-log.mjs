// Hostile events logs a cloned workspace can ship in `.hub/coord.events.log/` (and its lock in `.hub/locks/`):
// garbage and torn lines, one huge line, a symlinked segment or log folder pointing outside, JSON nested past any
// reader's depth, names that are not the log's, a planted lock. A correct hub records and reads around what it can
// set aside, refuses clearly what it cannot (naming the file), never writes outside the workspace and never
// answers `internal` for what a file caused. The same cases run as tests in test/trust-events-log.test.ts.
import { execFileSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

const SEG = (n) => `${String(n).padStart(16, '0')}.jsonl`;
const line = (seq, extra = {}) =>
  `${JSON.stringify({ id: `e${seq}`, timestamp: new Date().toISOString(), source: 's', kind: 'K', data: {}, seq, ...extra })}\n`;

/** The log folder of a demo workspace, created. */
function logDir(root) {
  const d = join(root, '.hub', 'coord.events.log');
  mkdirSync(d, { recursive: true });
  return d;
}

/** The demo with `make(root)` applied; records (`objective set`) and reads (`context events`); the worst verdict. */
async function logCase(kit, make, check) {
  const { root, manifestPath } = kit.demo();
  const made = make(root, kit);
  const set = kit.judgeCli(
    await kit.hub(
      ['-c', manifestPath, 'context', 'objective', 'set', '--id', 'x', '--title', 'X', '--json'],
      {
        timeoutMs: 30_000,
      },
    ),
  );
  const read = kit.judgeCli(
    await kit.hub(['-c', manifestPath, 'context', 'events', '--after-seq', '0', '--json'], {
      timeoutMs: 30_000,
    }),
  );
  const bad = check?.(root, made);
  if (bad) return { verdict: 'crash', detail: bad };
  const order = ['crash', 'unclean', 'refused', 'accepted'];
  return order.indexOf(set.verdict) <= order.indexOf(read.verdict) ? set : read;
}

export const cases = [
  {
    name: 'a segment with garbage lines in the middle and a torn last line: set aside, recorded after them',
    expect: 'accepted',
    run: (kit) =>
      logCase(kit, (root) => {
        writeFileSync(
          join(logDir(root), SEG(1)),
          `${line(1)}garbage\n{"seq":"two"}\n[1,2]\n${line(2)}{"id":"torn","seq":3,"da`,
        );
      }),
  },
  {
    name: 'a segment whose last line is garbage: recording refused naming the segment (never a sequence twice)',
    expect: 'refused',
    run: (kit) =>
      logCase(kit, (root) => {
        writeFileSync(join(logDir(root), SEG(1)), `${line(1)}not an event\n`);
      }),
  },
  {
    name: 'one huge line (a 6 MiB segment): refused naming the file, never read whole',
    expect: 'refused',
    run: (kit) =>
      logCase(kit, (root) => {
        writeFileSync(join(logDir(root), SEG(1)), `${'x'.repeat(6 * 1024 * 1024)}\n`);
      }),
  },
  {
    name: 'one huge event line within a segment (3 MiB of JSON): read as it is, recorded after it',
    expect: 'accepted',
    run: (kit) =>
      logCase(kit, (root) => {
        writeFileSync(
          join(logDir(root), SEG(1)),
          `${line(1)}${line(2, { data: { note: 'y'.repeat(3 * 1024 * 1024) } })}${line(3)}`,
        );
      }),
  },
  {
    name: 'a segment that is a symlink to a file outside the workspace: never read or written',
    expect: 'refused',
    run: (kit) => {
      const outside = join(kit.tempDir('hub-hostile-log-out-'), 'victim.jsonl');
      const victim = line(1, { secret: 'outside' });
      writeFileSync(outside, victim);
      return logCase(
        kit,
        (root) => symlinkSync(outside, join(logDir(root), SEG(1))),
        () => (readFileSync(outside, 'utf8') === victim ? undefined : 'the file outside was written'),
      );
    },
  },
  {
    name: 'the log folder is a symlink to a folder outside the workspace: nothing written there',
    expect: 'refused',
    run: (kit) => {
      const outside = kit.tempDir('hub-hostile-log-dir-');
      return logCase(
        kit,
        (root) => {
          mkdirSync(join(root, '.hub'), { recursive: true });
          symlinkSync(outside, join(root, '.hub', 'coord.events.log'));
        },
        () => (readdirSync(outside).length === 0 ? undefined : 'wrote into the folder outside'),
      );
    },
  },
  {
    name: 'a line of JSON nested 100,000 deep in the middle of a segment: set aside',
    expect: 'accepted',
    run: (kit) =>
      logCase(kit, (root) => {
        const deep = `{"seq":2,"id":"deep","data":${'['.repeat(100_000)}${']'.repeat(100_000)}}\n`;
        writeFileSync(join(logDir(root), SEG(1)), `${line(1)}${deep}${line(3)}`);
      }),
  },
  {
    name: 'files in the log folder that are not segments (other names, a folder, a FIFO, seq 0, past 2^53): ignored',
    expect: 'accepted',
    run: (kit) =>
      logCase(
        kit,
        (root) => {
          const d = logDir(root);
          writeFileSync(join(d, SEG(1)), line(1));
          writeFileSync(join(d, `${SEG(1)}.bak`), 'junk\n');
          writeFileSync(join(d, 'notes.txt'), 'junk\n');
          writeFileSync(join(d, '1.jsonl'), line(5));
          writeFileSync(join(d, SEG(0)), line(0));
          writeFileSync(join(d, '9999999999999999.jsonl'), '');
          mkdirSync(join(d, SEG(7)));
          execFileSync('mkfifo', [join(d, SEG(9))]);
        },
        (root) => {
          // Recorded after event 1 of the one real segment; no file made from a name that was not the log's.
          const d = join(root, '.hub', 'coord.events.log');
          const seqs = readFileSync(join(d, SEG(1)), 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l).seq);
          if (seqs.join() !== '1,2') return `segment 1 holds sequences ${seqs.join()}`;
          const names = readdirSync(d).sort().join();
          // hub's own files besides the segments: the marker (and the registry, once a change carried an outbox).
          const own = ['recovery.json', 'outboxes.json'].filter((f) => names.split(',').includes(f));
          if (!own.includes('recovery.json')) return 'no marker written';
          const planted = [
            ...own,
            SEG(0),
            SEG(1),
            `${SEG(1)}.bak`,
            SEG(7),
            SEG(9),
            '1.jsonl',
            '9999999999999999.jsonl',
            'notes.txt',
          ];
          return names === planted.sort().join() ? undefined : `the log folder now holds ${names}`;
        },
      ),
  },
  {
    name: 'a planted log lock naming a live process, fresh: broken once stale, then recorded',
    expect: 'accepted',
    run: (kit) =>
      logCase(kit, (root) => {
        const locks = join(root, '.hub', 'locks');
        mkdirSync(locks, { recursive: true });
        const lock = join(locks, 'coord.events.log.lock');
        writeFileSync(lock, JSON.stringify({ pid: 1, host: 'elsewhere', token: 't', at: Date.now() }));
        // Dated 8 s ago: stale (10 s untouched) within the writer's 15 s wait.
        const t = new Date(Date.now() - 8_000);
        utimesSync(lock, t, t);
      }),
  },
  {
    name: "the marker is a symlink to a file outside the workspace: replaced by hub's own, the file outside untouched",
    expect: 'accepted',
    run: (kit) => {
      const outside = join(kit.tempDir('hub-hostile-marker-'), 'victim.json');
      writeFileSync(outside, 'victim');
      return logCase(
        kit,
        (root) => symlinkSync(outside, join(logDir(root), 'recovery.json')),
        (root) => {
          if (readFileSync(outside, 'utf8') !== 'victim') return 'the file outside was written';
          const marker = join(root, '.hub', 'coord.events.log', 'recovery.json');
          return lstatSync(marker).isFile() ? undefined : 'the marker is still not a file of its own';
        },
      );
    },
  },
  {
    name: 'the outbox registry names documents outside the state folder, a linked one, and 10,000 junk names',
    expect: 'accepted',
    run: (kit) => {
      const outside = join(kit.tempDir('hub-hostile-registry-'), 'evil.json');
      // An outbox numbering on from an empty log: were it read, its event would enter the feed.
      writeFileSync(outside, JSON.stringify({ 'hub:outbox': [{ id: 'from-outside', seq: 1, kind: 'K' }] }));
      return logCase(
        kit,
        (root) => {
          const names = [
            '../../outside',
            '/etc/passwd',
            'evil',
            ...Array.from({ length: 10_000 }, (_, i) => `x${i}`),
          ];
          writeFileSync(join(logDir(root), 'outboxes.json'), JSON.stringify(names));
          symlinkSync(outside, join(root, '.hub', 'evil.json'));
        },
        (root) => {
          const seg = readFileSync(join(root, '.hub', 'coord.events.log', SEG(1)), 'utf8');
          return seg.includes('from-outside')
            ? 'an outbox outside the state folder was read into the log'
            : undefined;
        },
      );
    },
  },
  {
    name: 'the log lock is a symlink to /dev/zero: refused at once',
    expect: 'refused',
    run: (kit) =>
      logCase(kit, (root) => {
        const locks = join(root, '.hub', 'locks');
        mkdirSync(locks, { recursive: true });
        symlinkSync('/dev/zero', join(locks, 'coord.events.log.lock'));
      }),
  },
];
