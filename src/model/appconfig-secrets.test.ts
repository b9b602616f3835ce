import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../infra/index.js';
import { loadAppConfig } from './appconfig.js';
import { patchAppConfigText } from './appconfig-patch.js';
import { redactConfigText, redactSecret, redactUrlSecrets } from './appconfig-redact.js';

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'hub-secrets-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function caught(fn: () => unknown): Error & { details?: Record<string, unknown> } {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error');
}

const load = (env: Record<string, string>, file?: string) => {
  const ws = tmp();
  if (file !== undefined) writeFileSync(join(ws, 'hub.config.yaml'), file);
  return loadAppConfig({ cwd: ws, userConfigDir: ws, env });
};

describe('token values', () => {
  const VARIABLES = { HUB_SERVER_TOKEN: 'server.token', HUB_STATE_TOKEN: 'state.token' };

  it('refuses a blank token from the environment, naming the variable and the rule', () => {
    for (const [variable, path] of Object.entries(VARIABLES))
      for (const blank of [' ', '\t', '\n', '  \r\n ']) {
        const err = caught(() => load({ [variable]: blank }));
        expect(err, `${variable}=${JSON.stringify(blank)}`).toBeInstanceOf(ValidationError);
        expect(err.message).toContain(variable);
        expect(err.message).toContain('blank');
        expect(err.details).toMatchObject({ variable, path });
      }
  });

  it('refuses a blank token in the file', () => {
    for (const key of ['server:\n  token', 'state:\n  token', 'state:\n  api_key']) {
      const err = caught(() => load({}, `${key}: "   "\n`));
      expect(err, key).toBeInstanceOf(ValidationError);
      expect(err.message).toContain('blank');
    }
  });

  it('refuses control characters and surrounding whitespace, never echoing the token', () => {
    for (const token of [
      'abcd\nefgh-SECRET',
      'ab\u0000cdefgh-SECRET',
      'tab\tSECRET-1234',
      'del\u007fSECRET-1',
    ]) {
      const err = caught(() => load({ HUB_SERVER_TOKEN: token }));
      expect(err, JSON.stringify(token)).toBeInstanceOf(ValidationError);
      const shown = `${err.message} ${JSON.stringify(err.details)}`;
      expect(shown).not.toContain('SECRET');
      expect(err.message).not.toMatch(/[\n\r\t\0]/);
      expect(err.message).toContain('control character');
    }
    for (const token of [' padded-token', 'padded-token ']) {
      const err = caught(() => load({ HUB_STATE_TOKEN: token }));
      expect(err.message).toContain('whitespace');
    }
  });

  it('takes an empty value as unset and a token with inner spaces as given', () => {
    expect(load({ HUB_SERVER_TOKEN: '' }).config.server.token).toBeUndefined();
    expect(load({}, 'server:\n  token: ""\n').config.server.token).toBe('');
    expect(load({ HUB_SERVER_TOKEN: 'two words' }).config.server.token).toBe('two words');
  });
});

describe('redaction of secrets in text', () => {
  it('shows *** and the last four characters, and nothing of a token with control characters', () => {
    expect(redactSecret('abcdefgh1234')).toBe('***1234');
    expect(redactSecret('abcd')).toBe('***');
    expect(redactSecret('abcdef\ngh12')).toBe('***');
  });

  it('redacts URL userinfo and secret query parameters', () => {
    expect(redactUrlSecrets('https://h.example/x?token=qs-SECRET-4321&org=acme')).toBe(
      'https://h.example/x?token=***4321&org=acme',
    );
    for (const name of ['access_token', 'api_key', 'apikey', 'key', 'password', 'client_secret', 'sig'])
      expect(redactUrlSecrets(`see https://h.example/?${name}=SECRET-abcd now`)).toBe(
        `see https://h.example/?${name}=***abcd now`,
      );
    expect(redactUrlSecrets('https://user:pw-SECRET@h.example/')).toBe('https://user:***CRET@h.example/');
    expect(redactUrlSecrets('plain text ?token=x')).toBe('plain text ?token=x');
  });

  it('redacts every secret of config text, keeping everything else as written', () => {
    const text = `# my config (token: stays a comment)
state:
  backend: http
  url: "https://hub.example/x?token=qs-SECRET-4321"
  token: state-token-SECRET1234
  api_key: 'apikey-SECRET5678'
  mongodb: {url: "mongodb://admin:SECRET-pass@db/hub"}
server:
  token: |
    block-SECRET-9999
  allowed_hosts: [hub.internal]
`;
    const out = redactConfigText(text);
    expect(out).not.toContain('SECRET');
    expect(out).toContain('# my config (token: stays a comment)');
    expect(out).toContain('token: "***1234"');
    expect(out).toContain('api_key: "***5678"');
    expect(out).toContain('?token=***4321');
    expect(out).toContain('allowed_hosts: [hub.internal]');
    expect(out.split('\n')[2]).toBe('  backend: http');
    // Text that is not YAML is still redacted line by line.
    const broken = redactConfigText(
      'state:\n  token: abc-SECRET-1234\n  url: [unclosed https://u:SECRET@h/\n',
    );
    expect(broken).not.toContain('SECRET');
  });
});

describe('values echoed by errors', () => {
  it('redacts secrets inside a mapping set on a parent key', () => {
    const err = caught(() =>
      patchAppConfigText('', [{ op: 'set', path: 'state', value: '{"token":"leak-SECRET-0000","bogus":1}' }]),
    );
    expect(`${err.message} ${JSON.stringify(err.details)}`).not.toContain('SECRET');
    expect(err.message).toContain('***0000');
  });

  it('redacts URL credentials in a refused state.url, from a patch or the environment', () => {
    const url = 'ftp://user:pw-SECRET@h.example/x?token=qs-SECRET-4321';
    const p = caught(() => patchAppConfigText('', [{ op: 'set', path: 'state.url', value: url }]));
    expect(`${p.message} ${JSON.stringify(p.details)}`).not.toContain('SECRET');
    const e = caught(() => load({ HUB_STATE_URL: url }));
    expect(`${e.message} ${JSON.stringify(e.details)}`).not.toContain('SECRET');
    expect(e.message).toContain('HUB_STATE_URL');
  });

  it('never echoes a token with a newline set by patch', () => {
    const err = caught(() =>
      patchAppConfigText('', [{ op: 'set', path: 'server.token', value: 'abc\nSECRET-defg' }]),
    );
    expect(`${err.message} ${JSON.stringify(err.details)}`).not.toContain('SECRET');
    expect(err.message).not.toContain('\n');
  });
});
