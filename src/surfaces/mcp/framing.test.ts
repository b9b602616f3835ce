import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FramedStdioTransport } from './framing.js';

function setup(opts: { maxMessageBytes?: number } = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  const t = new FramedStdioTransport(input, output, opts);
  const received: unknown[] = [];
  t.onmessage = (m) => void received.push(m);
  let written = '';
  output.on('data', (c: Buffer) => {
    written += c.toString('utf8');
  });
  const answers = () =>
    written
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  return { t, received, answers };
}

const frame = (text: string, sep = '\r\n\r\n') => `Content-Length: ${Buffer.byteLength(text)}${sep}${text}`;

describe('FramedStdioTransport', () => {
  it('delivers every message in order, whatever the framing mix and the chunk boundaries', () => {
    const message = fc.record({
      jsonrpc: fc.constant('2.0' as const),
      id: fc.nat(),
      method: fc.constantFrom('tools/list', 'ping'),
      params: fc.record({ text: fc.string({ unit: 'grapheme' }) }),
    });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(message, fc.constantFrom('nd', 'crlf', 'lf')), { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 13 }), { minLength: 1, maxLength: 20 }),
        (items, cuts) => {
          const { t, received, answers } = setup();
          const bytes = Buffer.from(
            items
              .map(([m, kind]) => {
                const text = JSON.stringify(m);
                return kind === 'nd' ? `${text}\n` : frame(text, kind === 'crlf' ? '\r\n\r\n' : '\n\n');
              })
              .join(''),
          );
          let at = 0;
          for (let i = 0; at < bytes.length; i++) {
            const n = cuts[i % cuts.length]!;
            t.receive(bytes.subarray(at, at + n));
            at += n;
          }
          expect(received).toEqual(items.map(([m]) => m));
          expect(answers()).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('answers garbage with -32700, a non-message with -32600, and goes on', async () => {
    const { t, received, answers } = setup();
    t.receive('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    t.receive('not json\n');
    t.receive('Cat\n');
    t.receive('{"id":5,"foo":1}\n');
    t.receive(frame('{broken'));
    // The body of a frame whose length cannot be read is that frame's, never a message of its own.
    t.receive('Content-Length: abc\r\n\r\n');
    t.receive('{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
    t.receive('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await new Promise((r) => setImmediate(r));
    expect(received).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ]);
    const codes = answers().map((a) => [a.id, a.error.code]);
    expect(codes).toEqual([
      [null, -32700],
      [null, -32700],
      [5, -32600],
      [null, -32700],
      [null, -32700],
    ]);
  });

  it('takes a JSON array (a 2025-03-26 batch) apart', () => {
    const { t, received } = setup();
    t.receive(
      '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]\n',
    );
    expect(received).toHaveLength(2);
  });

  it('writes one JSON line per message and closes when the input ends', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const t = new FramedStdioTransport(input, output);
    let closed = false;
    t.onclose = () => {
      closed = true;
    };
    await t.start();
    await t.send({ jsonrpc: '2.0', id: 1, result: { text: 'a\nb' } });
    expect(output.read().toString()).toBe('{"jsonrpc":"2.0","id":1,"result":{"text":"a\\nb"}}\n');
    input.end();
    await new Promise((r) => setImmediate(r));
    expect(closed).toBe(true);
  });

  describe('a refused frame or line', () => {
    const LIMIT = 128;
    const hidden = '{"jsonrpc":"2.0","id":66,"method":"tools/call","params":{"name":"hub_objective_upsert"}}';
    const after = '{"jsonrpc":"2.0","id":7,"method":"ping"}\n';
    /** A frame declaring more than the limit whose body hides a whole message on its own line. */
    const smuggler = (declared: number) => {
      const body = `\n${hidden}\n`.padEnd(declared, ' ');
      return `Content-Length: ${declared}\r\n\r\n${body}`;
    };

    it('discards exactly the declared body of an oversized frame, whatever the chunks', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: LIMIT + 1, max: 4 * LIMIT }),
          fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 10 }),
          (declared, cuts) => {
            const { t, received, answers } = setup({ maxMessageBytes: LIMIT });
            const bytes = Buffer.from(smuggler(declared) + after);
            let at = 0;
            for (let i = 0; at < bytes.length; i++) {
              const n = cuts[i % cuts.length]!;
              t.receive(bytes.subarray(at, at + n));
              at += n;
            }
            expect(received).toEqual([{ jsonrpc: '2.0', id: 7, method: 'ping' }]);
            expect(answers().map((a) => [a.id, a.error.code])).toEqual([[null, -32700]]);
          },
        ),
        { numRuns: 200 },
      );
    });

    it('answers the refusal once, as soon as the header is read', () => {
      const { t, received, answers } = setup({ maxMessageBytes: LIMIT });
      t.receive(`Content-Length: ${LIMIT * 10}\r\n\r\n`);
      expect(answers()).toHaveLength(1);
      for (let i = 0; i < 9; i++) t.receive(`${hidden}\n`.slice(0, LIMIT).padEnd(LIMIT, ' '));
      expect(received).toEqual([]);
      t.receive(`${' '.repeat(LIMIT)}${after}`);
      expect(received).toEqual([{ jsonrpc: '2.0', id: 7, method: 'ping' }]);
      expect(answers()).toHaveLength(1);
    });

    it('drops the rest of an over-long line too, up to its newline', () => {
      const { t, received, answers } = setup({ maxMessageBytes: LIMIT });
      // Dropped at the limit, its tail arrives as what looks like a whole message line.
      t.receive(`{"x":"${'a'.repeat(LIMIT)}`);
      t.receive(`${hidden}\n`);
      t.receive(after);
      expect(received).toEqual([{ jsonrpc: '2.0', id: 7, method: 'ping' }]);
      expect(answers().map((a) => a.error.code)).toEqual([-32700]);
    });
  });

  describe('a frame whose Content-Length cannot be read (issue 25)', () => {
    const LIMIT = 1024;
    const upsert =
      '{"jsonrpc":"2.0","id":66,"method":"tools/call","params":{"name":"hub_objective_upsert","arguments":{"id":"x","title":"a } ] \\" Content-Length: 5\\r\\n\\r\\n{}"}}}';
    const ping = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}`;
    const BAD = ['-5', '1e2', '0x10', '+12', '10.5', 'abc', '', ' 12 13', '١٢', '12abc', '12\t,4'];
    /** What a client sends next: a frame right after the body, or a line (after a newline, or right after it). */
    const NEXT = {
      frame: frame(ping(7)),
      line: `\n${ping(7)}\n`,
      'line, no newline first': `${ping(7)}\n`,
    } as const;

    /** Feeds `bytes` cut at the given sizes, as a pipe may deliver them. */
    function feed(t: FramedStdioTransport, bytes: Buffer, cuts: number[]): void {
      let at = 0;
      for (let i = 0; at < bytes.length; i++) {
        const n = cuts[i % cuts.length]!;
        t.receive(bytes.subarray(at, at + n));
        at += n;
      }
    }

    it('consumes the framed tool call after each bad header; the next message runs, whatever the chunks', () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...BAD),
          fc.constantFrom(...(Object.keys(NEXT) as Array<keyof typeof NEXT>)),
          fc.constantFrom('\r\n\r\n', '\n\n'),
          fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 10 }),
          (value, next, sep, cuts) => {
            const { t, received, answers } = setup({ maxMessageBytes: LIMIT });
            feed(t, Buffer.from(`Content-Length: ${value}${sep}${upsert}${NEXT[next]}`), cuts);
            expect(received).toEqual([JSON.parse(ping(7))]);
            expect(answers().map((a) => [a.id, a.error.code])).toEqual([[null, -32700]]);
            expect(answers()[0].error.message).toMatch(
              /^Parse error: bad Content-Length '.*'; its frame is skipped/,
            );
          },
        ),
        { numRuns: 400 },
      );
    });

    it('takes a frame header right after the refused header block as the next frame (an empty body)', () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...BAD),
          fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 10 }),
          (value, cuts) => {
            const { t, received, answers } = setup({ maxMessageBytes: LIMIT });
            feed(t, Buffer.from(`Content-Length: ${value}\r\n\r\n${frame(ping(7))}${frame(ping(8))}`), cuts);
            expect(received).toEqual([JSON.parse(ping(7)), JSON.parse(ping(8))]);
            expect(answers()).toHaveLength(1);
          },
        ),
        { numRuns: 200 },
      );
    });

    it('never runs a message inside a pretty-printed body, a batch, or a body with more header lines', () => {
      const bodies = [
        `[\n${upsert},\n${ping(8)}\n]`,
        `{\n  "jsonrpc": "2.0",\n  "id": 9,\n  "method": "ping"\n}`,
      ];
      for (const body of bodies)
        for (const head of [
          'Content-Length: 1e2\r\n',
          'Content-Length: 5\r\nContent-Length: 500\r\n',
          'Content-Length: +5\r\nContent-Type: x\r\n',
        ])
          for (const next of Object.values(NEXT)) {
            const { t, received, answers } = setup({ maxMessageBytes: LIMIT });
            t.receive(`${head}\r\n${body}${next}`);
            expect(received).toEqual([JSON.parse(ping(7))]);
            expect(answers()).toHaveLength(1);
          }
    });

    it('consumes a frame whose header block never ends, and its body', () => {
      const { t, received, answers } = setup({ maxMessageBytes: 64 * 1024 });
      t.receive(`Content-Length: ${upsert.length}\r\nX-Pad: ${'a'.repeat(9000)}\r\n`);
      t.receive(`X-More: b\r\n\r\n${upsert}`);
      t.receive(frame(ping(7)));
      expect(received).toEqual([JSON.parse(ping(7))]);
      expect(answers().map((a) => a.error.code)).toEqual([-32700]);
    });

    it('drops a body that is not JSON to its end of line, and one that never closes up to the size limit', () => {
      const a = setup({ maxMessageBytes: LIMIT });
      a.t.receive(`Content-Length: x\r\n\r\nnot json ${upsert}\n${ping(7)}\n`);
      expect(a.received).toEqual([JSON.parse(ping(7))]);
      const b = setup({ maxMessageBytes: LIMIT });
      b.t.receive(`Content-Length: x\r\n\r\n{"a": [${`${upsert},`.repeat(20)}`);
      expect(b.received).toEqual([]);
      b.t.receive(`\n${ping(7)}\n`);
      expect(b.received).toEqual([JSON.parse(ping(7))]);
      expect(b.answers().map((x) => x.error.code)).toEqual([-32700]);
    });
  });
});
