// Hostile input for the HTTP server itself (issue 25): a cloned hub.config.yaml that names the server token, weak
// tokens on a public bind, the token of `web serve --open` in the opener's argv, and a page of another origin (or
// one greedy client) holding the event-stream slots. A correct hub refuses each; for the argv case `refused` means
// no token is shown and the one-time code opens the server once.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const STRONG = '7c1e9a4f0b2d8c6e5a3f1b9d7e0c2a4f6b8d0e2c4a6f8b0d2e4c6a8f0b2d4e6c';
const STREAM = '/v3/ops/events/stream?poll_ms=60000';

/** `web serve --status-once` beyond loopback: binding is what a weak or borrowed token would allow. */
function publicBind(kit, root, env) {
  return kit.hub(['web', 'serve', '--root', root, '--host', '0.0.0.0', '--port', '0', '--status-once'], {
    cwd: root,
    env: { HUB_CONFIG_DIR: kit.tempDir('hub-hostile-user-'), ...env },
  });
}

/** Opens a stream and keeps it open: `{status, close()}` (the body of a refusal read as the documented error). */
async function holdStream(base, headers = {}) {
  const abort = new AbortController();
  try {
    const res = await fetch(`${base}${STREAM}`, { headers, signal: abort.signal });
    if (res.ok) return { status: res.status, close: () => abort.abort() };
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, text, json, close: () => {} };
  } catch (err) {
    return { status: 0, error: String(err?.cause?.code ?? err?.message), close: () => {} };
  }
}

export const cases = [
  {
    name: 'a cloned hub.config.yaml naming server.token, then web serve --host 0.0.0.0',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      writeFileSync(join(root, 'hub.config.yaml'), `server:\n  token: ${STRONG}\n`);
      return kit.judgeCli(await publicBind(kit, root, {}));
    },
  },
  {
    name: 'HUB_SERVER_TOKEN=abc for web serve --host 0.0.0.0',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      return kit.judgeCli(await publicBind(kit, root, { HUB_SERVER_TOKEN: 'abc' }));
    },
  },
  {
    name: 'a one-character HUB_SERVER_TOKEN for web serve --host 0.0.0.0',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      return kit.judgeCli(await publicBind(kit, root, { HUB_SERVER_TOKEN: 'x' }));
    },
  },
  {
    name: 'web serve --open with a token: what the opener argv shows (ps), and its code used twice',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const bin = kit.tempDir('hub-hostile-opener-');
      const argvFile = join(bin, 'argv.txt');
      writeFileSync(
        join(bin, 'xdg-open'),
        `#!/bin/sh\nprintf '%s\\n' "$@" > '${argvFile}.tmp' && mv '${argvFile}.tmp' '${argvFile}'\n`,
      );
      chmodSync(join(bin, 'xdg-open'), 0o755);
      const s = await kit.server(root, {
        env: { HUB_SERVER_TOKEN: STRONG, PATH: `${bin}:${process.env.PATH}` },
        args: ['--open'],
      });
      try {
        for (let i = 0; i < 1200 && !existsSync(argvFile); i++) await sleep(25);
        if (!existsSync(argvFile)) return { verdict: 'crash', detail: 'the opener never ran' };
        const argv = readFileSync(argvFile, 'utf8');
        if (argv.includes(STRONG)) return { verdict: 'accepted', detail: 'the token is in the opener argv' };
        const code = /#login=([A-Za-z0-9_-]+)/.exec(argv)?.[1];
        if (!code) return { verdict: 'unclean', detail: `no sign-in code in ${argv.trim().slice(0, 120)}` };
        const first = await kit.request(s.base, 'POST', '/v3/ui/login', { body: { code } });
        if (first.json?.token !== STRONG) return { verdict: 'unclean', detail: `first use: ${first.status}` };
        // Whoever read the code from the process list after the browser used it gets nothing.
        return kit.judgeHttp(await kit.request(s.base, 'POST', '/v3/ui/login', { body: { code } }));
      } finally {
        await s.close();
      }
    },
  },
  {
    name: 'a page of another origin opening the event stream (Origin, then Sec-Fetch-Site only)',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const s = await kit.server(root);
      try {
        for (const headers of [{ origin: 'http://evil.example' }, { 'sec-fetch-site': 'cross-site' }]) {
          const r = await holdStream(s.base, headers);
          r.close();
          const judged = kit.judgeHttp(r);
          if (judged.verdict !== 'refused') return judged;
        }
        return { verdict: 'refused', detail: '403 same_origin for both' };
      } finally {
        await s.close();
      }
    },
  },
  {
    name: 'one client opening 40 event streams (its share is 8; a write is still served)',
    expect: 'refused',
    async run(kit) {
      const { root } = kit.demo();
      const s = await kit.server(root);
      const held = [];
      try {
        for (let i = 0; i < 40; i++) held.push(await holdStream(s.base));
        const open = held.filter((r) => r.status === 200).length;
        const write = await kit.request(s.base, 'POST', '/v3/ops/objectives', {
          body: { id: 'hostile-streams', title: 'still served' },
        });
        if (write.status !== 200) return { verdict: 'crash', detail: `write answered ${write.status}` };
        if (open > 8) return { verdict: 'accepted', detail: `${open} streams open for one client` };
        const over = held.find((r) => r.status !== 200);
        return over ? kit.judgeHttp(over) : { verdict: 'accepted', detail: 'nothing refused' };
      } finally {
        for (const r of held) r.close();
        await s.close();
      }
    },
  },
];
