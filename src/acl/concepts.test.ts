import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildWorkspace, createTempDir, removeTempDir } from '../../test/fixtures/index.js';
import { Catalog, checkoutsOf } from '../catalog/index.js';
import { readRecordedEvents } from '../coord/index.js';
import { ValidationError } from '../infra/index.js';
import { readManifestFile } from '../model/index.js';
import { createMemoryStore } from '../state/index.js';
import { declareClaim } from './claims-declare.js';
import { conceptIdOf, conceptOwners, declareConcept, queryConcepts } from './concepts.js';
import { codeownersPatterns, parseCodeOwners } from './concepts-codeowners.js';
import { conceptConflicts, conceptHints } from './concepts-hints.js';
import { ingestCodeOwners, seedFromComponents } from './concepts-sync.js';
import { resolveRepository } from './repository-ref.js';

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) removeTempDir(t);
});

const memDeps = () => ({
  store: createMemoryStore(),
  retries: 1,
  now: () => new Date('2026-01-01T00:00:00Z'),
});
type Deps = ReturnType<typeof memDeps>;
const events = async (deps: Deps) => readRecordedEvents(deps.store);

describe('concept ids', () => {
  it('derive from names as the earlier product did, and refuse names without letters or digits', () => {
    expect(conceptIdOf('CI/CD')).toBe('cicd');
    expect(conceptIdOf('  Auth Flow ')).toBe('auth-flow');
    expect(conceptIdOf('billing.v2')).toBe('billing.v2');
    expect(() => conceptIdOf('!!!')).toThrow(ValidationError);
  });
});

describe('declare, query, owners', () => {
  it('creates a concept and its ownership, merges a second declaration, and records ConceptDeclared', async () => {
    const deps = memDeps();
    const a = await declareConcept(deps, {
      concept: 'Auth',
      repository: 'platform/identity',
      patterns: ['services/api/plugins/auth/**'],
      aliases: ['login'],
    });
    expect(a).toMatchObject({
      created_concept: true,
      created_ownership: true,
      concept: { concept_id: 'auth' },
    });
    const b = await declareConcept(deps, {
      concept: 'auth',
      repository: 'platform/identity',
      patterns: ['services/api/plugins/auth/**', 'docs/auth/**'],
    });
    expect(b.created_ownership).toBe(false);
    expect(b.ownership.patterns).toEqual(['services/api/plugins/auth/**', 'docs/auth/**']);
    expect(b.added_patterns).toEqual(['docs/auth/**']);
    const ev = await events(deps);
    expect(ev.map((e) => [e.source, e.kind])).toEqual([
      ['semantic', 'ConceptDeclared'],
      ['semantic', 'ConceptDeclared'],
    ]);
  });

  it('queries by id, name or alias (case-insensitive); a miss is found:false with close names', async () => {
    const deps = memDeps();
    await declareConcept(deps, {
      concept: 'Billing',
      repository: 'p/r',
      patterns: ['billing/**'],
      aliases: ['Payments'],
    });
    await declareConcept(deps, { concept: 'Billing', repository: 'p/s', patterns: ['pay/**'] });
    for (const q of ['billing', 'BILLING', 'payments']) {
      const r = await queryConcepts(deps, q);
      expect(r.found, q).toBe(true);
      expect(r.concepts[0]!.ownerships.map((o) => o.repository).sort()).toEqual(['p/r', 'p/s']);
    }
    expect(await queryConcepts(deps, 'biling')).toMatchObject({
      found: false,
      concepts: [],
      suggestions: ['Billing'],
    });
    expect((await queryConcepts(deps)).concepts).toHaveLength(1);
  });

  it('names the concepts owning a path or a glob, with the covering pattern and a witness', async () => {
    const deps = memDeps();
    await declareConcept(deps, { concept: 'auth', repository: 'p/r', patterns: ['**/auth/**'] });
    await declareConcept(deps, { concept: 'api', repository: 'p/r', patterns: ['services/api/**'] });
    const owners = await conceptOwners(deps, 'p/r', 'services/api/auth/token.go');
    expect(owners.map((o) => o.concept_id).sort()).toEqual(['api', 'auth']);
    expect((await conceptOwners(deps, 'p/r', 'services/web/x.go')).map((o) => o.concept_id)).toEqual([]);
    const glob = await conceptOwners(deps, 'p/r', 'services/*/auth/*.go');
    expect(glob.map((o) => [o.concept_id, o.matched[0]!.witness])).toEqual([
      ['auth', 'services/a/auth/a.go'],
      ['api', 'services/api/auth/a.go'],
    ]);
  });
});

describe('concept hints and conflicts', () => {
  it('hints at concepts a claim touches, and never makes them conflicts', async () => {
    const deps = memDeps();
    await declareConcept(deps, { concept: 'auth', repository: 'p/r', patterns: ['**/auth/**'] });
    const hints = await conceptHints(deps, 'p/r', ['services/*/auth/*.go', 'lib/*.go']);
    expect(hints).toMatchObject([
      {
        concept_id: 'auth',
        overlapping_patterns: [{ pattern: 'services/*/auth/*.go', owned_pattern: '**/auth/**' }],
      },
    ]);
    const r = await declareClaim(deps, {
      repository: 'p/r',
      agent_id: 'a1',
      patterns: ['services/api/auth/**'],
    });
    expect(r.concept_hints.map((h) => h.concept_id)).toEqual(['auth']);
  });

  it('reports a concept overlapped by two live agents (a pure read), recording the hint when a claim creates it', async () => {
    const deps = memDeps();
    await declareConcept(deps, { concept: 'auth', repository: 'p/r', patterns: ['**/auth/**'] });
    await declareClaim(deps, { repository: 'p/r', agent_id: 'a1', patterns: ['services/auth/**'] });
    expect(await conceptConflicts(deps, 'p/r')).toEqual([]);
    const second = await declareClaim(deps, { repository: 'p/r', agent_id: 'a2', patterns: ['web/auth/**'] });
    expect(second.concept_conflicts).toMatchObject([{ concept_id: 'auth', agent_ids: ['a1', 'a2'] }]);
    const before = (await events(deps)).length;
    const conflicts = await conceptConflicts(deps, 'p/r');
    expect(conflicts).toMatchObject([{ concept_id: 'auth', agent_ids: ['a1', 'a2'] }]);
    expect(conflicts[0]!.claim_ids).toHaveLength(2);
    expect((await events(deps)).length).toBe(before);
    const hint = (await events(deps)).filter((e) => e.kind === 'ConceptConflictHint');
    expect(hint).toMatchObject([
      { source: 'semantic', data: { concept_id: 'auth', agent_ids: ['a1', 'a2'] } },
    ]);
    // Renewing (nothing new claimed) records no second hint.
    await declareClaim(deps, { repository: 'p/r', agent_id: 'a2', patterns: ['web/auth/**'] });
    expect((await events(deps)).filter((e) => e.kind === 'ConceptConflictHint')).toHaveLength(1);
  });
});

describe('CODEOWNERS', () => {
  it('turns gitignore-style patterns into claim patterns as GitHub reads them', () => {
    expect(codeownersPatterns('*')).toEqual(['**']);
    expect(codeownersPatterns('*.js')).toEqual(['**/*.js']);
    expect(codeownersPatterns('/docs/')).toEqual(['docs/**']);
    expect(codeownersPatterns('docs/*')).toEqual(['docs/*']);
    expect(codeownersPatterns('apps/')).toEqual(['**/apps/**']);
    expect(codeownersPatterns('/build/logs/')).toEqual(['build/logs/**']);
    expect(codeownersPatterns('**/logs')).toEqual(['**/logs', '**/logs/**']);
    expect(codeownersPatterns('/scripts/deploy.sh')).toEqual(['scripts/deploy.sh', 'scripts/deploy.sh/**']);
  });

  it('parses owners, skipping what it cannot express, with line numbers', () => {
    const parsed = parseCodeOwners(
      [
        '# owners',
        '*       @org/core',
        '/services/auth/ @org/auth @alice # the auth team',
        '[Docs]',
        'docs/  @org/docs',
        '!secret @org/core',
        'lib/[ab]/ @org/core',
        '/vendor/',
      ].join('\n'),
    );
    expect(parsed.owners).toEqual([
      { owner: '@org/core', patterns: ['**'] },
      { owner: '@org/auth', patterns: ['services/auth/**'] },
      { owner: '@alice', patterns: ['services/auth/**'] },
      { owner: '@org/docs', patterns: ['**/docs/**'] },
    ]);
    expect(parsed.skipped.map((s) => s.line)).toEqual([4, 6, 7, 8]);
  });
});

describe('ingest and seed', () => {
  const ws = buildWorkspace({
    projects: [
      {
        name: 'platform',
        repos: [
          {
            name: 'identity',
            files: { '.github/CODEOWNERS': '/services/auth/ @org/auth\n*.md @org/docs\n' },
            components: [
              { name: 'api', path: 'services/api' },
              { name: 'root', path: '.' },
            ],
          },
          { name: 'web', files: { 'a.txt': 'x' } },
        ],
      },
    ],
  });
  temps.push(ws.root);
  const catalog = new Catalog(readManifestFile(ws.manifestPath));
  const repoDeps = { catalog, checkouts: checkoutsOf(catalog), definitionRoot: catalog.file.root };

  it('ingests CODEOWNERS as concepts, mirroring the file on the next run', async () => {
    const deps = memDeps();
    const target = await resolveRepository(repoDeps, 'platform/identity');
    const first = await ingestCodeOwners(deps, target);
    expect(first).toMatchObject({ file: '.github/CODEOWNERS', added: 2, concepts: ['org-auth', 'org-docs'] });
    expect((await queryConcepts(deps, 'org/auth')).concepts[0]!.ownerships[0]).toMatchObject({
      source: 'ingest',
      patterns: ['services/auth/**'],
      origin: '.github/CODEOWNERS',
    });
    expect(await ingestCodeOwners(deps, target)).toMatchObject({ added: 0, unchanged: 2 });
    writeFileSync(join(target.root!, '.github/CODEOWNERS'), '/services/auth/ @org/auth @org/sec\n');
    expect(await ingestCodeOwners(deps, target)).toMatchObject({ added: 1, removed: 1, unchanged: 1 });
    expect((await events(deps)).map((e) => e.kind)).toEqual(['ConceptIngested', 'ConceptIngested']);
    // A repository without the file: nothing ingested, nothing refused.
    const web = await resolveRepository(repoDeps, 'platform/web');
    expect(await ingestCodeOwners(deps, web)).toMatchObject({ file: null, added: 0 });
  });

  it('reads CODEOWNERS only as a regular file inside the checkout', async () => {
    const deps = memDeps();
    const outside = createTempDir('hub-codeowners-');
    temps.push(outside);
    writeFileSync(join(outside, 'CODEOWNERS'), '* @evil\n');
    const web = await resolveRepository(repoDeps, 'platform/web');
    symlinkSync(join(outside, 'CODEOWNERS'), join(web.root!, 'CODEOWNERS'));
    const r = await ingestCodeOwners(deps, web);
    expect(r).toMatchObject({ file: 'CODEOWNERS', added: 0 });
    expect(r.reason).toContain('outside');
  });

  it('seeds one concept per component owning <path>/** (** for the root)', async () => {
    const deps = memDeps();
    const r = await seedFromComponents(
      deps,
      'platform/identity',
      catalog.componentsByRepo.get('platform/identity')!,
    );
    expect(r).toMatchObject({ added: 2, concepts: ['api', 'root'] });
    const owners = await conceptOwners(deps, 'platform/identity', 'services/api/main.go');
    expect(owners.map((o) => [o.concept_id, o.source, o.patterns])).toEqual([
      ['api', 'seed', ['services/api/**']],
      ['root', 'seed', ['**']],
    ]);
    expect(
      await seedFromComponents(deps, 'platform/identity', catalog.componentsByRepo.get('platform/identity')!),
    ).toMatchObject({
      added: 0,
      unchanged: 2,
    });
  });
});
