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
    t.receive('Content-Length: abc\r\n\r\n');
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
});
