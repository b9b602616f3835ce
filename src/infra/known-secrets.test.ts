import { describe, expect, it } from 'vitest';
import { errorMapping, HubError } from './errors.js';
import { rememberSecret, scrubSecrets, scrubSecretsDeep } from './known-secrets.js';

describe('known secrets', () => {
  it('masks every known secret in text and in details, keys and encoded forms included, longest first', () => {
    rememberSecret('tok-A1B2C3D4E5');
    rememberSecret('tok-A1B2C3D4E5-longer/with space');
    rememberSecret('abc'); // too short to be a credential: never masked
    expect(scrubSecrets('Bearer tok-A1B2C3D4E5 and tok-A1B2C3D4E5-longer/with space')).toBe(
      'Bearer ***D4E5 and ***pace',
    );
    expect(scrubSecrets(`?t=${encodeURIComponent('tok-A1B2C3D4E5-longer/with space')}`)).not.toContain(
      'tok-',
    );
    expect(scrubSecrets('abc abc')).toBe('abc abc');
    const details = { auth: ['x', { 'tok-A1B2C3D4E5': 'tok-A1B2C3D4E5' }], n: 1 };
    expect(JSON.stringify(scrubSecretsDeep(details))).not.toContain('tok-A1');
    const plain = { a: 'nothing here' };
    expect(scrubSecretsDeep(plain)).toBe(plain);
  });

  it('errorMapping scrubs message and details of whatever error it maps', () => {
    rememberSecret('server-echo-SECRET-77');
    const m = errorMapping(
      new HubError('validation', 'echo Bearer server-echo-SECRET-77', { sent: 'server-echo-SECRET-77' }),
    );
    expect(JSON.stringify(m.body)).not.toContain('SECRET');
    expect(errorMapping(new Error('plain server-echo-SECRET-77')).body.error.message).toBe('plain ***T-77');
  });
});
