// The Campaigns page's links and live refresh: which URLs from a campaign file become links
// (web/src/components/safe-url.ts), and which events refresh the campaign routes (web/src/api/live-hooks.ts).
import { describe, expect, it } from 'vitest';
import { routesChangedBy } from '../../web/src/api/live-hooks.js';
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

describe('live refresh of the campaign routes', () => {
  it('campaign events and events of campaign objectives refresh /v3/ops/campaigns; others do not', () => {
    expect(routesChangedBy({ source: 'campaign', kind: 'CampaignRowUpdated', subject: 'slog-v2' })).toEqual([
      '/v3/ops/campaigns',
    ]);
    expect(
      routesChangedBy({ source: 'objective', kind: 'ObjectiveUpdated', subject: 'campaign-slog-v2-pay-api' }),
    ).toContain('/v3/ops/campaigns');
    expect(
      routesChangedBy({ source: 'objective', kind: 'ObjectiveUpdated', subject: 'auth-refresh' }),
    ).not.toContain('/v3/ops/campaigns');
    expect(routesChangedBy({ source: 'handoff', kind: 'HandoffCreated' })).not.toContain('/v3/ops/campaigns');
  });
});
