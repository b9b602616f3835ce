// The state layer's findings of the outside probe (issue 25): a planted lock that blocked writes forever, one bad
// record that broke its whole document, a state server's error echoing the bearer token, and appends that grew a
// document past its bound or evicted the events feed. A correct hub takes the writes and refuses the rest cleanly.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const T = '2026-01-01T00:00:00.000Z';
const objective = (id, status = 'pending') => ({
  id,
  title: id,
  status,
  repos: [],
  created_at: T,
  updated_at: T,
});

/** The worst of several judged runs: a crash over unclean over refused over accepted. */
function worst(...judged) {
  const rank = ['accepted', 'refused', 'unclean', 'crash'];
  return judged.reduce((a, b) => (rank.indexOf(b.verdict) > rank.indexOf(a.verdict) ? b : a));
}

export const cases = [
  {
    name: '.hub/locks/objectives.lock planted by a clone (dated in the future, another host): objective set still writes',
    expect: 'accepted',
    run: async (kit) => {
      const { root, manifestPath } = kit.demo();
      mkdirSync(join(root, '.hub', 'locks'), { recursive: true });
      // As a clone leaves it: the file is new (checkout time), its content is the planter's.
      writeFileSync(
        join(root, '.hub', 'locks', 'objectives.lock'),
        JSON.stringify({ pid: 1, host: 'build-7', token: 'x', at: Date.now() + 365 * 86_400_000 }),
      );
      const r = await kit.hub(
        ['-c', manifestPath, 'context', 'objective', 'set', '--id', 'x', '--title', 'X', '--json'],
        { timeoutMs: 30_000 },
      );
      return kit.judgeCli(r);
    },
  },
  {
    name: 'objectives.json with one record of status "bogus": list and set serve and keep the rest',
    expect: 'accepted',
    run: async (kit) => {
      const { root, manifestPath } = kit.demo();
      mkdirSync(join(root, '.hub'), { recursive: true });
      const file = join(root, '.hub', 'objectives.json');
      writeFileSync(file, JSON.stringify({ objectives: [objective('a'), objective('bad', 'bogus')] }));
      const list = kit.judgeCli(
        await kit.hub(['-c', manifestPath, 'context', 'objective', 'list', '--json']),
      );
      const set = kit.judgeCli(
        await kit.hub(['-c', manifestPath, 'context', 'objective', 'set', '--id', 'b', '--title', 'B']),
      );
      const out = worst(list, set);
      if (out.verdict !== 'accepted') return out;
      const kept = JSON.parse(readFileSync(file, 'utf8')).objectives.map((o) => o.id);
      return kept.join() === 'a,bad,b'
        ? { verdict: 'accepted', detail: 'served the rest, kept the bad record' }
        : { verdict: 'unclean', detail: `stored ids ${kept.join()}` };
    },
  },
  {
    name: 'a state server whose errors echo the bearer token: the CLI prints none of it',
    expect: 'refused',
    run: async (kit) => {
      const token = 'probe-token-SECRET-4242';
      const server = createServer((req, res) => {
        res.writeHead(400, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            error: {
              code: 'validation',
              message: `bad: echo ${req.headers.authorization}`,
              details: { auth: req.headers.authorization },
            },
          }),
        );
      });
      await new Promise((r) => server.listen(0, '127.0.0.1', r));
      try {
        const { manifestPath } = kit.demo();
        const url = `http://127.0.0.1:${server.address().port}`;
        const env = { HUB_STATE_BACKEND: 'http', HUB_STATE_URL: url, HUB_STATE_TOKEN: token };
        const runs = [
          await kit.hub(['-c', manifestPath, 'context', 'objective', 'list', '--json'], { env }),
          await kit.hub(['-c', manifestPath, 'context', 'objective', 'list'], { env }),
        ];
        const leaked = runs.find((r) => `${r.stdout}${r.stderr}`.includes('SECRET'));
        if (leaked) return { verdict: 'unclean', detail: 'the token was printed' };
        return worst(...runs.map((r) => kit.judgeCli(r)));
      } finally {
        server.close();
      }
    },
  },
  {
    name: 'POST /v3/ops/state/notes/items past 8 MiB, and a 2 MB event: refused, nothing evicted',
    expect: 'refused',
    run: async (kit) => {
      const { root } = kit.demo();
      const srv = await kit.server(root);
      try {
        const item = { blob: 'x'.repeat(1024 * 1024 - 100) };
        let grown;
        for (let i = 0; i < 12 && !grown; i++) {
          const r = await kit.request(srv.base, 'POST', '/v3/ops/state/notes/items', { body: item });
          if (r.status !== 200) grown = r;
        }
        if (!grown) return { verdict: 'accepted', detail: 'the document grew past 8 MiB' };
        const ev = (id, data = {}) => ({ id, timestamp: T, source: 's', kind: 'K', data });
        for (let i = 0; i < 20; i++)
          await kit.request(srv.base, 'POST', '/v3/ops/state/coord.events/events', { body: ev(`e${i}`) });
        const big = await kit.request(srv.base, 'POST', '/v3/ops/state/coord.events/events', {
          body: ev('big', { note: 'y'.repeat(2 * 1024 * 1024) }),
        });
        const feed = await kit.request(srv.base, 'GET', '/v3/ops/events');
        const kept = feed.json?.events?.filter((e) => e.seq !== undefined).length;
        if (big.status === 200 || kept !== 20)
          return { verdict: 'accepted', detail: `the big event was taken; ${kept} of 20 events left` };
        return worst(kit.judgeHttp(grown), kit.judgeHttp(big));
      } finally {
        await srv.close();
      }
    },
  },
];
