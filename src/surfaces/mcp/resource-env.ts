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
