// `#login=<code>`: what `hub web serve --open` puts in the address it hands to the desktop's opener instead of the
// token, because a program's command line is readable by every local user. The code leaves the address bar at once
// and is traded for the token (POST, same origin); it is useless once used or after two minutes.
import { ApiError, api } from './client';
import { saveToken } from './token';

export const LOGIN_PATH = '/v3/ui/login';

let problem: string | undefined;

/** Why the sign-in link of this tab did not sign in (shown by the token prompt), if it did not. */
export function signInProblem(): string | undefined {
  return problem;
}

/** Trades `#login=<code>` for the token, keeping other fragment parameters; resolves when done either way. */
export async function signInFromFragment(
  loc: Location = window.location,
  hist: History = window.history,
): Promise<void> {
  const hash = loc.hash.replace(/^#/, '');
  if (!hash) return;
  const params = new URLSearchParams(hash);
  const code = params.get('login');
  if (code === null) return;
  params.delete('login');
  const rest = params.toString();
  hist.replaceState(hist.state, '', `${loc.pathname}${loc.search}${rest ? `#${rest}` : ''}`);
  try {
    const r = await api<{ token: string }>(LOGIN_PATH, { method: 'POST', body: { code } });
    saveToken(r.token);
    problem = undefined;
  } catch (err) {
    problem = describe(err);
  }
}

function describe(err: unknown): string {
  const reason = err instanceof ApiError ? err.details.reason : undefined;
  if (reason === 'used')
    return (
      'This sign-in link was already used. A link from hub web serve --open works once: if you did not open ' +
      'this one before, another program on this machine may have, so restart the server with a new token.'
    );
  if (reason === 'expired')
    return 'This sign-in link has expired (it works for two minutes): run hub web serve --open again.';
  if (reason === 'unknown')
    return 'This sign-in link is not one this server issued (the server restarted since it was made).';
  return `The sign-in link did not sign in: ${err instanceof Error ? err.message : String(err)}`;
}
