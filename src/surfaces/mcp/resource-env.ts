import { type AnyOperation, invoke, type OpContext } from '../../ops/index.js';

/** What a resource read may use: a fresh context, the gate, the registry and the server's own facts. */
export interface ResourceEnv {
  ctx: OpContext;
  params: URLSearchParams;
  loc: { root: string; manifest: string };
  ops: readonly AnyOperation[];
  server: { name: string; version: string; profile: string; tools: number };
}

/** A resource body served as text rather than JSON (the start prompt, the manifest YAML). */
export class TextBody {
  constructor(
    readonly text: string,
    readonly mimeType: string,
  ) {}
}

export function findOp(ops: readonly AnyOperation[], id: string): AnyOperation | undefined {
  return ops.find((o) => o.id === id);
}

/** Runs a registry operation by id; the same validation and handler as every other surface. */
export async function runOp<T = unknown>(
  env: ResourceEnv,
  id: string,
  input: Record<string, unknown> = {},
): Promise<T> {
  const op = findOp(env.ops, id);
  if (!op) throw new Error(`operation ${id} is not registered`);
  return (await invoke(op, env.ctx, input)) as T;
}

/** A list resource's page: its `limit` and `offset` parameters, as given (the operation validates them). */
export function pageParams(env: ResourceEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ['limit', 'offset']) {
    const v = env.params.get(k);
    if (v !== null && v !== '') out[k] = v;
  }
  return out;
}

/** Every item of a paged list operation, page after page: for a reader that needs the whole list to decide. */
export async function runWholeList<T>(
  env: ResourceEnv,
  id: string,
  key: string,
  input: Record<string, unknown> = {},
): Promise<T[]> {
  const items: T[] = [];
  let offset = 0;
  for (;;) {
    const page = await runOp<Record<string, unknown>>(env, id, { ...input, limit: 1000, offset });
    items.push(...((page[key] as T[] | undefined) ?? []));
    const next = page.next_offset;
    if (typeof next !== 'number' || next <= offset) return items;
    offset = next;
  }
}
