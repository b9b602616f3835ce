// Which URLs from a campaign file become links on the Campaigns page (web/src/components/safe-url.ts). The live
// refresh is tested in the browser (test/browser/campaigns.test.ts): live-hooks.ts needs the web build's resolution.
import { describe, expect, it } from 'vitest';
import { safeHref } from '../../web/src/components/safe-url.js';

describe('links from a campaign file', () => {
  it('are links only when absolute http or https', () => {
    expect(safeHref('https://git.example/shop/api/pull/12')).toBe('https://git.example/shop/api/pull/12');
    expect(safeHref('  http://git.example/a  ')).toBe('http://git.example/a');
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      '//evil.example/x',
      '/relative/path',
      'not a url',
      '',
      null,
      undefined,
    ])
      expect(safeHref(bad), String(bad)).toBeUndefined();
  });
});
