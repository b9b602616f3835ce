import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { notifyUnauthorized } from '../api/auth-events';
import { signInProblem } from '../api/sign-in';
import { readToken, saveToken } from '../api/token';

/**
 * Shown after a 401: this server has a token (HUB_SERVER_TOKEN or server.token). The token is kept in
 * sessionStorage for this tab only; every call then sends it as `Authorization: Bearer`.
 */
export function TokenPrompt() {
  const client = useQueryClient();
  const id = useId();
  const [value, setValue] = useState('');
  const hadToken = readToken() !== undefined;
  const linkProblem = signInProblem();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    saveToken(value);
    notifyUnauthorized(false);
    void client.invalidateQueries();
  };
  return (
    <section className="token-prompt" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>This hub server needs its token</h2>
      {linkProblem && !hadToken && <p className="token-prompt__problem">{linkProblem}</p>}
      <p>
        {hadToken ? 'The token this tab holds was refused. ' : ''}
        Paste the server token (<code>HUB_SERVER_TOKEN</code> or <code>server.token</code>). It is kept in
        this tab only and sent as <code>Authorization: Bearer</code>.
      </p>
      <form onSubmit={submit}>
        <label htmlFor={`${id}-token`}>Server token</label>
        <input
          id={`${id}-token`}
          type="password"
          autoComplete="off"
          // biome-ignore lint/a11y/noAutofocus: the prompt replaces the page; the token field is the only thing to do.
          autoFocus
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <button type="submit" disabled={!value.trim()}>
          Use token
        </button>
      </form>
    </section>
  );
}
