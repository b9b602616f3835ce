import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { blockMarkers, hookBlock, mergeHook, removeBlock, shQuote } from './guard-hook.js';

const block = (repository = 'platform/identity', strict = false) =>
  hookBlock({
    repository,
    manifest: "/w/it's/.hub.yml",
    hubCommand: ['/usr/bin/node', '/opt/hub/bin/hub'],
    strict,
  });

describe('the guard block', () => {
  it('quotes every value for the shell (a quote in a path cannot inject a command)', () => {
    expect(shQuote("it's")).toBe(`'it'\\''s'`);
    const text = block();
    expect(text).toContain(`'-c' '/w/it'\\''s/.hub.yml'`);
    // sh parses the block without error.
    execFileSync('sh', ['-n', '-c', text]);
  });

  it('stops the commit only in strict mode', () => {
    expect(block('p/r', true)).toContain(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion.
      '--strict ${hub_guard_agent:+--agent-id "$hub_guard_agent"} || exit 1',
    );
    expect(block('p/r', false)).not.toContain('exit 1');
  });
});

describe('merging with a hook', () => {
  const mine = '#!/bin/bash\nset -e\nnpm run lint\nexit 0\n';

  it('writes a new hook, or puts the block after the shebang of an existing shell hook, keeping its lines', () => {
    const fresh = mergeHook(undefined, block(), 'platform/identity');
    expect(fresh).toMatchObject({ ok: true, replaced: false });
    expect(
      (fresh as { text: string }).text.startsWith('#!/bin/sh\n# >>> hub claim guard platform/identity >>>'),
    ).toBe(true);
    const merged = mergeHook(mine, block(), 'platform/identity') as { ok: true; text: string };
    const lines = merged.text.split('\n');
    expect(lines[0]).toBe('#!/bin/bash');
    expect(lines[1]).toBe(blockMarkers('platform/identity').begin);
    expect(merged.text.endsWith('set -e\nnpm run lint\nexit 0\n')).toBe(true);
  });

  it('replaces its own block on a second install rather than adding another, and keeps other repositories’ blocks', () => {
    const once = (mergeHook(mine, block('platform/identity'), 'platform/identity') as { text: string }).text;
    const other = (mergeHook(once, block('platform/web'), 'platform/web') as { text: string }).text;
    const twice = mergeHook(other, block('platform/identity', true), 'platform/identity') as {
      text: string;
      replaced: boolean;
    };
    expect(twice.replaced).toBe(true);
    expect(twice.text.split(blockMarkers('platform/identity').begin)).toHaveLength(2);
    expect(twice.text).toContain(blockMarkers('platform/web').begin);
    expect(twice.text).toContain('|| exit 1');
    const removed = removeBlock(removeBlock(twice.text, 'platform/identity').text, 'platform/web');
    expect(removed).toEqual({ text: mine, removed: true });
  });

  it('does not edit a hook written in another language', () => {
    expect(mergeHook('#!/usr/bin/env python3\nprint(1)\n', block(), 'p/r')).toMatchObject({ ok: false });
    expect(mergeHook('npm test\n', block(), 'p/r')).toMatchObject({ ok: false });
  });
});
