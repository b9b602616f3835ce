import { diffLines } from 'diff';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ValidationError } from '../infra/index.js';
import { draftAppConfigText, patchAppConfigText } from './appconfig-patch.js';
import { appConfigSchema } from './appconfig-schema.js';
import { configTree, type TreeNode } from './config-tree.js';
import { draftManifestText } from './manifest-patch.js';
import { formatPointer, PatchOperationSchema, parsePatchPath } from './patch-operation.js';
import { jsonSchemaOf, withoutDefaults } from './schema-view.js';

/** Lines removed and added between two texts: what a save changed, nothing else. */
function changed(before: string, after: string): { removed: string[]; added: string[] } {
  const removed: string[] = [];
  const added: string[] = [];
  for (const part of diffLines(before, after)) {
    const lines = part.value.replace(/\n$/, '').split('\n');
    if (part.removed) removed.push(...lines);
    if (part.added) added.push(...lines);
  }
  return { removed, added };
}

function caught(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (err) {
    return err as ValidationError;
  }
  throw new Error('expected an error');
}

const MANIFEST = `# Team workspace: keep the comments.
workspace:
  name: "acme"   # quoted on purpose
  projects:
  - name: platform
    tags: {team: platform}
    repos:
      - name: api
        path: ./platform/api   # the checkout
        description: 'the API'
        components:
          - {name: server, path: services/server, kind: service}
          - {name: client, path: packages/client, depends_on: [server]}
      - name: web
        url: https://example.com/web.git
graph:
  relationships: []   # none yet
`;

describe('the patch operation format', () => {
  it('reads JSON pointers (with ~0 and ~1) and dotted paths, refusing empty segments', () => {
    expect(parsePatchPath('/workspace/projects/platform/repos/0')).toEqual([
      'workspace',
      'projects',
      'platform',
      'repos',
      '0',
    ]);
    expect(parsePatchPath('/a~1b/c~0d')).toEqual(['a/b', 'c~d']);
    expect(parsePatchPath('state.backend')).toEqual(['state', 'backend']);
    expect(formatPointer(['a/b', 'c~d', 0])).toBe('/a~1b/c~0d/0');
    expect(caught(() => parsePatchPath('/a//b')).details).toMatchObject({ rule: 'path', value: '/a//b' });
    expect(caught(() => parsePatchPath('a..b')).details).toMatchObject({ rule: 'path' });
    expect(caught(() => parsePatchPath('/a~2')).details).toMatchObject({ rule: 'path' });
  });

  it('needs a value for set and append, and refuses one for unset', () => {
    expect(PatchOperationSchema.safeParse({ op: 'set', path: '/a', value: null }).success).toBe(true);
    expect(PatchOperationSchema.safeParse({ op: 'remove', path: '/a/0' }).success).toBe(true);
    const noValue = PatchOperationSchema.safeParse({ op: 'append', path: '/a' });
    expect(noValue.error?.issues[0]).toMatchObject({
      path: ['value'],
      message: 'a value is required with op append',
    });
    expect(PatchOperationSchema.safeParse({ op: 'unset', path: '/a', value: 1 }).success).toBe(false);
    expect(PatchOperationSchema.safeParse({ op: 'move', path: '/a' }).success).toBe(false);
    expect(PatchOperationSchema.safeParse({ op: 'set', path: '/a', value: 1, extra: 1 }).success).toBe(false);
  });
});

describe('draftManifestText', () => {
  it('sets, appends, removes and unsets by item name, changing only those lines', () => {
    const { text, failures } = draftManifestText(
      MANIFEST,
      [
        { op: 'set', path: '/workspace/projects/platform/repos/api/description', value: 'the public API' },
        {
          op: 'append',
          path: '/workspace/projects/platform/repos/api/components',
          value: { name: 'cli', path: 'cmd/cli' },
        },
        { op: 'remove', path: '/workspace/projects/platform/repos/api/components', value: 'client' },
        { op: 'unset', path: '/workspace/projects/platform/tags' },
        { op: 'set', path: '/workspace/projects/platform/repos/web/default_branch', value: 'main' },
      ],
      '.hub.yml',
    );
    expect(failures).toEqual([]);
    const d = changed(MANIFEST, text);
    expect(d.removed).toEqual([
      '    tags: {team: platform}',
      "        description: 'the API'",
      '          - {name: client, path: packages/client, depends_on: [server]}',
    ]);
    expect(d.added).toEqual([
      "        description: 'the public API'",
      '          - {name: cli, path: cmd/cli}',
      '        default_branch: main',
    ]);
    expect(text).toContain('path: ./platform/api   # the checkout');
    expect(text).toContain('relationships: []   # none yet');
  });

  it('appends with a trailing - and addresses items by index', () => {
    const { text } = draftManifestText(
      MANIFEST,
      [
        { op: 'set', path: '/workspace/projects/0/repos/1/description', value: 'web' },
        { op: 'set', path: '/workspace/projects/platform/repos/-', value: { name: 'docs', path: './docs' } },
        { op: 'remove', path: '/workspace/projects/platform/repos/api/components/0' },
      ],
      '.hub.yml',
    );
    const data = parse(text);
    const repos = data.workspace.projects[0].repos;
    expect(repos.map((r: { name: string }) => r.name)).toEqual(['api', 'web', 'docs']);
    expect(repos[1].description).toBe('web');
    expect(repos[0].components.map((c: { name: string }) => c.name)).toEqual(['client']);
  });

  it('reports each operation that cannot apply, with its index, and applies the others', () => {
    const { text, failures } = draftManifestText(
      MANIFEST,
      [
        { op: 'set', path: '/workspace/projects/nope/description', value: 'x' },
        { op: 'append', path: '/workspace/name', value: 'x' },
        { op: 'remove', path: '/workspace/projects/platform/repos', value: 'ghost' },
        { op: 'remove', path: '/workspace/name' },
        { op: 'set', path: '/workspace/description', value: 'kept' },
      ],
      '.hub.yml',
      true,
    );
    expect(failures.map((f) => [f.operation, f.rule])).toEqual([
      [0, 'no_item'],
      [1, 'not_a_list'],
      [2, 'no_match'],
      [3, 'not_a_list_item'],
    ]);
    expect(failures[0]!.message).toContain("no item named 'nope'");
    expect(parse(text).workspace.description).toBe('kept');
    // Without collecting, the first one throws and names its operation.
    const err = caught(() =>
      draftManifestText(MANIFEST, [{ op: 'set', path: '/workspace/projects/nope/x', value: 1 }], '.hub.yml'),
    );
    expect(err.details).toMatchObject({ operation: 0, rule: 'no_item', path: '/workspace/projects/nope/x' });
  });

  it('leaves the text byte-identical when the operations change nothing', () => {
    const { text } = draftManifestText(
      MANIFEST,
      [{ op: 'unset', path: '/workspace/projects/platform/description' }],
      '.hub.yml',
    );
    expect(text).toBe(MANIFEST);
  });
});

describe('the application config on the shared format', () => {
  const TEXT = `# settings
coordination:
  allowed_branch_prefixes: ['agent/']   # who may branch
state:
  backend: local
`;

  it('appends and removes list items, and coerces a typed string at a pointer path', () => {
    const r = patchAppConfigText(TEXT, [
      { op: 'append', path: 'coordination.allowed_branch_prefixes', value: 'bot/' },
      { op: 'remove', path: '/coordination/allowed_branch_prefixes', value: 'agent/' },
      { op: 'set', path: '/state/conflict_retries', value: '4' },
    ]);
    expect(r.text).toBe(`# settings
coordination:
  allowed_branch_prefixes: ['bot/'] # who may branch
state:
  backend: local
  conflict_retries: 4
`);
    expect(r.config.state.conflict_retries).toBe(4);
  });

  it('collects failures for a preview instead of throwing', () => {
    const d = draftAppConfigText(
      TEXT,
      [
        { op: 'set', path: 'state.nope', value: 'x' },
        { op: 'append', path: 'state.backend', value: 'x' },
        { op: 'set', path: 'state.backend', value: 'memory' },
      ],
      'hub.config.yaml',
      true,
    );
    expect(d.failures.map((f) => [f.operation, f.rule])).toEqual([
      [0, 'unknown_key'],
      [1, 'not_a_list'],
    ]);
    expect(d.text).toContain('backend: memory');
  });
});

describe('withoutDefaults', () => {
  it('keeps only what differs from the schema defaults', () => {
    const config = appConfigSchema().parse({
      state: { backend: 'local', conflict_retries: 3 },
      config: { editor: 'vim' },
    });
    expect(withoutDefaults(config, jsonSchemaOf('appconfig'))).toEqual({
      state: { conflict_retries: 3 },
      config: { editor: 'vim' },
    });
    expect(withoutDefaults(appConfigSchema().parse({}), jsonSchemaOf('appconfig'))).toEqual({});
    const manifest = {
      workspace: { projects: [{ name: 'p', repos: [] }] },
      graph: {
        relationships: [{ id: 'r', from: {}, to: {}, type: 't', status: 'active', provenance: 'manual' }],
      },
    };
    expect(withoutDefaults(manifest, jsonSchemaOf('manifest'))).toEqual({
      workspace: { projects: [{ name: 'p' }] },
      graph: { relationships: [{ id: 'r', from: {}, to: {}, type: 't' }] },
    });
  });
});

describe('configTree', () => {
  const find = (n: TreeNode, path: string): TreeNode | undefined => {
    const stack = [n];
    while (stack.length) {
      const x = stack.pop()!;
      if (x.path === path) return x;
      stack.push(...(x.children ?? []));
    }
    return undefined;
  };

  it('annotates every node with path, type, value, default and whether it is set', () => {
    const tree = configTree(parse(MANIFEST), jsonSchemaOf('manifest'));
    expect(tree).toMatchObject({ path: '', type: 'object', set: true });
    expect(find(tree, '/workspace/name')).toMatchObject({ type: 'string', value: 'acme', set: true });
    expect(find(tree, '/workspace/description')).toMatchObject({ type: 'string', value: null, set: false });
    expect(find(tree, '/workspace/projects/platform/repos/api/components/server/kind')).toMatchObject({
      value: 'service',
      set: true,
    });
    expect(find(tree, '/workspace/projects/platform/tags')).toMatchObject({ type: 'map', set: true });
    expect(find(tree, '/workspace/projects/platform/repos/web/tags')).toMatchObject({
      type: 'map | array',
      set: false,
    });
    expect(find(tree, '/workspace/projects/platform/tags/team')).toMatchObject({ value: 'platform' });
    const repos = find(tree, '/workspace/projects/platform/repos')!;
    expect(repos).toMatchObject({ type: 'array', default: [], set: true });
    expect(repos.children!.map((c) => c.key)).toEqual(['api', 'web']);
    const name = find(tree, '/workspace/projects/platform/repos/web/name')!;
    expect(name).toMatchObject({ required: true, set: true, value: 'web' });
    const unsetObject = find(tree, '/workspace/projects/platform/repos/web/agent_profile')!;
    expect(unsetObject).toMatchObject({ set: false, type: 'object' });
    expect(unsetObject.children).toBeUndefined();
  });

  it('shows defaults of unset fields and the subtree at a path', () => {
    const raw = parse(
      'graph:\n  relationships:\n    - {id: r1, from: {repo: a}, to: {repo: b}, type: calls}\n',
    );
    const sub = configTree(raw, jsonSchemaOf('manifest'), ['graph', 'relationships', 'r1']);
    expect(sub.path).toBe('/graph/relationships/r1');
    expect(find(sub, '/graph/relationships/r1/status')).toMatchObject({
      set: false,
      value: 'active',
      default: 'active',
      enum: ['active', 'deprecated', 'proposed'],
    });
    expect(() => configTree(raw, jsonSchemaOf('manifest'), ['graph', 'nodes', 'x'])).toThrow(/nothing at/);
  });
});
