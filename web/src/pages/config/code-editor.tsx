// The YAML editor: CodeMirror 6 with @codemirror/lang-yaml, loaded only when the YAML pane first shows (this module
// is imported lazily). Colours come from the page's CSS variables, so light and dark both read. Tab is left to the
// page (it moves focus on): CodeMirror's default keymap does not trap it. No eval, styles injected as <style>
// (the CSP allows 'unsafe-inline' styles, nothing else).
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState, type Extension, RangeSetBuilder } from '@codemirror/state';
import { Decoration, EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';
import { useEffect, useRef } from 'react';

const highlight = HighlightStyle.define([
  { tag: [t.propertyName, t.definition(t.propertyName)], color: 'var(--syn-key)' },
  { tag: [t.string, t.special(t.string), t.content], color: 'var(--syn-string)' },
  { tag: [t.number, t.bool, t.null, t.atom], color: 'var(--syn-atom)' },
  { tag: [t.lineComment, t.comment, t.blockComment], color: 'var(--syn-comment)', fontStyle: 'italic' },
  { tag: [t.keyword, t.meta, t.labelName, t.typeName], color: 'var(--syn-meta)' },
  { tag: [t.punctuation, t.separator, t.squareBracket, t.brace], color: 'var(--fg-muted)' },
]);

const theme = EditorView.theme({
  '&': { backgroundColor: 'var(--bg)', color: 'var(--fg)', fontSize: '13px', height: '100%' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.45' },
  '.cm-content': { caretColor: 'var(--fg)' },
  '.cm-gutters': {
    backgroundColor: 'var(--bg-raised)',
    color: 'var(--fg-muted)',
    borderRight: '1px solid var(--border)',
  },
  '.cm-activeLine': { backgroundColor: 'var(--bg-hover)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--bg-hover)' },
  // Inside the pane's border (the pane clips what is outside it).
  '&.cm-focused': { outline: '3px solid var(--focus)', outlineOffset: '-3px' },
  '.cm-selectionBackground, &.cm-focused .cm-selectionBackground, ::selection': {
    backgroundColor: 'var(--syn-selection) !important',
  },
  '.cm-cursor': { borderLeftColor: 'var(--fg)' },
  '.cm-error-line': { backgroundColor: 'var(--danger-bg)' },
});

const errorLine = Decoration.line({ class: 'cm-error-line' });

function lineMarks(lines: readonly number[]): Extension {
  return EditorView.decorations.of((view) => {
    const b = new RangeSetBuilder<Decoration>();
    const doc = view.state.doc;
    for (const n of [...new Set(lines)].sort((x, y) => x - y))
      if (n >= 1 && n <= doc.lines) b.add(doc.line(n).from, doc.line(n).from, errorLine);
    return b.finish();
  });
}

export interface CodeEditorProps {
  value: string;
  /** Accessible name of the editor's text area. */
  label: string;
  readOnly?: boolean;
  onChange?: (text: string) => void;
  /** Lines to mark (validation errors of the draft). */
  markLines?: readonly number[];
  /** Take the focus when created (the text editor opened by Edit YAML). */
  autoFocus?: boolean;
}

export default function CodeEditor({
  value,
  label,
  readOnly = false,
  onChange,
  markLines = [],
  autoFocus = false,
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView>(null);
  const marks = useRef(new Compartment());
  const editable = useRef(new Compartment());
  const change = useRef(onChange);
  change.current = onChange;

  // biome-ignore lint/correctness/useExhaustiveDependencies: created once; value, readOnly and marks update below.
  useEffect(() => {
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLine(),
          history(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          yaml(),
          syntaxHighlighting(highlight),
          theme,
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({ 'aria-label': label }),
          // Read-only still focusable: the keyboard moves through (and selects in) a preview.
          editable.current.of(EditorState.readOnly.of(readOnly)),
          marks.current.of(lineMarks(markLines)),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) change.current?.(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    if (autoFocus) v.focus();
    return () => {
      v.destroy();
      view.current = null;
    };
  }, []);

  // A new preview replaces the text (the viewer); an editor keeps what the user typed unless the value differs.
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value)
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({
      effects: editable.current.reconfigure(EditorState.readOnly.of(readOnly)),
    });
  }, [readOnly]);

  useEffect(() => {
    view.current?.dispatch({ effects: marks.current.reconfigure(lineMarks(markLines)) });
  }, [markLines]);

  return <div ref={host} className="code-editor" data-readonly={readOnly ? 'true' : 'false'} />;
}
