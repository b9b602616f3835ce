import { etagOf } from '../etag.js';

/**
 * The ETag of the text a store last read or wrote for each large document, so a document that has not changed
 * since is not hashed again: every update hashes what it read (to skip a write that changes nothing) and what it
 * writes, and the events document is rewritten whole on every record. Keyed on the exact text, so a file another
 * process changed is hashed anew; small documents are cheap to hash and not kept.
 */
export interface EtagMemo {
  /** The ETag of `value`, parsed from `text`: remembered when the text is the one last seen. */
  etagOf(name: string, text: string, value: unknown): string | undefined;
  /** Records the ETag of a text just written. */
  remember(name: string, text: string, etag: string | undefined): void;
}

export function createEtagMemo(minChars = 16 * 1024, maxEntries = 32): EtagMemo {
  const memo = new Map<string, { text: string; etag: string | undefined }>();
  const remember = (name: string, text: string, etag: string | undefined) => {
    memo.delete(name);
    if (text.length < minChars) return;
    memo.set(name, { text, etag });
    // Oldest first in insertion order: the documents written or read least recently go.
    if (memo.size > maxEntries) memo.delete(memo.keys().next().value as string);
  };
  return {
    etagOf(name, text, value) {
      const hit = memo.get(name);
      if (hit !== undefined && hit.text === text) return hit.etag;
      const etag = etagOf(value);
      remember(name, text, etag);
      return etag;
    },
    remember,
  };
}
