import type { CoordDeps } from '../coord/index.js';
import type { OpContext } from './context.js';
import { coordDeps } from './coord-deps.js';
import type { HttpBinding } from './registry.js';

/** Method, path (parameters filled in, query appended) and JSON body of one operation request. */
export function requestFor(
  binding: HttpBinding,
  input: Record<string, unknown>,
): { method: string; path: string; body: unknown } {
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) if (v !== undefined) rest[k] = v;
  const path = binding.route.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const v = rest[name];
    delete rest[name];
    return encodeURIComponent(String(v ?? ''));
  });
  if (binding.input === 'body') return { method: binding.method, path, body: rest };
  if (binding.input === 'none') return { method: binding.method, path, body: undefined };
  const q = new URLSearchParams(
    Object.entries(rest).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  ).toString();
  return { method: binding.method, path: q ? `${path}?${q}` : path, body: undefined };
}

/**
 * Runs a granular mutation where its document is kept. On a store that is a hub server (http backend) the
 * operation goes to that server's route for it (`binding`, the operation's own HTTP binding), where the server
 * applies it atomically against its own store: concurrent clients queue there instead of failing a
 * compare-and-swap. `input` is plain data: client-side work (reading a notes file, normalizing repository paths
 * against this workspace) is done before. A server without that route (a contract-only state server) gets the
 * operation applied here, by whole-document compare-and-swap; so does every other backend, atomically.
 */
export async function applyWhereStored<O>(
  ctx: OpContext,
  binding: HttpBinding,
  input: Record<string, unknown>,
  local: (deps: CoordDeps) => Promise<O>,
): Promise<O> {
  const deps = coordDeps(ctx);
  if (deps.store.callRoute) {
    const { method, path, body } = requestFor(binding, input);
    const answer = await deps.store.callRoute(method, path, body);
    if (answer.found) return answer.json as O;
    ctx.log(
      `hub: the state server has no ${binding.method} ${binding.route} (HTTP ${answer.status}); applying it with compare-and-swap`,
    );
  }
  return local(deps);
}
