import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { normalizeLegacyInDocument } from './manifest-edit.js';
import { renderKeepingSource, snapshotYaml, styleOf } from './yaml-save.js';

/** Edits `text` through the Document API and renders it the way every hub save does. */
function save(text: string, edit: (doc: ReturnType<typeof parseDocument>) => void): string {
  const doc = parseDocument(text);
  const before = snapshotYaml(text, doc);
  edit(doc);
  return renderKeepingSource(before, doc);
}

describe('styleOf', () => {
  it('follows the file: padded flow collections, flush sequences, four-space indent', () => {
    expect(styleOf('a:\n    b: [ x ]\n    c:\n    - y\n')).toMatchObject({
      flowCollectionPadding: true,
      indentSeq: false,
      indent: 4,
      lineWidth: 0,
    });
    expect(styleOf('a:\n  b: [x]\n  c:\n    - y\n')).toMatchObject({
      flowCollectionPadding: false,
      indentSeq: true,
    });
  });
});

describe('renderKeepingSource', () => {
  it('returns the file itself when the edit changed nothing', () => {
    const text = 'a:   [ 1,2 ]   # spaced\nb: "q"\n';
    expect(save(text, () => {})).toBe(text);
  });

  it('changes only the edited line in a four-space, flush-sequence file', () => {
    const text =
      'top:\n    list:\n    - { k: 1 }\n    - {k: 2}\n    value: old   # note\n    other: "kept"\n';
    const out = save(text, (doc) => doc.setIn(['top', 'value'], 'new'));
    expect(out).toBe(
      'top:\n    list:\n    - { k: 1 }\n    - {k: 2}\n    value: new # note\n    other: "kept"\n',
    );
  });

  it('adds an item at the file indentation of its siblings', () => {
    const text = 'xs:\n- a: 1\n  b: [ 1 ]\n- a: 2\nys: [q]\n';
    const out = save(text, (doc) =>
      (doc.get('xs', true) as { add(v: unknown): void }).add(doc.createNode({ a: 3 })),
    );
    expect(out).toBe('xs:\n- a: 1\n  b: [ 1 ]\n- a: 2\n- a: 3\nys: [q]\n');
  });

  it('renames a legacy key on its own line only', () => {
    const text =
      'graph:\n  relationships:\n    - id: e\n      from_endpoint: {project: p,  repo: r}\n      to: {project: p,  repo: s}\n';
    const out = save(text, (doc) => normalizeLegacyInDocument(doc));
    expect(out).toBe(
      'graph:\n  relationships:\n    - id: e\n      from: {project: p, repo: r}\n      to: {project: p,  repo: s}\n',
    );
  });

  it('keeps anchors, aliases and block scalars around an edit', () => {
    const text = 'base: &b\n  x: 1\nuse: *b\nnote: |\n  line one\n    indented\nlast: 1\n';
    const out = save(text, (doc) => doc.set('last', 2));
    expect(out).toBe('base: &b\n  x: 1\nuse: *b\nnote: |\n  line one\n    indented\nlast: 2\n');
  });
});
