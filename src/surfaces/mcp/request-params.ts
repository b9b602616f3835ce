import { ClientRequestSchema, ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** A JSON-RPC error to answer instead of handing the request to the server. */
export interface ParamsError {
  code: number;
  message: string;
  data: { code: 'validation'; message: string; details: { field: string; method: string; rule: string } };
}

interface Checkable {
  safeParse(v: unknown): {
    success: boolean;
    error?: { issues: Array<{ path: PropertyKey[]; message: string; code: string }> };
  };
}

let byMethod: Map<string, Checkable> | undefined;

/** Every request schema of the protocol's client side, by method (built once, on first use). */
function schemas(): Map<string, Checkable> {
  if (!byMethod) {
    byMethod = new Map();
    for (const option of ClientRequestSchema.options) {
      const method = (option.shape.method as unknown as { value: unknown }).value;
      if (typeof method === 'string') byMethod.set(method, option as unknown as Checkable);
    }
  }
  return byMethod;
}

/**
 * Checks a request's params against the protocol schema of its method before the SDK sees it: the SDK answers a
 * mismatch with -32603 (internal error) and the schema library's multi-line dump. This answers -32602 (invalid
 * params) with one line naming the field and the rule instead. Other messages, and unknown methods, pass.
 */
export function checkRequestParams(message: JSONRPCMessage): ParamsError | undefined {
  if (!('method' in message) || !('id' in message)) return undefined;
  const schema = schemas().get(message.method);
  if (!schema) return undefined;
  const r = schema.safeParse(message);
  const issue = r.success ? undefined : r.error?.issues[0];
  if (!issue) return undefined;
  const field = issue.path.map(String).join('.') || 'params';
  const why = issue.message.replace(/^Invalid input: /, '').replace(/\s+/g, ' ');
  const text = `invalid params of ${message.method}: ${field}: ${why}`;
  return {
    code: ErrorCode.InvalidParams,
    message: text,
    data: {
      code: 'validation',
      message: text,
      details: { field, method: message.method, rule: `schema.${issue.code}` },
    },
  };
}
