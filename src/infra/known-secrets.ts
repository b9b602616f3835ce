/**
 * The secrets this process knows (the tokens and keys of its application config, the state store's bearer token),
 * so that every error it prints can be scrubbed of them, whatever produced the text: a state server that echoes
 * the Authorization header, a library that quotes a URL. Process-wide on purpose: an error may be printed far from
 * where the secret was loaded, and scrubbing more than needed costs nothing.
 */

/** Shorter values are no credential worth the name, and scrubbing them would garble ordinary words. */
const MIN_SECRET_LENGTH = 4;
/** A daemon serves many workspaces: the newest secrets are kept, within this many. */
const MAX_KNOWN = 64;
/** Details deeper than this are not walked (a server's error body is input); what lies below is replaced. */
const MAX_DEPTH = 32;

const known = new Set<string>();
/** Longest first, so a secret that contains another is replaced whole. */
let ordered: string[] = [];

function add(value: string): void {
  if (value.length < MIN_SECRET_LENGTH || known.has(value)) return;
  known.add(value);
  if (known.size > MAX_KNOWN) known.delete(known.values().next().value as string);
  ordered = [...known].sort((a, b) => b.length - a.length);
}

/** Remembers a secret (and the forms it takes inside a URL or a JSON string) for scrubSecrets. */
export function rememberSecret(value: string | undefined): void {
  if (typeof value !== 'string') return;
  const s = value.trim();
  if (s.length < MIN_SECRET_LENGTH) return;
  add(s);
  add(encodeURIComponent(s));
  add(JSON.stringify(s).slice(1, -1));
}

/** `***` and the last four characters, as config previews show a secret (`***` alone for a short one). */
function masked(secret: string): string {
  return secret.length <= 8 ? '***' : `***${secret.slice(-4)}`;
}

/** `text` with every known secret masked. */
export function scrubSecrets(text: string): string {
  if (ordered.length === 0) return text;
  let out = text;
  for (const s of ordered) if (out.includes(s)) out = out.split(s).join(masked(s));
  return out;
}

/** A copy of JSON-like `value` with every string scrubbed (keys too); the same value when nothing changed. */
export function scrubSecretsDeep<T>(value: T): T {
  if (ordered.length === 0) return value;
  return walk(value, 0) as T;
}

function walk(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return scrubSecrets(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return '(nested too deep to show)';
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const w = walk(v, depth + 1);
      if (w !== v) changed = true;
      return w;
    });
    return changed ? out : value;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = scrubSecrets(k);
    const w = walk(v, depth + 1);
    if (w !== v || key !== k) changed = true;
    out[key] = w;
  }
  return changed ? out : value;
}
