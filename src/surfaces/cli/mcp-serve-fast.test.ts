import { describe, expect, it } from 'vitest';
import { mcpServeArgs } from './mcp-serve-fast.js';

describe('mcpServeArgs: a plain `mcp serve` without commander', () => {
  it('reads --root, --tools, --dynamic and the global manifest option', () => {
    expect(mcpServeArgs(['mcp', 'serve'])).toEqual({ tools: 'full', dynamic: false });
    expect(mcpServeArgs(['mcp', 'serve', '--root', '/w', '--tools', 'core,acl', '--dynamic'])).toEqual({
      root: '/w',
      tools: 'core,acl',
      dynamic: true,
    });
    expect(mcpServeArgs(['-c', '/w/.hub.yml', 'mcp', 'serve', '--tools=core'])).toEqual({
      tools: 'core',
      dynamic: false,
      manifest: '/w/.hub.yml',
    });
  });

  it('leaves help, unknown options, stray words and other commands to commander', () => {
    for (const argv of [
      ['mcp', 'serve', '--help'],
      ['mcp', 'serve', '-h'],
      ['mcp', 'serve', '--toolz', 'core'],
      ['mcp', 'serve', 'extra'],
      ['mcp', 'serve', '--dynamic=yes'],
      ['mcp', 'tools'],
      ['component', 'list'],
      ['--json', 'mcp', 'serve'],
    ])
      expect(mcpServeArgs(argv), argv.join(' ')).toBeUndefined();
  });
});
