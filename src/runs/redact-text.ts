// Secrets in free text (run evidence, notes, exports), on top of the config redaction module: that one knows keys
// and URLs; evidence is a log or a transcript, where secrets also come as provider tokens, headers and env lines.
import { isSecretKey, redactSecret, redactUrlSecrets } from '../model/index.js';

/** PEM private key blocks: the whole body goes. */
const PEM_RE = /-----BEGIN ([A-Z0-9 ]*PRIVATE KEY)-----[\s\S]*?-----END \1-----/g;

/**
 * Token shapes providers document, matched anywhere (word-bounded): GitHub (classic and fine-grained), GitLab,
 * Slack, AWS access key ids, OpenAI/Anthropic-style `sk-`, Stripe, Google API keys, npm, Hugging Face, and JWTs.
 */
const TOKEN_RES: readonly RegExp[] = [
  /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bsk-[A-Za-z0-9_-]{20,}/g,
  /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}/g,
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\bhf_[A-Za-z0-9]{30,}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];

/** `Authorization: <scheme> x` headers (curl lines, logs), and a bearer token anywhere. */
const AUTH_HEADER_RE =
  /(["']?)\b((?:proxy-)?authorization)\1(\s*[:=]\s*["']?)((?:basic|bearer|token|digest)\s+)?([^\s"',;]+)/gi;
const BEARER_RE = /\b(Bearer)(\s+)([A-Za-z0-9._~+/=-]{8,})/g;

/**
 * `NAME=value`, `NAME: value`, `"name": "value"`, `--name=value` where NAME names a secret: the config module's
 * rule (token, api_key, secret, password...) or an env-style name ending in a credential word (`*_KEY`,
 * `*_ACCESS_KEY`, `*_PASS`, `*_PWD`, `*_CREDENTIALS`, `*_AUTH`, `*_PRIVATE_KEY`).
 */
const ASSIGN_RE =
  /(?<![A-Za-z0-9_.])(["']?)([A-Za-z_][A-Za-z0-9_.-]{0,127})\1(\s*[=:]\s*)("(?:[^"\\\n]|\\.)*"|'[^'\n]*'|[^\s"',;&)}\]]+)/g;
// Short words (key, pass, pwd, auth) only after a prefix (`DB_PASS`, `SSH_KEY`): bare, they are ordinary words in
// logs (`pass: 42`), and `PWD` is the working directory.
const ENV_SECRET_RE =
  /(?:[_.-](?:key|pass|pwd|auth)|(?:^|[_.-])(?:access[_-]?key|secret[_-]?key|private[_-]?key|credentials?))$/i;

const isSecretName = (name: string) => isSecretKey(name) || ENV_SECRET_RE.test(name);
/** Keys of structured data whose values are secrets: secret names, and HTTP authorization headers. */
const isSecretField = (key: string) => isSecretName(key) || /^(?:proxy-)?authorization$/i.test(key);

const countMasks = (s: string) => s.split('***').length - 1;

function maskValue(value: string): string {
  const q = value[0];
  if ((q === '"' || q === "'") && value.length >= 2 && value.endsWith(q)) {
    const inner = value.slice(1, -1);
    return inner === '' ? value : `${q}${redactSecret(inner)}${q}`;
  }
  return redactSecret(value);
}

/**
 * `text` with every secret it recognizably holds masked (`***` plus the last four characters, as everywhere in
 * hub), and how many were masked. Idempotent: masked text comes back unchanged, so a record redacted when it was
 * written and again when it is exported reads the same.
 */
export function redactText(text: string): { text: string; redactions: number } {
  const before = countMasks(text);
  let out = text.replace(PEM_RE, (_m, kind: string) => `-----BEGIN ${kind}-----\n***\n-----END ${kind}-----`);
  out = redactUrlSecrets(out);
  for (const re of TOKEN_RES) out = out.replace(re, (m) => redactSecret(m));
  out = out.replace(
    AUTH_HEADER_RE,
    (m, q: string, name: string, sep: string, scheme: string | undefined, v: string) =>
      v.startsWith('***') ? m : `${q}${name}${q}${sep}${scheme ?? ''}${redactSecret(v)}`,
  );
  out = out.replace(BEARER_RE, (m, scheme: string, sp: string, token: string) =>
    token.startsWith('***') ? m : `${scheme}${sp}${redactSecret(token)}`,
  );
  out = out.replace(ASSIGN_RE, (m, q: string, name: string, sep: string, value: string) =>
    isSecretName(name) ? `${q}${name}${q}${sep}${maskValue(value)}` : m,
  );
  return { text: out, redactions: Math.max(0, countMasks(out) - before) };
}

/**
 * A deep copy of plain data with its secrets masked: the value of a key named like a secret, and every secret
 * that `redactText` finds in a string. For exports and views of records written by any build or tool.
 */
export function redactDeep<T>(value: T): T {
  return walk(value, false) as T;
}

function walk(value: unknown, secretKey: boolean): unknown {
  if (typeof value === 'string')
    return secretKey && value !== '' ? redactSecret(value) : redactText(value).text;
  if (secretKey && value !== null && value !== undefined && typeof value !== 'object')
    return redactSecret(String(value));
  if (Array.isArray(value)) return value.map((v) => walk(v, secretKey));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = walk(v, isSecretField(k));
    return out;
  }
  return value;
}
