import { ValidationError } from '../infra/index.js';
import type { OrgProvider } from './provider-repo.js';

/** Where a host's REST API is and the token hub sends it. */
export interface ProviderConfig {
  provider: OrgProvider;
  /** API root without a trailing slash: `https://api.github.com`, `https://gitlab.com/api/v4`. */
  baseUrl: string;
  /** From the environment only; never printed (errors and results carry no token). */
  token?: string;
  /** The variable the token came from, for messages. */
  tokenVariable?: string;
}

const DEFAULTS: Record<OrgProvider, { url: string; urlVar: string; tokenVars: string[] }> = {
  github: {
    url: 'https://api.github.com',
    urlVar: 'HUB_GITHUB_API_URL',
    tokenVars: ['HUB_GITHUB_TOKEN', 'GITHUB_TOKEN', 'GH_TOKEN'],
  },
  gitlab: {
    url: 'https://gitlab.com/api/v4',
    urlVar: 'HUB_GITLAB_API_URL',
    tokenVars: ['HUB_GITLAB_TOKEN', 'GITLAB_TOKEN'],
  },
};

/** The rule a base URL breaks when it is not https (plain http only to this machine). */
export const API_URL_RULE = 'provider_api_url';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** True when the URL's host is this machine (the only place plain http or HUB_OFFLINE may reach). */
export function isLoopbackUrl(url: URL): boolean {
  return LOOPBACK.has(url.hostname);
}

/**
 * The API root and token of a host, from the environment only: a manifest or a workspace config travels with
 * a clone, and must not choose where the user's token is sent. Plain http is refused except to loopback
 * (tests, a local mirror), so a token never crosses a network in clear.
 */
export function providerConfig(
  provider: OrgProvider,
  env: Readonly<Record<string, string | undefined>>,
): ProviderConfig {
  const d = DEFAULTS[provider];
  const given = env[d.urlVar]?.trim();
  const raw = (given || d.url).replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ValidationError(`${d.urlVar} '${raw}' is not a URL (rule ${API_URL_RULE})`, {
      field: d.urlVar,
      value: raw,
      rule: API_URL_RULE,
    });
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackUrl(url)))
    throw new ValidationError(
      `${d.urlVar} '${raw}': the ${provider} API is reached over https only (plain http only on loopback) (rule ${API_URL_RULE})`,
      { field: d.urlVar, value: raw, rule: API_URL_RULE },
    );
  if (url.username || url.password)
    throw new ValidationError(`${d.urlVar}: put the token in ${d.tokenVars[0]}, not in the URL`, {
      field: d.urlVar,
      rule: API_URL_RULE,
    });
  const tokenVariable = d.tokenVars.find((v) => env[v]?.trim());
  return {
    provider,
    baseUrl: raw,
    ...(tokenVariable ? { token: env[tokenVariable]!.trim(), tokenVariable } : {}),
  };
}
