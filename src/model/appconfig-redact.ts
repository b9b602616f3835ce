// The one place secrets are redacted for display: config values, config text, URLs and values echoed by errors.
import { yaml } from './yaml-lib.js';

/** Keys whose values are secrets wherever they sit: token, api_key, secret, password and `*_token`-style names. */
const SECRET_KEY_RE = /(?:^|[_-])(?:token|api[_-]?key|apikey|secret|password|passwd)$/i;
/** Query parameter names that carry credentials besides the secret key names (`?key=`, `?sig=`...). */
const SECRET_PARAM_RE = /^(?:key|auth|authorization|sig|signature|credentials?|session)$/i;
/** A URL inside text: scheme, then everything up to whitespace, a quote or a closing bracket. */
const URL_RE = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>`\]}]+/gi;
/** `scheme://userinfo@`: the last `@` of the authority ends the userinfo. */
const URL_USERINFO_RE = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]+)@/i;
/** `?name=value` / `&name=value` inside a URL. */
const URL_PARAM_RE = /([?&;])([^=&#;]+)=([^&#;]*)/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds.
const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f]/;

/** True when a config key (or a URL query parameter name) holds a secret. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY_RE.test(key);
}

/**
 * `***` plus the last four characters; `***` alone when the secret is four characters or fewer, or holds a control
 * character (its tail could be a newline that breaks the line it is shown on, or most of a short secret).
 */
export function redactSecret(value: string): string {
  return value.length <= 4 || CONTROL_RE.test(value) ? '***' : `***${value.slice(-4)}`;
}

function redactOneUrl(url: string): string {
  const creds = url.replace(URL_USERINFO_RE, (_m, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    const masked =
      colon >= 0
        ? `${userinfo.slice(0, colon)}:${redactSecret(userinfo.slice(colon + 1))}`
        : redactSecret(userinfo);
    return `${scheme}${masked}@`;
  });
  return creds.replace(URL_PARAM_RE, (m, sep: string, name: string, value: string) => {
    let key = name;
    try {
      key = decodeURIComponent(name);
    } catch {
      // keep as written
    }
    return (isSecretKey(key) || SECRET_PARAM_RE.test(key)) && value !== ''
      ? `${sep}${name}=${redactSecret(value)}`
      : m;
  });
}

/**
 * Masks credentials in every URL of `text`: the userinfo (`https://user:pass@host`: the password, or a lone user
 * used as a token) and the values of query parameters named like secrets (`?token=`, `?access_token=`, `?key=`...).
 */
export function redactUrlSecrets(text: string): string {
  return text.includes('://') ? text.replace(URL_RE, redactOneUrl) : text;
}

function redactValue(value: unknown, secret: boolean): unknown {
  if (secret && value !== null && value !== undefined && typeof value !== 'object') {
    const s = String(value);
    // An empty secret is "not set"; showing `***` would suggest one is configured.
    return s === '' ? '' : redactSecret(s);
  }
  if (typeof value === 'string') return redactUrlSecrets(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secret));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactValue(v, isSecretKey(k));
    return out;
  }
  return value;
}

/** Every non-empty value under a secret key of `config` (an application config, or any plain data). */
export function secretValues(config: unknown): string[] {
  const out: string[] = [];
  const visit = (v: unknown, secret: boolean, depth: number): void => {
    if (depth > 32) return;
    if (secret && (typeof v === 'string' || typeof v === 'number')) {
      if (String(v) !== '') out.push(String(v));
    } else if (Array.isArray(v)) for (const x of v) visit(x, secret, depth + 1);
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) visit(x, isSecretKey(k), depth + 1);
  };
  visit(config, false, 0);
  return out;
}

/** Deep copy of an application config (or any plain data) with every secret redacted for display. */
export function redactAppConfig<T>(config: T): T {
  return redactValue(config, false) as T;
}

/**
 * A value as typed for the key path `path`, safe to echo in an error: a secret key's value redacted, a JSON mapping
 * or list with its secrets redacted, URL credentials masked.
 */
export function redactValueForPath(path: string, value: string): string {
  if (isSecretKey(path.split('.').pop() ?? '')) return redactSecret(value);
  const trimmed = value.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.stringify(redactAppConfig(JSON.parse(trimmed)));
    } catch {
      // not JSON: judged as text below
    }
  }
  return redactUrlSecrets(value);
}

const LINE_SECRET_RE = /^(\s*(?:-\s+)?["']?([A-Za-z0-9_.-]+)["']?\s*:[ \t]*)(\S.*)$/;

/** Line by line, for text that does not parse: `key: value` lines of secret keys, then URL credentials. */
function redactLines(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const m = LINE_SECRET_RE.exec(line);
      if (m && isSecretKey(m[2]!)) return `${m[1]}${JSON.stringify(redactSecret(m[3]!.trim()))}`;
      return redactUrlSecrets(line);
    })
    .join('\n');
}

type Range = [number, number, number];

/**
 * Config text (hub.config.yaml) with every secret redacted, as shown by previews: each scalar under a secret key
 * becomes `"***" + last four`, each URL has its credentials masked; comments, order and every other byte stay as
 * written. Text that does not parse is redacted line by line.
 */
export function redactConfigText(text: string): string {
  const Y = yaml();
  const doc = Y.parseDocument(text, { keepSourceTokens: false });
  if (doc.errors.length > 0) return redactLines(text);
  const edits: Array<{ range: Range; text: string }> = [];
  const visit = (node: unknown, secret: boolean): void => {
    if (Y.isScalar(node)) {
      const range = node.range as Range | undefined;
      if (!range || node.value === null || typeof node.value === 'object') return;
      const raw = String(node.value);
      const shown = secret ? (raw === '' ? raw : redactSecret(raw)) : redactUrlSecrets(raw);
      if (shown !== raw) edits.push({ range, text: JSON.stringify(shown) });
    } else if (Y.isMap(node)) {
      for (const pair of node.items) {
        const key = Y.isScalar(pair.key) ? String(pair.key.value) : '';
        visit(pair.value, isSecretKey(key));
      }
    } else if (Y.isSeq(node)) {
      for (const item of node.items) visit(item, secret);
    }
  };
  visit(doc.contents, false);
  let out = text;
  // From the end, so earlier ranges stay valid; [start, valueEnd) is the scalar as written (quotes included).
  // A block scalar's range takes its line breaks: they stay.
  for (const e of edits.sort((a, b) => b.range[0] - a.range[0])) {
    const tail = /\s*$/.exec(out.slice(e.range[0], e.range[1]))![0];
    out = out.slice(0, e.range[0]) + e.text + tail + out.slice(e.range[1]);
  }
  // URLs in comments too.
  return redactUrlSecrets(out);
}
