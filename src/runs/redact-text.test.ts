import { describe, expect, it } from 'vitest';
import { redactDeep, redactText } from './redact-text.js';

// Real-looking secrets, assembled at run time so that secret scanners do not flag this file.
const j = (...parts: string[]) => parts.join('');
const GH_CLASSIC = j('ghp', '_', 'R8x2Kq9LmZ4vT7pW1nB6cY3hJ5dF0sGaE2uQ');
const GH_FINE = j(
  'github',
  '_pat_',
  '11ABCDEFG0aBcDeFgHiJkL_mNoPqRsTuVwXyZ0123456789abcdefghijklmnopqrstuvwxyzABC',
);
const GITLAB = j('glpat', '-', 'xY7zQ2wE9rT4yU1iO6pA');
const SLACK = j('xoxb', '-', '2048193726-5512093847120-Hq7ZxLmP2vN9sR4tK8wY1cB3');
const AWS_ID = j('AKIA', 'IOSFODNN7EXAMPLF');
const AWS_SECRET = j('wJalrXUtnFEMI', '/K7MDENG/bPxRfiCYEXAMPLEKEZ');
const OPENAI = j('sk-', 'proj-', 'Tq3v9XzL2mK8pW4rB7nC1yH6dF0sJ5gA');
const STRIPE = j('sk', '_live_', '51HqZxL2mK8pW4rB7nC1yH6d');
const GOOGLE = j('AIza', 'SyD3x9LmZ4vT7pW1nB6cY3hJ5dF0sGaE2uQ');
const NPM = j('npm', '_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8');
const JWT = j(
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
  '.',
  'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ',
  '.',
  'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
);

const tail = (s: string) => `***${s.slice(-4)}`;

describe('redactText', () => {
  it.each([
    ['GitHub classic token', `pushed with ${GH_CLASSIC} ok`, GH_CLASSIC],
    ['GitHub fine-grained token', `token ${GH_FINE}`, GH_FINE],
    ['GitLab token', `glab auth ${GITLAB}`, GITLAB],
    ['Slack token', `slack ${SLACK}`, SLACK],
    ['AWS access key id', `id ${AWS_ID} used`, AWS_ID],
    ['OpenAI-style key', `key is ${OPENAI}`, OPENAI],
    ['Stripe secret key', `charge with ${STRIPE}`, STRIPE],
    ['Google API key', `maps ${GOOGLE}`, GOOGLE],
    ['npm token', `publish ${NPM}`, NPM],
    ['JWT', `cookie session=${JWT}`, JWT],
  ])('masks a %s in prose, keeping the last four characters', (_name, text, secret) => {
    const r = redactText(text);
    expect(r.text).not.toContain(secret);
    expect(r.text).toContain(tail(secret));
    expect(r.redactions).toBeGreaterThanOrEqual(1);
  });

  it('masks env-like lines of secret names, whatever the quoting, and keeps the others', () => {
    const text = [
      `export GITHUB_TOKEN=${GH_CLASSIC}`,
      `AWS_SECRET_ACCESS_KEY="${AWS_SECRET}"`,
      "DB_PASSWORD='hunter2-but-longer'",
      'SSH_KEY=abcdefgh12345678',
      'PATH=/usr/bin:/bin',
      'PWD=/home/agent/work',
      'pass: 42, fail: 0',
    ].join('\n');
    const out = redactText(text).text.split('\n');
    expect(out[0]).toBe(`export GITHUB_TOKEN=${tail(GH_CLASSIC)}`);
    expect(out[1]).toBe(`AWS_SECRET_ACCESS_KEY="${tail(AWS_SECRET)}"`);
    expect(out[2]).toBe("DB_PASSWORD='***nger'");
    expect(out[3]).toBe('SSH_KEY=***5678');
    expect(out.slice(4)).toEqual(['PATH=/usr/bin:/bin', 'PWD=/home/agent/work', 'pass: 42, fail: 0']);
  });

  it('masks JSON and YAML secret fields, flags and headers', () => {
    const r = redactText(
      [
        `{"api_key": "${OPENAI}", "name": "build"}`,
        'password: correct-horse-battery',
        'deploy --password=s3cr3t-value --verbose',
        `curl -H "Authorization: Bearer ${JWT}" https://api.example.com`,
        'Authorization: Basic dXNlcjpwYXNzd29yZA==',
      ].join('\n'),
    );
    expect(r.text).toContain(`{"api_key": "${tail(OPENAI)}", "name": "build"}`);
    expect(r.text).toContain('password: ***tery');
    expect(r.text).toContain('--password=***alue --verbose');
    expect(r.text).toContain(`Authorization: Bearer ${tail(JWT)}`);
    expect(r.text).toContain('Authorization: Basic ***ZA==');
    expect(r.text).not.toContain('correct-horse');
  });

  it('masks URL credentials and secret query parameters (the config module does URLs)', () => {
    const r = redactText(
      'cloned https://oauth2:glpat-abcdefghijklmnopqrst@gitlab.example.com/g/r.git and https://x.test/?token=abcdef123456',
    );
    expect(r.text).not.toContain('glpat-abcdefghijklmnopqrst');
    expect(r.text).not.toContain('abcdef123456');
    expect(r.text).toContain('gitlab.example.com/g/r.git');
  });

  it('masks the body of a PEM private key block', () => {
    const pem = `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\nAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----`;
    const r = redactText(`key:\n${pem}\nend`);
    expect(r.text).not.toContain('b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ');
    expect(r.text).toContain('-----BEGIN OPENSSH PRIVATE KEY-----\n***\n-----END OPENSSH PRIVATE KEY-----');
  });

  it('is idempotent: masked text comes back unchanged, with no new redactions', () => {
    const once = redactText(
      `GITHUB_TOKEN=${GH_CLASSIC}\nAuthorization: Bearer ${JWT}\nhttps://u:p4ssw0rd!@h.test/x ${AWS_ID}`,
    );
    const twice = redactText(once.text);
    expect(twice.text).toBe(once.text);
    expect(twice.redactions).toBe(0);
  });

  it('leaves ordinary logs alone', () => {
    const log =
      'vitest: 120 passed, 0 failed\nBuilding for production...\nkey points: none\nhttps://example.com/docs';
    expect(redactText(log)).toEqual({ text: log, redactions: 0 });
  });
});

describe('redactDeep', () => {
  it('masks values of secret keys and secrets inside strings, at any depth', () => {
    const out = redactDeep({
      run_id: 'run-1',
      env: { GITHUB_TOKEN: GH_CLASSIC, HOME: '/home/a' },
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
      note: `used ${NPM}`,
      list: [{ password: 'abc12345' }],
      count: 3,
    });
    expect(out).toEqual({
      run_id: 'run-1',
      env: { GITHUB_TOKEN: tail(GH_CLASSIC), HOME: '/home/a' },
      headers: { authorization: '***YXNz' },
      note: `used ${tail(NPM)}`,
      list: [{ password: '***2345' }],
      count: 3,
    });
  });
});
