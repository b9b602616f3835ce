import { parse as parseToml } from '@decimalturn/toml-patch';
import { parse as parseJsonc } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { type MergeOutcome, mergeServerEntry } from './mcp-merge.js';

const entry = { command: '/usr/bin/node', args: ['/opt/hub/bin/hub', 'mcp', 'serve', '--root', '/w'] };
const edit = (rootKey: string) => ({ rootKey, name: 'hub', entry });
const textOf = (o: MergeOutcome) => {
  if (o.kind !== 'merged') throw new Error(`expected merged, got ${JSON.stringify(o)}`);
  return o.text;
};

describe('JSON (with comments)', () => {
  const file = `{
    // servers I added by hand
    "mcpServers": {
        "github": { "command": "npx", "args": ["-y", "server-github"] } /* keep me */
    },
    "theme": "dark", // trailing comment
}
`;

  it('adds the entry and keeps every comment, key and the indentation', () => {
    const out = textOf(mergeServerEntry('json', file, edit('mcpServers')));
    for (const kept of [
      '// servers I added by hand',
      '/* keep me */',
      '// trailing comment',
      '"theme": "dark"',
    ])
      expect(out).toContain(kept);
    expect(out).toContain(
      '"github": { "command": "npx", "args": ["-y", "server-github"] }, /* keep me */\n        "hub": {\n            "command": "/usr/bin/node"',
    );
    expect(parseJsonc(out).mcpServers).toEqual({
      github: { command: 'npx', args: ['-y', 'server-github'] },
      hub: entry,
    });
  });

  it('a second merge is unchanged, whatever the key order', () => {
    const out = textOf(mergeServerEntry('json', file, edit('mcpServers')));
    expect(mergeServerEntry('json', out, edit('mcpServers'))).toEqual({ kind: 'unchanged' });
    const reordered = JSON.stringify({ mcpServers: { hub: { args: entry.args, command: entry.command } } });
    expect(mergeServerEntry('json', reordered, edit('mcpServers'))).toEqual({ kind: 'unchanged' });
  });

  it('creates the root key in a file without it, and a whole file when there is none', () => {
    const out = textOf(mergeServerEntry('json', '{\n\t"$schema": "x"\n}\n', edit('mcp')));
    expect(out).toContain('\t"mcp": {\n\t\t"hub"');
    expect(textOf(mergeServerEntry('json', null, edit('servers')))).toBe(
      `${JSON.stringify({ servers: { hub: entry } }, null, 2)}\n`,
    );
    expect(textOf(mergeServerEntry('json', '  \n', edit('servers')))).toContain('"servers"');
  });

  it('reports an entry of the same name with another value', () => {
    const other = '{"mcpServers": {"hub": {"command": "hub", "env": {"TOKEN": "s3cret"}}}}';
    const out = mergeServerEntry('json', other, edit('mcpServers'));
    expect(out.kind).toBe('differs');
    if (out.kind === 'differs') expect(parseJsonc(out.text).mcpServers.hub).toEqual(entry);
  });

  it('refuses a file that is not JSON, or whose root key is not an object', () => {
    expect(mergeServerEntry('json', '{"mcpServers": {', edit('mcpServers'))).toMatchObject({
      kind: 'unparsable',
      reason: expect.stringMatching(/not valid JSON: .* at line 1/),
    });
    expect(mergeServerEntry('json', '[1]', edit('mcpServers')).kind).toBe('unparsable');
    expect(mergeServerEntry('json', '{"mcpServers": []}', edit('mcpServers')).kind).toBe('unparsable');
  });

  it('inserts after a trailing comma, into an empty object and into a one-line file', () => {
    const trailing = textOf(
      mergeServerEntry('json', '{\n  "mcpServers": {\n    "a": {},\n  },\n}\n', edit('mcpServers')),
    );
    expect(trailing).toContain('"a": {},\n    "hub": {');
    const empty = textOf(mergeServerEntry('json', '{\n  "servers": {}\n}\n', edit('servers')));
    expect(empty).toContain('"servers": {\n    "hub": {\n      "command"');
    const oneLine = textOf(
      mergeServerEntry('json', '{"mcpServers": {"a": {"command": "x"}}} // mine\n', edit('mcpServers')),
    );
    expect(oneLine).toContain('// mine');
    expect(parseJsonc(oneLine).mcpServers).toEqual({ a: { command: 'x' }, hub: entry });
  });

  it('keeps CRLF line ends', () => {
    const out = textOf(mergeServerEntry('json', '{\r\n  "a": 1\r\n}\r\n', edit('mcpServers')));
    expect(out.replace(/\r\n/g, '')).not.toContain('\n');
  });
});

describe('YAML', () => {
  const file = `# Hermes config
model:
  default: x   # inline comment
mcp_servers:
  github:
    command: npx  # gh
    args: [-y, server-github]
'quoted': "kept as written"
`;

  it('adds the entry and keeps comments and untouched lines byte for byte', () => {
    const out = textOf(mergeServerEntry('yaml', file, edit('mcp_servers')));
    const lines = out.split('\n');
    for (const line of file.split('\n')) expect(lines).toContain(line);
    expect(parseYaml(out).mcp_servers.hub).toEqual(entry);
    expect(mergeServerEntry('yaml', out, edit('mcp_servers'))).toEqual({ kind: 'unchanged' });
  });

  it('handles a file of comments only, and an empty mcp_servers', () => {
    const out = textOf(mergeServerEntry('yaml', '# nothing yet\n', edit('mcp_servers')));
    expect(out).toContain('# nothing yet');
    expect(parseYaml(out)).toEqual({ mcp_servers: { hub: entry } });
    const empty = textOf(mergeServerEntry('yaml', 'mcp_servers:\nother: 1\n', edit('mcp_servers')));
    expect(parseYaml(empty)).toEqual({ mcp_servers: { hub: entry }, other: 1 });
  });

  it('refuses YAML that does not parse, duplicate keys and a top level that is not a mapping', () => {
    expect(mergeServerEntry('yaml', 'a: [1, 2\n', edit('mcp_servers'))).toMatchObject({ kind: 'unparsable' });
    expect(mergeServerEntry('yaml', 'a: 1\na: 2\n', edit('mcp_servers')).kind).toBe('unparsable');
    expect(mergeServerEntry('yaml', '- a\n- b\n', edit('mcp_servers')).kind).toBe('unparsable');
    expect(mergeServerEntry('yaml', 'mcp_servers: [a]\n', edit('mcp_servers')).kind).toBe('unparsable');
  });
});

describe('TOML', () => {
  const file = `# Codex config
model = "gpt-5" # the model

[mcp_servers.github]
# my github server
command = "npx"
args = ["-y", "server-github"]
env = { GITHUB_TOKEN = "x" }

[profiles.fast]
model = "o4-mini"
`;

  it('appends a [mcp_servers.hub] section, every other byte kept', () => {
    const out = textOf(mergeServerEntry('toml', file, edit('mcp_servers')));
    expect(out.startsWith(file)).toBe(true);
    expect(out.slice(file.length)).toBe(
      '\n[mcp_servers.hub]\ncommand = "/usr/bin/node"\nargs = ["/opt/hub/bin/hub", "mcp", "serve", "--root", "/w"]\n',
    );
    expect({ ...parseToml(out).mcp_servers.hub }).toEqual(entry);
    expect(mergeServerEntry('toml', out, edit('mcp_servers'))).toEqual({ kind: 'unchanged' });
  });

  it('writes an env table inline, and a new file as one section', () => {
    const withEnv = {
      rootKey: 'mcp_servers',
      name: 'hub',
      entry: { ...entry, env: { HUB_AGENT_MODE: 'true' } },
    };
    const out = textOf(mergeServerEntry('toml', null, withEnv));
    expect(out).toMatch(/^\[mcp_servers\.hub\]\n/);
    expect(out).toContain('env = {HUB_AGENT_MODE = "true"}');
    expect(parseToml(out).mcp_servers.hub).toEqual(withEnv.entry);
  });

  it('replaces a differing entry in place when forced, keeping the comments around it', () => {
    const mine = `${file}\n[mcp_servers.hub] # mine\ncommand = "hub"\nargs = ["mcp", "serve"]\n`;
    const out = mergeServerEntry('toml', mine, edit('mcp_servers'));
    expect(out.kind).toBe('differs');
    if (out.kind !== 'differs') return;
    expect(out.text).toContain('# my github server');
    expect(out.text).toContain('[mcp_servers.hub] # mine');
    expect(parseToml(out.text).mcp_servers.hub).toEqual(entry);
  });

  it('merges into a servers table written inline', () => {
    const out = textOf(
      mergeServerEntry('toml', 'mcp_servers = { a = { command = "x" } }\n', edit('mcp_servers')),
    );
    expect(parseToml(out).mcp_servers).toEqual({ a: { command: 'x' }, hub: entry });
  });

  it('refuses TOML that does not parse', () => {
    expect(mergeServerEntry('toml', 'model = \n', edit('mcp_servers'))).toMatchObject({
      kind: 'unparsable',
      reason: expect.stringMatching(/^not valid TOML/),
    });
    expect(mergeServerEntry('toml', 'mcp_servers = 3\n', edit('mcp_servers')).kind).toBe('unparsable');
  });
});

describe('files nested past the limit (issue 25)', () => {
  const n = 100_000;
  const refused = (format: 'json' | 'toml' | 'yaml', text: string, rootKey: string) => {
    const out = mergeServerEntry(format, text, edit(rootKey));
    expect(out).toMatchObject({
      kind: 'unparsable',
      rule: 'max_depth',
      reason: expect.stringMatching(
        /^nests deeper than the limit of 128 levels at line \d+(, column \d+)? \(max_depth\)$/,
      ),
    });
  };

  it('JSON and JSONC nested 100,000 deep are refused, never parsed', () => {
    refused('json', `{"mcpServers": {}, "a": ${'['.repeat(n)}${']'.repeat(n)}}`, 'mcpServers');
    refused('json', `// c\n{"servers": ${'{"a": '.repeat(n)}1${'}'.repeat(n)}}`, 'servers');
    // The same at a depth a real file has is fine.
    expect(mergeServerEntry('json', `{"a": ${'['.repeat(20)}${']'.repeat(20)}}`, edit('mcp')).kind).toBe(
      'merged',
    );
  });

  it('TOML nested by arrays, inline tables, dotted keys or headers is refused, never parsed', () => {
    refused('toml', `a = ${'['.repeat(n)}${']'.repeat(n)}\n`, 'mcp_servers');
    refused('toml', `a = ${'{b = '.repeat(n)}1${'}'.repeat(n)}\n`, 'mcp_servers');
    refused('toml', `a${'.b'.repeat(10_000)} = 1\n`, 'mcp_servers');
    refused('toml', `[a${'.b'.repeat(10_000)}]\n`, 'mcp_servers');
  });

  it('a TOML file over 1 MiB, or of more than 50,000 dotted-key parts, is refused, never parsed', () => {
    const big = `a = "${'x'.repeat(1024 * 1024)}"\n`;
    expect(mergeServerEntry('toml', big, edit('mcp_servers'))).toMatchObject({
      kind: 'unparsable',
      rule: 'max_size',
    });
    const parts = Array.from({ length: 12_501 }, (_, i) => `k${i}.a.b.c.d = 1`).join('\n');
    expect(mergeServerEntry('toml', parts, edit('mcp_servers'))).toMatchObject({
      kind: 'unparsable',
      rule: 'max_key_parts',
    });
  });

  it('YAML nested 100,000 deep is refused, never parsed', () => {
    refused('yaml', `a: ${'['.repeat(n)}${']'.repeat(n)}\n`, 'mcp_servers');
  });
});
