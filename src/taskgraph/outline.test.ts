import { describe, expect, it } from 'vitest';
import type { ValidationError } from '../infra/index.js';
import { nodesFromOutline } from './graphs.js';
import { parseOutline } from './outline.js';
import { TASK_LIMITS } from './schema.js';

const err = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e as ValidationError;
  }
  throw new Error('expected a failure');
};

describe('parseOutline', () => {
  it('reads indented text: each line depends on the nearest shallower line; bullets stripped', () => {
    const items = parseOutline(
      ['- Design the API', '  - Write the handler', '    * Test it', '  - Document it', 'Release'].join('\n'),
    );
    expect(items).toEqual([
      { title: 'Design the API' },
      { title: 'Write the handler', parent: 0 },
      { title: 'Test it', parent: 1 },
      { title: 'Document it', parent: 0 },
      { title: 'Release' },
    ]);
  });

  it('counts a tab as four columns and skips blank lines', () => {
    expect(parseOutline('a\n\n\tb\n    c\n')).toEqual([
      { title: 'a' },
      { title: 'b', parent: 0 },
      { title: 'c', parent: 0 },
    ]);
  });

  it('reads a JSON list of titles and objects', () => {
    expect(
      parseOutline(
        JSON.stringify(['one', { title: 'two', node_id: 'T2', depends_on: ['one'], priority: 3 }]),
      ),
    ).toEqual([{ title: 'one' }, { title: 'two', node_id: 'T2', depends_on: ['one'], priority: 3 }]);
  });

  it('names the item and field of a bad JSON item', () => {
    const e = err(() => parseOutline(JSON.stringify([{ title: 'x', owner: 'me' }])));
    expect(e.message).toContain('outline[0]');
    expect(e.message).toContain('owner');
    expect(err(() => parseOutline('[{"title": "x", "priority": "high"}]')).details).toMatchObject({
      field: 'outline[0].priority',
    });
  });

  it('refuses deep JSON before walking it, outlines past the limits, and empty ones', () => {
    expect(err(() => parseOutline(`${'['.repeat(5000)}${']'.repeat(5000)}`)).details).toMatchObject({
      rule: 'max_depth',
    });
    expect(err(() => parseOutline('x'.repeat(TASK_LIMITS.outline_bytes + 1))).details).toMatchObject({
      rule: 'outline_bytes',
    });
    const many = Array.from({ length: TASK_LIMITS.nodes_per_graph + 1 }, (_, i) => `t${i}`).join('\n');
    expect(err(() => parseOutline(many)).details).toMatchObject({ rule: 'nodes_per_graph' });
    expect(err(() => parseOutline(' \n\n')).details).toMatchObject({ rule: 'non_empty' });
    expect(err(() => parseOutline(`ok\n${'t'.repeat(201)}`)).details).toMatchObject({
      field: 'outline line 2',
      rule: 'title_chars',
    });
  });
});

describe('nodesFromOutline', () => {
  it('makes ids from titles, numbering collisions, and resolves dependencies by id or unique title', () => {
    const nodes = nodesFromOutline(
      'g',
      [],
      [
        { title: 'Fix the login!' },
        { title: 'Fix the login' },
        { title: 'Ship', depends_on: ['fix-the-login', 'Fix the login'] },
        { title: '***' },
        { title: 'child', parent: 0 },
      ],
      't0',
    );
    expect(nodes.map((n) => n.node_id)).toEqual([
      'fix-the-login',
      'fix-the-login-2',
      'ship',
      'node',
      'child',
    ]);
    expect(nodes[2]!.depends_on).toEqual(['fix-the-login', 'fix-the-login-2']);
    expect(nodes[4]!.depends_on).toEqual(['fix-the-login']);
  });

  it('refuses a given id that is taken or breaks the id rule', () => {
    const existing = nodesFromOutline('g', [], [{ title: 'a' }], 't0');
    expect(
      err(() => nodesFromOutline('g', existing, [{ title: 'x', node_id: 'a' }], 't1')).details,
    ).toMatchObject({ field: 'nodes[0].node_id', rule: 'unique_node_id' });
    for (const bad of ['../x', 'a/b', '-x', 'a..b', 'x.'])
      expect(
        err(() => nodesFromOutline('g', [], [{ title: 'x', node_id: bad }], 't1')).details,
      ).toMatchObject({
        field: 'nodes[0].node_id',
      });
  });
});
