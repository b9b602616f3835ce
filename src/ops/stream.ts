/**
 * The result of an operation that streams (it follows something until its reader goes away): surfaces that can
 * stream open it with a signal they abort when the reader leaves. HTTP sends it as Server-Sent Events (`cursor`
 * is each event's id, so a reconnecting client resumes after it); the CLI prints one line per item until Ctrl-C.
 * MCP tools answer once, so a streaming operation has no MCP binding.
 */
export interface OpStream<T> {
  readonly kind: 'stream';
  open(signal: AbortSignal): AsyncIterable<T>;
  /** The item's position, sent as its SSE id and accepted back to resume after it. */
  cursor(item: T): string;
  /** The JSON value sent for the item (SSE data, one JSON line of `--json`). */
  data(item: T): unknown;
  /** One human line for the CLI. */
  human(item: T): string;
}

export function isOpStream(value: unknown): value is OpStream<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'stream' &&
    typeof (value as { open?: unknown }).open === 'function'
  );
}
