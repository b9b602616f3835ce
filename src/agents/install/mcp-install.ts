import { ValidationError } from '../../infra/index.js';
import {
  INSTALL_SCOPES,
  type InstallRoots,
  type InstallScope,
  mcpConfigPath,
  mcpEntry,
  scopeBase,
  type VendorSpec,
} from '../vendors.js';
import { conflictPlan, type FileWritePlan, planOverState } from './file-writer.js';
import { isRecord, mergeServerEntry } from './mcp-merge.js';
import { widenServer } from './mcp-widen.js';
import { inspectTarget, MAX_CONFIG_BYTES } from './target-file.js';

/** Server names hub writes: a key every vendor's file accepts bare (no dots: TOML and JSON paths split on them). */
export const SERVER_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** How a vendor starts `hub mcp serve`. */
export interface McpServerCommand {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

export interface McpInstallRequest {
  vendor: VendorSpec;
  scope: InstallScope;
  roots: InstallRoots;
  /** The server's key in the file (default `hub`). */
  name: string;
  server: McpServerCommand;
  force?: boolean;
  /**
   * An existing entry that hub wrote for the same server with other tools is widened to serve both selections
   * (mcp-widen.ts) rather than refused: each installed agent keeps its tools.
   */
  widen?: boolean;
}

export interface McpInstallPlan {
  vendor: string;
  scope: InstallScope;
  path: string;
  root_key: string;
  name: string;
  entry: Record<string, unknown>;
  plan: FileWritePlan;
}

/** The server name, or a validation error naming the rule. */
export function checkServerName(name: string, field = 'name'): string {
  if (SERVER_NAME_RE.test(name)) return name;
  throw new ValidationError(
    `${field}: '${name}' is not a server name (1-64 letters, digits, '_' or '-', starting with a letter or digit)`,
    { field, value: name, rule: SERVER_NAME_RE.source },
  );
}

/** The refusal for a vendor that reads no MCP file in a scope: where it does read one, if anywhere. */
function noMcpFile(vendor: VendorSpec, scope: InstallScope): ValidationError {
  const other = INSTALL_SCOPES.find((s) => s !== scope && vendor.mcp[s]);
  const hint = other
    ? `${vendor.label} reads MCP servers only from its ${other}-scope file ~/${vendor.mcp[other]!.file}: use --scope ${other}`
    : `${vendor.label} documents no MCP configuration file that hub could write; add the server by hand as the vendor describes it (docs/agents.md), or install hub's skills for it instead (hub skills install --target ${vendor.id})`;
  return new ValidationError(`target: ${vendor.id} has no ${scope}-scope MCP file; ${hint}`, {
    field: 'target',
    value: vendor.id,
    rule: 'vendor_mcp_file',
    scope,
  });
}

/** Only the command of an entry, for messages: its env may hold the user's secrets. */
function commandOf(entry: unknown): string {
  const c = isRecord(entry) ? entry.command : undefined;
  const first = Array.isArray(c) ? c[0] : c;
  return typeof first === 'string' ? `command '${first}'` : 'another shape';
}

/**
 * Plans the MCP server entry for `hub mcp serve` in the vendor's file of the scope, merged into what is there
 * (mcp-merge.ts): nothing is written here. A file that does not parse, a link, a FIFO or an oversized file is
 * a conflict --force does not override; an entry of the same name with another value is one it does.
 */
export function planMcpInstall(req: McpInstallRequest): McpInstallPlan {
  const name = checkServerName(req.name);
  const target = mcpConfigPath(req.vendor, req.scope, req.roots);
  if (!target) throw noMcpFile(req.vendor, req.scope);
  const root = scopeBase(req.scope, req.roots);
  const entry = mcpEntry(target.target, req.server);
  const head = {
    vendor: req.vendor.id,
    scope: req.scope,
    path: target.path,
    root_key: target.target.rootKey,
    name,
    entry,
  };
  // A user-scope file is created readable by its owner only: users keep tokens in these files' env blocks.
  const opts = { root, mode: req.scope === 'user' ? 0o600 : 0o644 };
  const state = inspectTarget(target.path, { root, maxBytes: MAX_CONFIG_BYTES });
  if (state.kind === 'unsafe') return { ...head, plan: planOverState(target.path, state, '', opts) };
  if (state.kind === 'file' && state.text === null)
    return {
      ...head,
      plan: conflictPlan(target.path, state, '', {
        ...opts,
        rule: 'unparsable',
        forceable: false,
        reason: 'it is not UTF-8 text; hub never overwrites a file it cannot parse',
      }),
    };
  const text = state.kind === 'file' ? state.text : null;
  let out = mergeServerEntry(target.target.format, text, { rootKey: target.target.rootKey, name, entry });
  const wider =
    out.kind === 'differs' && req.widen ? widenServer(target.target, out.existing, req.server) : undefined;
  if (wider) {
    const widened = mcpEntry(target.target, wider);
    head.entry = widened;
    out = mergeServerEntry(target.target.format, text, {
      rootKey: target.target.rootKey,
      name,
      entry: widened,
    });
    if (out.kind === 'differs')
      return {
        ...head,
        plan: {
          ...planOverState(target.path, state, out.text, opts),
          reason: 'widened to serve both agents’ tools',
        },
      };
  }
  if (out.kind === 'unchanged') return { ...head, plan: planOverState(target.path, state, text ?? '', opts) };
  if (out.kind === 'merged') return { ...head, plan: planOverState(target.path, state, out.text, opts) };
  if (out.kind === 'unparsable')
    return {
      ...head,
      plan: conflictPlan(target.path, state, '', {
        ...opts,
        rule: 'unparsable',
        forceable: false,
        reason: `${out.reason}; hub never overwrites a file it cannot parse: fix it, then install again`,
      }),
    };
  const plan = planOverState(target.path, state, out.text, opts);
  const differs = `an entry '${name}' under '${target.target.rootKey}' exists with another value (${commandOf(out.existing)})`;
  if (req.force) return { ...head, plan: { ...plan, reason: `--force: replaced ${differs}` } };
  return {
    ...head,
    plan: {
      ...plan,
      action: 'conflict',
      rule: 'entry_differs',
      forceable: true,
      reason: `${differs}; --force replaces it`,
    },
  };
}
