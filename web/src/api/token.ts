// The server token, when hub web serve has one. It arrives once in the URL fragment (`#token=...`, which browsers
// never send to a server), moves to sessionStorage (gone when the tab closes) and leaves the address bar at once,
// so it is neither bookmarked nor kept in history.

const KEY = 'hub.token';

export function readToken(): string | undefined {
  try {
    return sessionStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function saveToken(token: string): void {
  const t = token.trim();
  if (t) sessionStorage.setItem(KEY, t);
  else sessionStorage.removeItem(KEY);
}

export function clearToken(): void {
  sessionStorage.removeItem(KEY);
}

/** Moves `#token=<token>` from the address bar into sessionStorage; other fragment parameters are kept. */
export function adoptTokenFromFragment(
  loc: Location = window.location,
  hist: History = window.history,
): void {
  const hash = loc.hash.replace(/^#/, '');
  if (!hash) return;
  const params = new URLSearchParams(hash);
  const token = params.get('token');
  if (token === null) return;
  saveToken(token);
  params.delete('token');
  const rest = params.toString();
  hist.replaceState(hist.state, '', `${loc.pathname}${loc.search}${rest ? `#${rest}` : ''}`);
}
