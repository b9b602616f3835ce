import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createDemo } from '../examples/demo-workspace.mjs';
import { loadTokenCounter } from '../src/context/index.js';
import { cliHelp } from '../src/ops/cli-help.js';
import { describeCommand, describeCommands } from '../src/ops/command-index.js';
import { loadOperations } from '../src/ops/index.js';
import { defineOp, READ_ONLY } from '../src/ops/registry.js';
import { CORE_TOOLS, inputSchemaOf, toolListTokens, toolOf } from '../src/surfaces/mcp/index.js';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { connectHub } from './mcp-client.js';

/**
 * Descriptions an agent can act on: every tool served by `hub mcp serve` says what it does and when to use it, in
 * the caller's terms (JSON argument names, never CLI flags), and the whole list fits a token budget.
 *
 * Conventions held here: a tool's description is its summary, then one sentence starting "Use when "; a word in
 * backticks is always an argument name of that tool (so a reference to an argument can be checked, and the CLI can
 * show it as its flag).
 */

/** Longest tool description, in characters; about 45 tokens. */
const MAX_DESCRIPTION = 220;
/** Longest argument description, in characters. */
const MAX_ARGUMENT = 120;
/** Token budgets of the serialized tools/list result (hub's o200k counter, as `hub mcp tools` counts). */
const FULL_BUDGET = 16_000;
const CORE_BUDGET = 2_500;

const OPERATIONS = await loadOperations();
const MCP_OPS = OPERATIONS.filter((op) => op.mcp);

/** A CLI flag as the CLI spells it: `--apply`, `--no-start`, `--dry-run`. */
const CLI_FLAG = /(^|[^\w-])--[a-z]/i;

let dir: string;
let root: string;
let full: Client;
let core: Client;
let fullTools: Tool[];
let coreTools: Tool[];

beforeAll(async () => {
  dir = createTempDir('hub-mcp-descriptions-');
  root = createDemo(join(dir, 'demo')).root;
  [full, core] = await Promise.all([connectHub(root), connectHub(root, ['--tools', 'core'])]);
  fullTools = (await full.listTools()).tools;
  coreTools = (await core.listTools()).tools;
});
afterAll(async () => {
  await Promise.all([full?.close(), core?.close()]);
  removeTempDir(dir);
});

/** Every property description of a JSON Schema, nested ones included, with its path. */
function argumentTexts(schema: unknown, path = ''): Array<{ path: string; text: string }> {
  const out: Array<{ path: string; text: string }> = [];
  const stack: Array<{ node: unknown; path: string }> = [{ node: schema, path }];
  while (stack.length > 0) {
    const { node, path: at } = stack.pop()!;
    if (!node || typeof node !== 'object') continue;
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (key === 'description' && typeof value === 'string') out.push({ path: at, text: value });
      else stack.push({ node: value, path: key === 'properties' ? at : `${at}.${key}` });
    }
  }
  return out;
}

/** The words in backticks of a text. */
const ticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

describe('tool descriptions an agent can act on', () => {
  it('every tool says what it does and then "Use when ...", within 220 characters, with no CLI flag', () => {
    expect(fullTools.length).toBe(MCP_OPS.length);
    const bad: string[] = [];
    for (const t of fullTools) {
      const d = t.description ?? '';
      if (CLI_FLAG.test(d)) bad.push(`${t.name}: names a CLI flag: ${d}`);
      // What it does comes first; the "Use when" sentence follows it.
      if (!/^\S.*[.)] Use when .+\.$/.test(d)) bad.push(`${t.name}: no "Use when ..." sentence: ${d}`);
      if (d.length > MAX_DESCRIPTION) bad.push(`${t.name}: ${d.length} characters (max ${MAX_DESCRIPTION})`);
    }
    expect(bad).toEqual([]);
  });

  it('every argument is described in JSON terms: no CLI flag, within 120 characters', () => {
    const bad: string[] = [];
    for (const t of fullTools)
      for (const { path, text } of argumentTexts(t.inputSchema)) {
        if (CLI_FLAG.test(text)) bad.push(`${t.name}${path}: names a CLI flag: ${text}`);
        if (text.length > MAX_ARGUMENT) bad.push(`${t.name}${path}: ${text.length} characters: ${text}`);
      }
    expect(bad).toEqual([]);
  });

  it('a word in backticks is an argument of that tool (arguments by their JSON names)', () => {
    const bad: string[] = [];
    for (const t of fullTools) {
      const names = new Set(Object.keys(t.inputSchema.properties ?? {}));
      const texts = [t.description ?? '', ...argumentTexts(t.inputSchema).map((a) => a.text)];
      for (const word of texts.flatMap(ticked))
        if (!names.has(word)) bad.push(`${t.name}: \`${word}\` is not one of its arguments`);
    }
    expect(bad).toEqual([]);
  });
});

describe('CLI help beside the tool list', () => {
  it("a field's CLI-only help shows in --help and never in the tool list", () => {
    const op = defineOp({
      id: 'fake.cli-help',
      summary: 'Nothing.',
      input: z.strictObject({
        agent_id: cliHelp(z.string(), 'Agent acting (see --agent-id rules).'),
        limit: cliHelp(z.number().optional(), 'Rows per page (default 1000 on the CLI).').describe(
          'Rows per page.',
        ),
      }),
      gate: 'active',
      attributes: READ_ONLY,
      handler: () => ({}),
      cli: { command: 'fake cli-help' },
      mcp: { tool: 'hub_fake_cli_help', when: 'Use when testing.' },
    });
    const help = Object.fromEntries(
      describeCommand(op, 'component')!.options.map((o) => [o.field, o.description]),
    );
    expect(help).toEqual({ agent_id: 'Agent acting (see --agent-id rules).', limit: 'Rows per page.' });
    const props = inputSchemaOf(op).properties as Record<string, { description?: string }>;
    expect(props.agent_id!.description).toBeUndefined();
    expect(props.limit!.description).toBe('Rows per page.');
  });

  it('shared fields keep their CLI help: page offsets, agent ids, task nodes', async () => {
    const { commands } = await describeCommands();
    const option = (id: string, field: string) =>
      commands.find((c) => c.id === id)!.options.find((o) => o.field === field)!.description;
    expect(option('component.list', 'offset')).toContain('next_offset');
    expect(option('component.list', 'limit')).toContain('default 1000 on the CLI');
    expect(option('worktree.create', 'agent_id')).not.toBe('');
    expect(option('task.start', 'node_id')).not.toBe('');
    const served = (name: string) =>
      fullTools.find((t) => t.name === name)!.inputSchema.properties as Record<
        string,
        { description?: string }
      >;
    expect(served('hub_component_list').offset!.description).toBeUndefined();
    expect(served('hub_worktree_create').agent_id!.description).toBeUndefined();
  });
});

describe('tool list token budget', () => {
  it('the full list keeps every tool within 16,000 tokens, as hub mcp tools counts it', async () => {
    const counter = await loadTokenCounter();
    const tokens = counter.count(JSON.stringify({ tools: fullTools }));
    // The served list is what hub counts: the figure `hub mcp tools` prints and the docs quote.
    expect(tokens).toBe(await toolListTokens(MCP_OPS.map(toolOf)));
    expect(fullTools.map((t) => t.name)).toEqual(MCP_OPS.map((op) => op.mcp!.tool));
    expect(tokens).toBeLessThanOrEqual(FULL_BUDGET);
  });

  it('the core profile stays within 2,500 tokens', async () => {
    const counter = await loadTokenCounter();
    const served = new Set(fullTools.map((t) => t.name));
    expect(coreTools.map((t) => t.name).sort()).toEqual(CORE_TOOLS.filter((n) => served.has(n)).sort());
    expect(counter.count(JSON.stringify({ tools: coreTools }))).toBeLessThanOrEqual(CORE_BUDGET);
  });
});
