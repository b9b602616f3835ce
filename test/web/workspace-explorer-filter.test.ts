// The Explorer's filter syntax (web/src/pages/workspace/explorer-filter.ts): each form, terms combined, quoting,
// terms still being typed, and the rows it keeps out of a small workspace shaped like the demo.
import { describe, expect, it } from 'vitest';
import {
  describeTerm,
  filterIndices,
  indexRow,
  parseFilter,
  type RowSource,
  tokenize,
} from '../../web/src/pages/workspace/explorer-filter.js';

const PROJECTS = {
  platform: { description: 'Identity, edge gateway and cloud infrastructure.', tags: { team: 'platform' } },
  storefront: { description: 'The shop customers see.', tags: {} },
};

const row = (
  id: string,
  exists: boolean,
  tags: RowSource['tags'],
  extra: Partial<RowSource> = {},
): RowSource => {
  const [project, repo] = id.split('/') as [string, string];
  return { id, project, repo, path: id, url: null, description: null, exists, tags, ...extra };
};

const ROWS: RowSource[] = [
  row(
    'platform/identity',
    true,
    { team: 'identity', tier: 'critical' },
    { description: 'Login and tokens.' },
  ),
  row('platform/gateway', true, { edge: true, rust: true }),
  row(
    'platform/legacy-billing',
    false,
    { legacy: true },
    { url: 'https://github.com/example/legacy-billing.git' },
  ),
  row('storefront/web', true, { team: 'storefront', surface: 'customer-facing' }),
  row('storefront/catalog', true, { team: 'storefront' }),
];
const INDEXED = ROWS.map((r) => indexRow(r, PROJECTS[r.project as keyof typeof PROJECTS]));

/** Ids of the rows a filter keeps. */
const keep = (q: string) => filterIndices(INDEXED, parseFilter(q).terms).map((i) => ROWS[i]!.id);

describe('tokenize', () => {
  it('splits on whitespace and keeps quoted spaces inside one term', () => {
    expect(tokenize('  a  b\tc ')).toEqual(['a', 'b', 'c']);
    expect(tokenize('"login service" tag:owner="jane doe"')).toEqual(['login service', 'tag:owner=jane doe']);
    expect(tokenize('""')).toEqual([]);
  });
});

describe('parseFilter', () => {
  it('reads each form, lowercased', () => {
    expect(
      parseFilter('Auth tag:Team #Edge tag:tier=Critical #team=SRE project:Platform status:synced').terms,
    ).toEqual([
      { kind: 'text', text: 'auth' },
      { kind: 'tag', key: 'team' },
      { kind: 'tag', key: 'edge' },
      { kind: 'tag', key: 'tier', value: 'critical' },
      { kind: 'tag', key: 'team', value: 'sre' },
      { kind: 'project', name: 'platform' },
      { kind: 'status', status: 'synced' },
    ]);
  });

  it('leaves out terms still being typed, and names a status that is neither synced nor missing', () => {
    expect(parseFilter('tag: # project: status:').terms).toEqual([]);
    const p = parseFilter('status:gone web');
    expect(p.terms).toEqual([{ kind: 'text', text: 'web' }]);
    expect(p.problems).toEqual(['status:gone is neither status:synced nor status:missing']);
  });

  it('treats other colons as free text (urls, unknown prefixes)', () => {
    expect(parseFilter('https://github.com lang:go').terms).toEqual([
      { kind: 'text', text: 'https://github.com' },
      { kind: 'text', text: 'lang:go' },
    ]);
  });

  it('describes each term for the chips', () => {
    expect(parseFilter('x #k #k=v project:p status:missing').terms.map(describeTerm)).toEqual([
      'text “x”',
      'tag k',
      'tag k = v',
      'project = p',
      'status = missing',
    ]);
  });
});

describe('matching', () => {
  it('keeps every row without a term', () => {
    expect(keep('')).toHaveLength(ROWS.length);
  });

  it('free text: repo, project, path, url, descriptions, tag keys and values', () => {
    expect(keep('billing')).toEqual(['platform/legacy-billing']);
    // The project's description counts for each of its repos.
    expect(keep('gateway')).toEqual(['platform/identity', 'platform/gateway', 'platform/legacy-billing']);
    expect(keep('LOGIN')).toEqual(['platform/identity']);
    expect(keep('github.com/example')).toEqual(['platform/legacy-billing']);
    expect(keep('shop')).toEqual(['storefront/web', 'storefront/catalog']);
    expect(keep('customer-facing')).toEqual(['storefront/web']);
    expect(keep('"cloud infrastructure"')).toHaveLength(3);
  });

  it('tag:<key> and #<key>: the key, also from the project, or any tag key or value containing it', () => {
    expect(keep('tag:rust')).toEqual(['platform/gateway']);
    expect(keep('#legacy')).toEqual(['platform/legacy-billing']);
    expect(keep('#team')).toHaveLength(5);
    expect(keep('#critical')).toEqual(['platform/identity']);
  });

  it('tag:<key>=<value>: exact value; the repo tag wins over its project tag', () => {
    expect(keep('tag:team=storefront')).toEqual(['storefront/web', 'storefront/catalog']);
    expect(keep('#team=platform')).toEqual(['platform/gateway', 'platform/legacy-billing']);
    expect(keep('tag:team=identity')).toEqual(['platform/identity']);
    expect(keep('tag:team=store')).toEqual([]);
    expect(keep('tag:edge=true')).toEqual(['platform/gateway']);
  });

  it('project:<name>: exact, case-insensitive', () => {
    expect(keep('project:Storefront')).toEqual(['storefront/web', 'storefront/catalog']);
    expect(keep('project:store')).toEqual([]);
  });

  it('status:synced and status:missing', () => {
    expect(keep('status:missing')).toEqual(['platform/legacy-billing']);
    expect(keep('status:synced')).toHaveLength(4);
  });

  it('combines terms with AND', () => {
    expect(keep('project:platform status:synced')).toEqual(['platform/identity', 'platform/gateway']);
    expect(keep('project:platform #team=platform status:synced')).toEqual(['platform/gateway']);
    expect(keep('status:synced #team=storefront cat')).toEqual(['storefront/catalog']);
    expect(keep('project:storefront status:missing')).toEqual([]);
  });

  it('never matches across two fields', () => {
    // "identity\nplatform" must not match "identityplatform" nor "y\np".
    expect(keep('identityplatform')).toEqual([]);
  });
});
