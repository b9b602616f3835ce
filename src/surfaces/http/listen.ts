import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { HubError, ValidationError } from '../../infra/index.js';
import { createHubServer, type HubServer, type HubServerOptions } from './create-server.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8787;
/** How many ports above a busy default port are tried. */
export const PORT_PROBES = 50;

export interface Listening {
  host: string;
  port: number;
  url: string;
}

/** The URL a browser would use for a bind address (wildcards shown as loopback, IPv6 in brackets). */
export function urlFor(host: string, port: number): string {
  const shown = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${isIP(shown) === 6 ? `[${shown}]` : shown}:${port}/`;
}

/** Parses `--port`: an integer 0-65535 (0 lets the system pick). */
export function parsePort(value: string | number): number {
  const n = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 0 || n > 65_535)
    throw new ValidationError(`port: '${value}' is not a port number (0-65535)`, {
      field: 'port',
      value,
      rule: 'port_range',
    });
  return n;
}

/**
 * Binds the server. A busy port is an error when the port was given explicitly; otherwise the next ports are
 * probed (up to PORT_PROBES), as the spec allows for the default port.
 */
export async function listenWithProbe(
  app: FastifyInstance,
  opts: { host: string; port: number; explicitPort: boolean },
): Promise<Listening> {
  const tries = opts.explicitPort || opts.port === 0 ? 1 : PORT_PROBES;
  let lastErr: NodeJS.ErrnoException | undefined;
  for (let i = 0; i < tries && opts.port + i <= 65_535; i++) {
    try {
      await app.listen({ host: opts.host, port: opts.port + i });
      const addr = app.server.address();
      const port = typeof addr === 'object' && addr ? addr.port : opts.port + i;
      return { host: opts.host, port, url: urlFor(opts.host, port) };
    } catch (err) {
      lastErr = err as NodeJS.ErrnoException;
      if (lastErr.code !== 'EADDRINUSE') break;
    }
  }
  const busy = lastErr?.code === 'EADDRINUSE';
  const range = tries > 1 ? `ports ${opts.port}-${opts.port + tries - 1}` : `port ${opts.port}`;
  throw new HubError(
    'internal',
    busy
      ? `cannot listen on ${opts.host}: ${range} in use${opts.explicitPort ? ' (pass another --port)' : ''}`
      : `cannot listen on ${opts.host}:${opts.port}: ${lastErr?.code ?? lastErr?.message}`,
    { host: opts.host, port: opts.port, rule: busy ? 'port_free' : 'listen' },
  );
}

export interface StartOptions extends HubServerOptions {
  /** Default DEFAULT_PORT; probed upward when busy unless `explicitPort`. */
  port?: number;
  explicitPort?: boolean;
}

/** Creates the server and binds it: the running server and where it listens. */
export async function startHubServer(opts: StartOptions): Promise<HubServer & { listening: Listening }> {
  const host = opts.host ?? DEFAULT_HOST;
  const server = await createHubServer({ ...opts, host });
  try {
    const listening = await listenWithProbe(server.app, {
      host,
      port: opts.port ?? DEFAULT_PORT,
      explicitPort: Boolean(opts.explicitPort),
    });
    return { ...server, listening };
  } catch (err) {
    await server.close();
    throw err;
  }
}
