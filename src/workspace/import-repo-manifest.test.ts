import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Catalog, validateCatalog } from '../catalog/index.js';
import { ValidationError } from '../infra/index.js';
import { manifestSchemas } from '../model/index.js';
import { importRepoManifestXml, safeName } from './import-repo-manifest.js';
import { parseXml } from './import-repo-manifest-xml.js';

const SAMPLE = fileURLToPath(new URL('../../test/fixtures/repo-manifest-sample.xml', import.meta.url));

const importText = (text: string, readInclude?: Parameters<typeof importRepoManifestXml>[1]['readInclude']) =>
  importRepoManifestXml(text, { file: 'm.xml', name: 'ws', readInclude });

const manifestOf = (
  projects: string,
  head = '<remote name="o" fetch="https://git.example.com/"/><default remote="o" revision="main"/>',
) => `<?xml version="1.0"?>\n<manifest>\n${head}\n${projects}\n</manifest>\n`;

function errorOf(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return err as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

describe('importRepoManifestXml on an AOSP excerpt', () => {
  const result = importRepoManifestXml(readFileSync(SAMPLE, 'utf8'), { file: SAMPLE, name: 'aosp' });
  const projects = result.manifest.workspace.projects;
  const repo = (project: string, name: string) =>
    projects.find((p) => p.name === project)?.repos.find((r) => r.name === name);

  it('groups repos by the first path segment and names them after their path', () => {
    expect(projects.map((p) => p.name)).toEqual([
      'build',
      'art',
      'bionic',
      'bootable',
      'frameworks',
      'external',
      'device',
      'packages',
      'prebuilts',
      'system',
      'tools',
    ]);
    expect(projects.find((p) => p.name === 'frameworks')!.repos.map((r) => r.name)).toContain(
      'frameworks-opt-car-services',
    );
    expect(result.counts).toMatchObject({ projects: 11, repos: 30, remotes: 1, removed: 0 });
  });

  it('builds url from the remote fetch and the project name, default_branch from the revision', () => {
    expect(repo('build', 'build-make')).toEqual({
      name: 'build-make',
      url: 'https://android.googlesource.com/platform/build',
      description: 'platform/build (repo path build/make)',
      default_branch: 'master',
      tags: { pdk: true },
    });
    expect(repo('tools', 'tools-tradefederation-core')?.url).toBe(
      'https://android.googlesource.com/platform/tools/tradefederation',
    );
    expect(repo('external', 'external-adt-infra')?.tags).toEqual({
      'adt-infra': true,
      notdefault: true,
      'pdk-fs': true,
    });
  });

  it('reports the include it could not read, and produces a valid hub manifest', () => {
    expect(result.counts.includes_missing).toBe(1);
    expect(result.warnings.join('\n')).toMatch(/line \d+: <include name="snippets\/lineage.xml"> not found/);
    const manifest = manifestSchemas().ManifestSchema.parse(result.manifest);
    const catalog = new Catalog({ path: '/w/.hub.yml', root: '/w', manifest, legacy: [] });
    expect(validateCatalog(catalog, { filesystem: false })).toEqual([]);
  });
});

describe('importRepoManifestXml semantics', () => {
  it('joins nested projects to their parent without inheriting its remote or revision', () => {
    const r = importText(
      manifestOf(
        `<project name="platform/outer" path="outer" groups="a, b" revision="refs/heads/outer-rev">
           <project name="inner" path="sub/inner" revision="refs/heads/dev" remote="other"/>
           <project name="plain" path="plain"/>
           <project name="pinned" path="pinned" remote="other"/>
         </project>`,
        `<remote name="o" fetch="https://git.example.com/"/><remote name="other" fetch="ssh://h.example/base" revision="stable"/>
         <default remote="o" revision="main"/>`,
      ),
    );
    expect(r.manifest.workspace.projects).toEqual([
      {
        name: 'outer',
        repos: [
          {
            name: 'outer',
            url: 'https://git.example.com/platform/outer',
            description: 'platform/outer (repo path outer)',
            default_branch: 'outer-rev',
            tags: { a: true, b: true },
          },
          {
            name: 'outer-sub-inner',
            url: 'ssh://h.example/base/platform/outer/inner',
            description: 'platform/outer/inner (repo path outer/sub/inner)',
            default_branch: 'dev',
          },
          {
            name: 'outer-plain',
            url: 'https://git.example.com/platform/outer/plain',
            description: 'platform/outer/plain (repo path outer/plain)',
            default_branch: 'main',
          },
          {
            name: 'outer-pinned',
            url: 'ssh://h.example/base/platform/outer/pinned',
            description: 'platform/outer/pinned (repo path outer/pinned)',
            default_branch: 'stable',
          },
        ],
      },
    ]);
  });

  it('applies remove-project and extend-project in document order', () => {
    const r = importText(
      manifestOf(`<project name="a" path="x/a"/><project name="b" path="x/b"/>
        <remove-project name="a"/><extend-project name="b" groups="extra" revision="v2"/>
        <remove-project name="gone"/><remove-project name="also-gone" optional="true"/>`),
    );
    expect(r.counts).toMatchObject({ repos: 1, removed: 1 });
    expect(r.manifest.workspace.projects[0]!.repos[0]).toMatchObject({
      name: 'x-b',
      default_branch: 'v2',
      tags: { extra: true },
    });
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/line 6: <remove-project name="gone"> matched no project/);
  });

  it('decodes entities and skips comments, CDATA and unknown elements', () => {
    const r = importText(
      manifestOf(`<!-- a <project name="commented"/> -->
        <notice><![CDATA[ <project name="cdata"/> ]]></notice>
        <project name="q&amp;a" path="tools/q&lt;&gt;&quot;&apos;&#65;&#x42;" />`),
    );
    const repos = r.manifest.workspace.projects.flatMap((p) => p.repos);
    expect(repos).toHaveLength(1);
    expect(repos[0]).toMatchObject({ name: 'tools-q-AB', url: 'https://git.example.com/q&a' });
  });

  it('makes repo names unique within a project and uses upstream for a pinned commit', () => {
    const sha = 'a'.repeat(40);
    const r = importText(
      manifestOf(
        `<project name="p1" path="lib/a b"/><project name="p2" path="lib/a+b"/><project name="p3" path="lib/x" revision="${sha}" upstream="refs/heads/release"/>`,
      ),
    );
    const repos = r.manifest.workspace.projects[0]!.repos;
    expect(repos.map((x) => x.name)).toEqual(['lib-a-b', 'lib-a-b-2', 'lib-x']);
    expect(repos[2]!.default_branch).toBe('release');
  });

  it('reads includes through the port, relative to the including file, and detects include cycles', () => {
    const files: Record<string, string> = {
      'm.xml': manifestOf('<include name="inc/one.xml"/>'),
      'inc/one.xml': '<manifest><project name="one" path="a/one"/></manifest>',
      'loop.xml': '<manifest><include name="loop.xml"/></manifest>',
    };
    const reader = (name: string) => (files[name] ? { file: name, text: files[name]! } : undefined);
    const r = importText(files['m.xml']!, reader);
    expect(r.counts).toMatchObject({ repos: 1, includes_read: 1, includes_missing: 0 });
    const err = errorOf(() =>
      importRepoManifestXml(files['loop.xml']!, { file: 'loop.xml', name: 'w', readInclude: reader }),
    );
    expect(err.message).toMatch(/loop.xml: line 1: .*includes itself/);
  });

  it('names the line of semantic errors', () => {
    const cases: Array<[string, RegExp]> = [
      [manifestOf('<project path="a"/>'), /line 4: <project> needs a non-empty name attribute/],
      [
        manifestOf('<project name="a" path="../up"/>'),
        /line 4: project a: path '..\/up' must be a relative path/,
      ],
      [
        manifestOf('<project name="a" path="d/a"/>\n<project name="b" path="d/a/"/>'),
        /line 5: project b uses path 'd\/a', already used by a \(m.xml: line 4\)/,
      ],
      [
        manifestOf('<project name="a" remote="nope"/>'),
        /line 4: project a uses remote 'nope', which no <remote> declares/,
      ],
      [
        manifestOf('<project name="a"/>', '<remote name="o" fetch="x"/>'),
        /line 4: project a names no remote/,
      ],
      ['<other/>', /line 1: the root element is <other>/],
    ];
    for (const [text, re] of cases) expect(errorOf(() => importText(text)).message).toMatch(re);
  });
});

describe('parseXml on malformed input', () => {
  const cases: Array<[string, string, RegExp]> = [
    [
      'mismatched end tag',
      '<manifest>\n  <project name="a">\n  </remote>\n</manifest>',
      /line 3: <\/remote> does not close <project> \(opened at line 2\)/,
    ],
    [
      'unclosed element',
      '<manifest>\n<project name="a">\n',
      /line 3: <project> opened at line 2 is never closed/,
    ],
    [
      'unquoted attribute',
      '<manifest>\n\n<project name=a/>\n</manifest>',
      /line 3: value of attribute name in <project> must be quoted/,
    ],
    [
      'unterminated attribute value',
      '<manifest>\n<project name="a/>\n</manifest>\n',
      /line 2: unterminated value of attribute name/,
    ],
    [
      'unknown entity',
      '<manifest>\n<project\n  name="a&nbsp;b"/>\n</manifest>',
      /line 3: unknown entity &nbsp; in attribute name of <project>/,
    ],
    ['bare ampersand', '<manifest><project name="a & b"/></manifest>', /line 1: '&' must start an entity/],
    [
      'duplicate attribute',
      '<manifest>\n<project name="a" name="b"/></manifest>',
      /line 2: duplicate attribute name/,
    ],
    [
      'unterminated comment',
      '<manifest>\n<!-- never closed\n<project/>\n</manifest>',
      /line 2: unterminated comment/,
    ],
    ['two roots', '<manifest/>\n<manifest/>', /line 2: a second root element/],
    ['stray text', '<manifest/>\ntrailing', /line 2: text after the root element/],
    ['empty file', '  \n', /line 1: no root element/],
    [
      'internal DTD subset',
      '<!DOCTYPE m [<!ENTITY x "y">]><manifest/>',
      /DOCTYPE with an internal subset is not supported/,
    ],
    [
      'missing whitespace between attributes',
      '<manifest><project name="a"path="b"/></manifest>',
      /expected whitespace before an attribute/,
    ],
  ];
  for (const [what, text, re] of cases) {
    it(`rejects ${what}, naming the line`, () => {
      const err = errorOf(() => parseXml(text, 'bad.xml'));
      expect(err.message).toMatch(/^bad\.xml: line \d+: /);
      expect(err.message).toMatch(re);
      expect(err.details).toMatchObject({ file: 'bad.xml', rule: 'xml_syntax' });
    });
  }

  it('parses attributes across lines, in either quote style, with the tag line recorded', () => {
    const root = parseXml(
      "<?xml version='1.0'?>\n<m>\n  <a x='1'\n     y=\"2\" />\n  <b></b >\n</m>",
      'f.xml',
    );
    expect(root.children.map((c) => [c.name, c.attrs, c.line])).toEqual([
      ['a', { x: '1', y: '2' }, 3],
      ['b', {}, 5],
    ]);
  });

  it('never throws anything but a ValidationError, whatever the input', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom('<', '>', '/', '!', '-', '"', "'", '=', '&', ';', 'a', ' ', '\n', '?', '['),
        }),
        (s) => {
          try {
            parseXml(s, 'fuzz.xml');
          } catch (err) {
            if (!(err instanceof ValidationError)) throw err;
          }
        },
      ),
    );
  });
});

describe('safeName', () => {
  it('always yields a valid hub name', () => {
    fc.assert(fc.property(fc.string(), (s) => /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(safeName(s))));
    expect(safeName('device/google')).toBe('device-google');
    expect(safeName('.hidden')).toBe('hidden');
  });
});
