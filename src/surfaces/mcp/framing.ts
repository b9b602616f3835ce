import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { bodySkip, dropSkipped, headerSkip, type Skip } from './framing-skip.js';

/** Largest message (or unfinished line) accepted; a longer one is answered with a parse error and dropped. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** Longest header block of a Content-Length frame. */
const MAX_HEADER_BYTES = 8 * 1024;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

type Id = string | number | null;

function errorMessage(id: Id, code: number, message: string): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`;
}

/** A header value as shown in an answer: printable, short. */
function shown(value: string): string {
  const clean = value.trim().replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 40 ? `${clean.slice(0, 40)}...` : clean;
}

function isSpace(byte: number): boolean {
  return byte === 0x0a || byte === 0x0d || byte === 0x20 || byte === 0x09;
}

export interface FramingOptions {
  /** Largest message (default MAX_MESSAGE_BYTES). */
  maxMessageBytes?: number;
  /** A check of each JSON-RPC message before it is handed over; an error it returns is answered instead. */
  checkRequest?: (message: JSONRPCMessage) => { code: number; message: string; data?: unknown } | undefined;
}

/**
 * The stdio transport of `hub mcp serve`. Reads newline-delimited JSON and LSP-style `Content-Length:` frames,
 * in any mix, from one stream; always writes newline-delimited JSON. A line that is not JSON gets a -32700
 * answer, a JSON value that is not a JSON-RPC message a -32600 answer, and the server keeps serving.
 * A JSON array (a 2025-03-26 batch) is taken apart and each message handled on its own.
 */
export class FramedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private buffer: Buffer = Buffer.alloc(0);
  /** What of a refused frame or line is still being dropped; undefined while reading messages. */
  private skip: Skip | undefined;
  private closed = false;
  private readonly onData = (chunk: Buffer | string) => this.receive(chunk);
  private readonly onEnd = () => void this.close();
  private readonly onError = (err: Error) => this.onerror?.(err);

  private readonly maxMessageBytes: number;
  private readonly checkRequest: FramingOptions['checkRequest'];

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    opts: FramingOptions = {},
  ) {
    this.maxMessageBytes = opts.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    this.checkRequest = opts.checkRequest;
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onError);
    this.input.pause();
    this.buffer = Buffer.alloc(0);
    this.onclose?.();
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed || this.output.destroyed) return resolve();
      if (this.output.write(text)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  /** Appends bytes and hands over every complete message; exported for unit tests through `receive`. */
  receive(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (bytes.length === 0) return;
    this.buffer = this.buffer.length === 0 ? bytes : Buffer.concat([this.buffer, bytes]);
    for (;;) {
      if (this.skip) {
        this.buffer = this.dropSkipped(this.buffer);
        if (this.skip) return;
      }
      let start = 0;
      while (start < this.buffer.length && isSpace(this.buffer[start]!)) start++;
      if (start > 0) this.buffer = this.buffer.subarray(start);
      if (this.buffer.length === 0) return;
      const first = this.buffer[0]!;
      const taken = first === 0x43 || first === 0x63 ? this.takeFrame() : this.takeLine();
      if (!taken) return;
    }
  }

  /** Answers a refused frame once and drops the rest of it, as `skip` says, starting with the buffer's bytes. */
  private refuse(message: string, skip: Skip): true {
    void this.write(errorMessage(null, PARSE_ERROR, `Parse error: ${message}`));
    this.skip = skip;
    return true;
  }

  /**
   * One `Content-Length: N` header block and its N-byte body; false while incomplete. A header line that starts a
   * frame always consumes a frame: when its length cannot be trusted (not plain decimal digits, given twice, or a
   * header block that never ends) the frame's extent is the header block and the one JSON value after it, which
   * is dropped unread (framing-skip.ts), so nothing a refused header announced is ever run.
   */
  private takeFrame(): boolean {
    const nl = this.buffer.indexOf('\n');
    if (nl < 0) return this.takeLine();
    // Only a first line that is a Content-Length header starts a frame; anything else is a (garbage) line.
    if (!/^content-length\s*:/i.test(this.buffer.toString('latin1', 0, nl))) return this.takeLine();
    const crlf = this.buffer.indexOf('\r\n\r\n');
    const lf = this.buffer.indexOf('\n\n');
    const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf + 4 : lf >= 0 ? lf + 2 : -1;
    if (end < 0 || end > MAX_HEADER_BYTES) {
      if (this.buffer.length <= MAX_HEADER_BYTES) return false;
      return this.refuse(
        `Content-Length header block longer than ${MAX_HEADER_BYTES} bytes; its frame is skipped`,
        headerSkip(),
      );
    }
    const lines = this.buffer.toString('latin1', 0, end).split(/\r?\n/);
    const declared = lines.filter((l) => /^content-length\s*:/i.test(l));
    const value = /^content-length\s*:(.*)$/i.exec(lines[0]!)![1]!;
    const m = /^[ \t]*(\d+)[ \t\r]*$/.exec(value);
    if (!m || declared.length > 1) {
      this.buffer = this.buffer.subarray(end);
      const why =
        declared.length > 1
          ? `${declared.length} Content-Length headers in one frame`
          : `bad Content-Length '${shown(value)}'`;
      return this.refuse(
        `${why}; its frame is skipped (the length must be given once, in plain decimal digits)`,
        bodySkip(),
      );
    }
    const length = Number(m[1]);
    if (length > this.maxMessageBytes) {
      // Its body is dropped as declared, across chunks, so nothing hidden inside is read as a message.
      this.buffer = this.buffer.subarray(end);
      return this.refuse(
        `Content-Length ${m[1]} is over the limit (${this.maxMessageBytes} bytes); its body is skipped`,
        { kind: 'bytes', left: length },
      );
    }
    if (this.buffer.length < end + length) return false;
    const body = this.buffer.toString('utf8', end, end + length);
    this.buffer = this.buffer.subarray(end + length);
    this.handle(body);
    return true;
  }

  /** Drops what `skip` says from the front of `bytes`; clears `skip` when done. The rest of `bytes` is returned. */
  private dropSkipped(bytes: Buffer): Buffer {
    const out = dropSkipped(this.skip!, bytes, this.maxMessageBytes);
    this.skip = out.skip;
    return out.rest;
  }

  /** One newline-terminated line; false while incomplete. */
  private takeLine(): boolean {
    const nl = this.buffer.indexOf('\n');
    if (nl < 0) {
      if (this.buffer.length > this.maxMessageBytes)
        return this.refuse('message over the size limit; skipped to its end of line', { kind: 'line' });
      return false;
    }
    const line = this.buffer.toString('utf8', 0, nl).replace(/\r$/, '');
    this.buffer = this.buffer.subarray(nl + 1);
    this.handle(line);
    return true;
  }

  private handle(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      void this.write(errorMessage(null, PARSE_ERROR, `Parse error: ${(err as Error).message}`));
      return;
    }
    for (const item of Array.isArray(value) ? value : [value]) this.dispatch(item);
  }

  private dispatch(value: unknown): void {
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) {
      const refused = this.checkRequest?.(parsed.data);
      if (refused && 'id' in parsed.data) {
        void this.write(`${JSON.stringify({ jsonrpc: '2.0', id: parsed.data.id, error: refused })}\n`);
        return;
      }
      this.onmessage?.(parsed.data);
      return;
    }
    const rawId = (value as { id?: unknown } | null)?.id;
    const id: Id = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : null;
    void this.write(errorMessage(id, INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message'));
  }
}
