/**
 * What the stdio transport drops of a refused frame or line, byte by byte as it arrives, without holding it:
 * - `bytes`: the declared body of an oversized frame;
 * - `line`: the rest of an over-long line, or of a body that is not JSON, up to its newline;
 * - `header`: the lines of a header block that never ended, up to its blank line, then the body;
 * - `body`: the whitespace before the body of a frame whose length cannot be read, then the body itself (a
 *   `Content-Length` header there instead is the next frame: the refused one had no body);
 * - `json`: that body, one JSON value (strings and escapes followed, so brackets in strings never end it).
 * Every state but `bytes` gives up after the size limit and drops to the end of the line instead, so a body that
 * never closes costs no more than an over-long line.
 */
export type Skip =
  | { kind: 'bytes'; left: number }
  | { kind: 'line' }
  | { kind: 'header'; dropped: number; lineHasText: boolean }
  | { kind: 'body'; dropped: number }
  | { kind: 'json'; dropped: number; depth: number; inString: boolean; escaped: boolean };

export const headerSkip = (): Skip => ({ kind: 'header', dropped: 0, lineHasText: false });
export const bodySkip = (): Skip => ({ kind: 'body', dropped: 0 });

const LF = 0x0a;
const HEADER_NAME = 'content-length';
const CR = 0x0d;

/** Drops what `skip` says from the front of `bytes`: the skip still to do (undefined when done) and the rest. */
export function dropSkipped(
  skip: Skip,
  bytes: Buffer,
  maxBytes: number,
): { skip: Skip | undefined; rest: Buffer } {
  let s: Skip | undefined = skip;
  let i = 0;
  const n = bytes.length;
  while (s && i < n) {
    switch (s.kind) {
      case 'bytes': {
        const take = Math.min(s.left, n - i);
        i += take;
        s = s.left - take > 0 ? { kind: 'bytes', left: s.left - take } : undefined;
        break;
      }
      case 'line': {
        const nl = bytes.indexOf(LF, i);
        i = nl < 0 ? n : nl + 1;
        if (nl >= 0) s = undefined;
        break;
      }
      case 'header': {
        const b = bytes[i++]!;
        if (b === LF) {
          // A blank line ends the header block; the body follows.
          s = s.lineHasText ? { ...s, lineHasText: false } : bodySkip();
        } else if (b !== CR) s.lineHasText = true;
        if (s.kind === 'header' && ++s.dropped > maxBytes) s = s.lineHasText ? { kind: 'line' } : undefined;
        break;
      }
      case 'body': {
        const b = bytes[i]!;
        if (b === 0x43 || b === 0x63) {
          // A frame header right away: the refused frame had no body, and this is the next frame.
          const head = bytes.toString('latin1', i, i + HEADER_NAME.length).toLowerCase();
          if (head === HEADER_NAME) s = undefined;
          else if (HEADER_NAME.startsWith(head)) return { skip: s, rest: bytes.subarray(i) };
          else s = { kind: 'line' };
        } else if (b === 0x7b || b === 0x5b)
          s = { kind: 'json', dropped: 0, depth: 0, inString: false, escaped: false };
        else if (b === 0x20 || b === 0x09 || b === LF || b === CR) {
          i++;
          if (++s.dropped > maxBytes) s = undefined;
        } else s = { kind: 'line' };
        break;
      }
      case 'json': {
        const b = bytes[i++]!;
        if (s.inString) {
          if (s.escaped) s.escaped = false;
          else if (b === 0x5c) s.escaped = true;
          else if (b === 0x22) s.inString = false;
        } else if (b === 0x22) s.inString = true;
        else if (b === 0x7b || b === 0x5b) s.depth++;
        else if ((b === 0x7d || b === 0x5d) && --s.depth === 0) {
          s = undefined;
          break;
        }
        if (++s.dropped > maxBytes) s = { kind: 'line' };
        break;
      }
    }
  }
  return { skip: s, rest: bytes.subarray(i) };
}
