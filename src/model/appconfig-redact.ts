/** Keys whose values are secrets wherever they sit: token, api_key, secret, password and `*_token`-style names. */
const SECRET_KEY_RE = /(?:^|[_-])(?:token|api[_-]?key|apikey|secret|password|passwd)$/i;

/** `scheme://userinfo@`; greedy so that the last `@` of the authority ends the userinfo. */
const URL_USERINFO_RE = /([a-z][a-z0-9+.-]*:\/\/)([^\s/?#]+)@/gi;

/** True when a config key holds a secret. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY_RE.test(key);
}

/** `***` plus the last four characters; `***` alone when the secret is four characters or fewer. */
export function redactSecret(value: string): string {
  return value.length <= 4 ? '***' : `***${value.slice(-4)}`;
}

/** Masks credentials embedded in URLs (`https://user:pass@host`): the password, or a lone user (token-as-user). */
export function redactUrlCredentials(text: string): string {
  return text.replace(URL_USERINFO_RE, (_m, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    const masked =
      colon >= 0
        ? `${userinfo.slice(0, colon)}:${redactSecret(userinfo.slice(colon + 1))}`
        : redactSecret(userinfo);
    return `${scheme}${masked}@`;
  });
}

function redactValue(value: unknown, secret: boolean): unknown {
  if (secret && value !== null && value !== undefined && typeof value !== 'object') {
    const s = String(value);
    // An empty secret is "not set"; showing `***` would suggest one is configured.
    return s === '' ? '' : redactSecret(s);
  }
  if (typeof value === 'string') return redactUrlCredentials(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secret));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactValue(v, isSecretKey(k));
    return out;
  }
  return value;
}

/** Deep copy of an application config (or any plain data) with every secret redacted for display. */
export function redactAppConfig<T>(config: T): T {
  return redactValue(config, false) as T;
}
