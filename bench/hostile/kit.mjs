// The toolkit of bench/hostile-input.mjs: temp workspaces, the real CLI, a real `hub web serve` and a raw
// `hub mcp serve` pipe, and one way to judge what came back (refused cleanly, accepted, unclean, crash).
import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDemo } from '../../examples/demo-workspace.mjs';
import { HUB_BIN } from '../lib/measure.mjs';

const OUTPUT_CAP = 256 * 1024;
const STACK_RE = /Maximum call stack|\n\s+at .+:\d+:\d+\)?/;

/**
 * What a hostile input led to:
 * - `refused`: a clean refusal (exit 1 or 2 with a message, HTTP 4xx with the documented error body, JSON-RPC -32602/-32600/-32700/-32000);
 * - `accepted`: the input was taken (exit 0, HTTP 2xx, a tool result);
 * - `unclean`: refused, but not in the documented form (a 4xx without the error body, a stack trace in the text);
 * - `crash`: an internal error (exit code `internal`, HTTP 5xx, -32603), a signal, a hang, a dead server.
 */
export const VERDICTS = ['refused', 'accepted', 'unclean', 'crash'];

export function createKit() {
  const dirs = [];
  const children = new Set();
  const kit = {
    /** A new temp directory (real path), removed at the end. */
    tempDir(prefix = 'hub-hostile-') {
      const d = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
      dirs.push(d);
      return d;
    },
    /** The demo workspace (real git repositories) in a new temp directory: `{root, manifestPath}`. */
    demo() {
      return createDemo(join(kit.tempDir(), 'demo'));
    },
    /** Runs the built CLI; never throws. `{code, signal, stdout, stderr, timedOut, ms}`. */
    hub(args, { cwd, env = {}, input, timeoutMs = 30_000 } = {}) {
      return new Promise((resolve) => {
        const start = performance.now();
        const child = spawn(process.execPath, [HUB_BIN, ...args], {
          cwd: cwd ?? process.cwd(),
          env: {
            ...process.env,
            HUB_CACHE_DIR: 'off',
            HUB_DAEMON: 'off',
            HUB_AGENT_MODE: 'true',
            NO_COLOR: '1',
            ...env,
          },
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        children.add(child);
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => {
          if (stdout.length < OUTPUT_CAP) stdout += d;
        });
        child.stderr.on('data', (d) => {
          if (stderr.length < OUTPUT_CAP) stderr += d;
        });
        child.stdin.on('error', () => {});
        child.stdin.end(input ?? '');
        let timedOut = false;
        const timer = setTimeout(() => {
          timedOut = true;
          child.kill('SIGKILL');
        }, timeoutMs);
        child.on('close', (code, signal) => {
          clearTimeout(timer);
          children.delete(child);
          resolve({ code, signal, stdout, stderr, timedOut, ms: performance.now() - start });
        });
      });
    },
    /** Starts `hub web serve --root <root> --port 0`; `{base, pid, alive(), rssMb(), close()}`. */
    async server(root, { env = {}, args = [] } = {}) {
      const child = spawn(
        process.execPath,
        [HUB_BIN, 'web', 'serve', '--root', root, '--port', '0', ...args],
        {
          env: { ...process.env, HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off', NO_COLOR: '1', ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      children.add(child);
      let exited = false;
      child.on('exit', () => {
        exited = true;
        children.delete(child);
      });
      const base = await new Promise((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          const m = /url=(http:\/\/\S+?)\/?\s/.exec(out);
          if (m) resolve(m[1]);
        });
        child.on('exit', (code) => reject(new Error(`hub web serve exited ${code} before it was ready`)));
      });
      return {
        base,
        pid: child.pid,
        alive: () => !exited,
        /** SIGTERM, then SIGKILL after 5 s: a server whose event loop is blocked never handles SIGTERM. */
        async close() {
          if (exited) return;
          const gone = new Promise((r) => child.once('exit', r));
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
          await gone;
          clearTimeout(timer);
        },
      };
    },
    /** One HTTP request that never throws: `{status, json, text, error}`; status 0 when the request failed. */
    async request(base, method, path, { body, raw, headers = {}, timeoutMs = 15_000 } = {}) {
      const h = { ...headers };
      let payload = raw;
      if (payload === undefined && body !== undefined) {
        payload = JSON.stringify(body);
        h['content-type'] ??= 'application/json';
      }
      try {
        const res = await fetch(`${base}${path}`, {
          method,
          headers: h,
          body: payload,
          signal: AbortSignal.timeout(timeoutMs),
        });
        const text = await res.text();
        let json;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        return { status: res.status, json, text: text.slice(0, OUTPUT_CAP) };
      } catch (err) {
        return {
          status: 0,
          error: err.name === 'TimeoutError' ? 'timeout' : String(err.cause?.code ?? err.message),
        };
      }
    },
    /**
     * A raw `hub mcp serve --root <root>` on pipes: `send(text)` writes bytes as given, `next(timeoutMs)` resolves the
     * next newline-delimited message written back (undefined on timeout), `close()` ends it.
     */
    mcp(root, { env = {} } = {}) {
      const child = spawn(process.execPath, [HUB_BIN, 'mcp', 'serve', '--root', root], {
        env: { ...process.env, HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off', NO_COLOR: '1', ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      children.add(child);
      child.stdin.on('error', () => {});
      const queue = [];
      const waiters = [];
      let buf = '';
      child.stdout.on('data', (d) => {
        buf += d;
        for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          let msg;
          try {
            msg = JSON.parse(line);
          } catch {
            msg = { unparsable: line.slice(0, 200) };
          }
          const w = waiters.shift();
          if (w) w(msg);
          else queue.push(msg);
        }
      });
      let exited = false;
      child.on('exit', () => {
        exited = true;
        children.delete(child);
      });
      return {
        alive: () => !exited,
        send: (text) => child.stdin.write(text),
        next(timeoutMs = 10_000) {
          if (queue.length) return Promise.resolve(queue.shift());
          return new Promise((resolve) => {
            const t = setTimeout(() => {
              const i = waiters.indexOf(done);
              if (i >= 0) waiters.splice(i, 1);
              resolve(undefined);
            }, timeoutMs);
            const done = (m) => {
              clearTimeout(t);
              resolve(m);
            };
            waiters.push(done);
          });
        },
        /** Sends `initialize` + `initialized` and waits for the answer. */
        async init() {
          this.send(
            `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hostile', version: '1' } } })}\n`,
          );
          const r = await this.next();
          this.send(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
          return r;
        },
        close() {
          child.stdin.end();
          child.kill('SIGTERM');
        },
      };
    },
    /** Judges a CLI run. */
    judgeCli(r) {
      if (r.timedOut) return { verdict: 'crash', detail: 'hang (killed after timeout)' };
      if (r.signal) return { verdict: 'crash', detail: `signal ${r.signal}` };
      const text = `${r.stdout}\n${r.stderr}`;
      if (r.code === 0) return { verdict: 'accepted', detail: 'exit 0' };
      if (/"code":\s*"internal"/.test(text) || STACK_RE.test(text))
        return { verdict: 'crash', detail: firstLine(text) };
      if (r.code === 1 || r.code === 2) return { verdict: 'refused', detail: firstLine(text) };
      return { verdict: 'crash', detail: `exit ${r.code}: ${firstLine(text)}` };
    },
    /** Judges an HTTP reply. */
    judgeHttp(res) {
      if (res.status === 0) return { verdict: 'crash', detail: res.error };
      if (res.status >= 500) return { verdict: 'crash', detail: `${res.status} ${firstLine(res.text)}` };
      if (res.status < 400) return { verdict: 'accepted', detail: String(res.status) };
      const err = res.json?.error;
      if (err && typeof err.code === 'string' && typeof err.message === 'string' && !STACK_RE.test(res.text))
        return { verdict: 'refused', detail: `${res.status} ${err.code}: ${err.message.slice(0, 120)}` };
      return { verdict: 'unclean', detail: `${res.status} ${firstLine(res.text)}` };
    },
    /** Judges a JSON-RPC answer (undefined: no answer in time). */
    judgeRpc(msg) {
      if (msg === undefined) return { verdict: 'crash', detail: 'no answer (hang)' };
      if (msg.result) return { verdict: msg.result.isError ? 'refused' : 'accepted', detail: 'result' };
      const code = msg.error?.code;
      if (code === -32603 || code === undefined)
        return { verdict: 'crash', detail: JSON.stringify(msg).slice(0, 200) };
      if (STACK_RE.test(msg.error.message ?? '') || (msg.error.message ?? '').includes('\n'))
        return { verdict: 'unclean', detail: `${code}: ${String(msg.error.message).slice(0, 120)}` };
      return { verdict: 'refused', detail: `${code}: ${String(msg.error.message).slice(0, 120)}` };
    },
    async cleanup() {
      for (const c of children) c.kill('SIGKILL');
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    },
  };
  return kit;
}

function firstLine(text) {
  return (
    String(text ?? '')
      .trim()
      .split('\n')[0] ?? ''
  ).slice(0, 160);
}
