import { beforeAll, describe, expect, it } from 'vitest';
import type { RepoCard } from './card.js';
import type { WorkspaceMap } from './map.js';
import { assemblePack } from './pack.js';
import { packMarkdown, packSummary } from './pack-markdown.js';
import { loadTokenCounter, type TokenCounter } from './tokens.js';

let counter: TokenCounter;
beforeAll(async () => {
  counter = await loadTokenCounter();
});

const map: WorkspaceMap = {
  root: '/w',
  manifest: '.hub.yml',
  counts: { projects: 1, repos: 2, components: 1 },
  active_project: null,
  projects: [{ name: 'p', repo_count: 2 }],
  repos: [
    { project: 'p', repo: 'web', path: 'p/web', status: 'synced', exists: true, tags: { team: 'a|b' } },
    { project: 'p', repo: 'sdk', path: 'p/sdk', status: 'synced', exists: true },
  ],
  offset: 0,
  limit: 80,
  total: 2,
  truncated: false,
  next_offset: null,
};

const card: RepoCard = {
  project: 'p',
  repo: 'web',
  path: '/w/p/web',
  status: 'synced',
  exists: true,
  is_git_repo: true,
  branch: 'main',
  dirty: false,
  changes: 0,
  ahead: null,
  behind: null,
  head_commit_age_days: 1,
  last_commit: { sha: 'abc', subject: 'Fix \u001b[31mred\u001b[0m things' },
  stack_hints: [{ stack: 'node', file: 'package.json' }],
  health_flags: [],
  ci: null,
  commands: [
    { kind: 'test', command: 'npm test', source: 'package.json:7' },
    { name: 'dev', command: 'npm run `dev`', source: 'manifest' },
  ],
  commands_total: 12,
  edges: {
    out: [
      {
        repo: 'p/sdk',
        type: 'depends_on',
        source: 'inferred',
        label: 'npm @acme/sdk',
        evidence: 'package.json:12',
        evidence_count: 2,
      },
    ],
    in: [],
  },
};

describe('pack as markdown', () => {
  it('prints the map, each card with its commands and edges and their sources, then the summary', () => {
    const { pack } = assemblePack(counter, { tier: 1, workspaceName: 'w', map, cards: [card], digest: null });
    const md = packMarkdown(pack);
    expect(md.startsWith('# Context pack: w (tier 1)')).toBe(true);
    expect(md).toContain('| p/web | p/web | synced | team=a\\|b |');
    expect(md).toContain('## p/web');
    expect(md).toContain('- test: `npm test`, from `package.json:7`');
    expect(md).toContain('- dev: `` npm run `dev` ``, from `manifest`');
    expect(md).toContain('- ... 10 more');
    expect(md).toContain('- -> p/sdk depends_on (inferred; npm @acme/sdk; `package.json:12` and 1 more)');
    expect(md).toContain('Used by: nothing the workspace graph knows of.');
    // Control sequences from a checkout are printed harmlessly.
    expect(md).toContain('"Fix [31mred[0m things"');
    expect(md).not.toContain('\u001b');
    const summary = packSummary(pack);
    expect(summary.split('\n')).toHaveLength(3);
    expect(md.endsWith(`---\n\n${summary}`)).toBe(true);
  });

  it('shows compile sections, and what the budget dropped', () => {
    const { pack } = assemblePack(counter, {
      tier: 1,
      workspaceName: 'w',
      map,
      cards: [card],
      digest: null,
      sections: [
        { key: 'scope', value: { project: 'p', repo: 'web' } },
        {
          key: 'component_commands',
          value: [{ kind: 'build', command: 'make', dir: 'ui', source: 'manifest' }],
        },
        { key: 'component_neighbors', value: { out: [], in: [] }, droppable: true },
      ],
      maxTokens: 330,
    });
    const md = packMarkdown(pack);
    expect(md).toContain('## scope\n\n- project: p\n- repo: web');
    expect(md).toContain('## component_commands\n\n- build: `make` in `ui`, from `manifest`');
    expect(md).toContain('## component_neighbors\n\nDropped to fit the budget.');
    expect(md.split('\n').at(-1)).toBe(`dropped: ${pack.dropped_sections.join(', ')}`);
  });
});
