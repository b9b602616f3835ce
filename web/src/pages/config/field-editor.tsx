// The editor of the selected tree node: what the schema says of it, and a typed input whose change becomes a
// pending patch operation (never a write: the draft is saved as a whole).
import { type FormEvent, type RefObject, useState } from 'react';
import { stringify } from 'yaml';
import type { PatchOperation, TreeNode } from '../../api/config-studio';
import { segment } from './text-diff';
import { inputKind, isRedacted, parseYamlValue, showValue } from './values';

export interface FieldEditorProps {
  node: TreeNode;
  onAdd: (ops: PatchOperation[]) => void;
  /** The input to focus when the tree asks to edit this field (Enter). */
  inputRef: RefObject<HTMLElement | null>;
}

const asText = (v: unknown): string =>
  v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);

export function FieldEditor({ node, onAdd, inputRef }: FieldEditorProps) {
  const kind = inputKind(node);
  const secret = isRedacted(node.value);
  const current = node.set && !secret ? node.value : undefined;
  const [text, setText] = useState(() =>
    kind === 'yaml' && node.set ? stringify(node.value, { lineWidth: 0 }).trimEnd() : asText(current),
  );
  const [checked, setChecked] = useState(() => Boolean(node.value));
  const [key, setKey] = useState('');
  const [error, setError] = useState<string>();
  const inputId = `field-${node.path || 'root'}`;
  const itemKind = node.children?.[0] ? inputKind(node.children[0]) : undefined;
  const itemEnum = node.children?.[0]?.enum;

  /** The typed value of the main input, or an error naming the rule. */
  const typedValue = (): { value: unknown } | { error: string } => {
    switch (kind) {
      case 'boolean':
        return { value: checked };
      case 'number':
      case 'integer': {
        const n = Number(text);
        if (text.trim() === '' || !Number.isFinite(n)) return { error: `${node.key}: enter a number` };
        if (kind === 'integer' && !Number.isInteger(n)) return { error: `${node.key}: enter a whole number` };
        return { value: n };
      }
      case 'yaml':
        return { value: parseYamlValue(text) };
      case 'enum':
        // The option as the schema has it (an enum of numbers stays numbers).
        return text === ''
          ? { error: `${node.key}: choose a value` }
          : { value: (node.enum ?? []).find((o) => String(o) === text) ?? text };
      default:
        return { value: text };
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    if (kind === 'list') {
      if (text === '') return setError('enter an item to add');
      const asString = itemKind === 'string' || itemKind === 'enum';
      onAdd([{ op: 'append', path: node.path, value: parseYamlValue(text, asString) }]);
      setText('');
      return;
    }
    if (kind === 'map') {
      if (key.trim() === '') return setError('enter a key');
      onAdd([{ op: 'set', path: `${node.path}/${segment(key.trim())}`, value: parseYamlValue(text) }]);
      setKey('');
      setText('');
      return;
    }
    if (kind === 'object') {
      onAdd([{ op: 'set', path: node.path, value: {} }]);
      return;
    }
    const v = typedValue();
    if ('error' in v) return setError(v.error);
    if (node.set && JSON.stringify(v.value) === JSON.stringify(node.value)) return setError('unchanged');
    onAdd([{ op: 'set', path: node.path, value: v.value }]);
  };

  const ref = (el: HTMLElement | null) => {
    inputRef.current = el;
  };

  return (
    <form className="field" onSubmit={submit} aria-label={`Edit ${node.path || '/'}`} tabIndex={-1}>
      <header className="field__head">
        <code className="field__path">{node.path}</code>
        <span className="field__type">{node.type}</span>
        {node.required && <span className="field__flag">required</span>}
        <span className={node.set ? 'field__flag field__flag--set' : 'field__flag'}>
          {node.set ? 'set' : 'unset'}
        </span>
      </header>
      {node.description && <p className="field__desc">{node.description}</p>}
      {node.default !== undefined && (
        <p className="field__default">
          default <code>{showValue(node.default)}</code>
        </p>
      )}
      {secret && <p className="field__default">a secret: shown redacted; type a new value to replace it</p>}

      {kind === 'none' && <p className="muted">This value is fixed by the schema.</p>}
      {(kind === 'string' || kind === 'number' || kind === 'integer') && (
        <label className="field__row" htmlFor={inputId}>
          <span>{node.key}</span>
          <input
            id={inputId}
            ref={ref}
            type={kind === 'string' ? 'text' : 'number'}
            step={kind === 'integer' ? 1 : 'any'}
            value={text}
            placeholder={secret ? 'new value' : node.default === undefined ? '' : asText(node.default)}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
      )}
      {kind === 'boolean' && (
        <label className="field__row field__row--check" htmlFor={inputId}>
          <input
            id={inputId}
            ref={ref}
            type="checkbox"
            checked={checked}
            onChange={(e) => setChecked(e.target.checked)}
          />
          <span>{node.key}</span>
        </label>
      )}
      {kind === 'enum' && (
        <label className="field__row" htmlFor={inputId}>
          <span>{node.key}</span>
          <select id={inputId} ref={ref} value={text} onChange={(e) => setText(e.target.value)}>
            {!node.set && <option value="">(choose)</option>}
            {(node.enum ?? []).map((o) => (
              <option key={String(o)} value={String(o)}>
                {String(o)}
              </option>
            ))}
          </select>
        </label>
      )}
      {kind === 'yaml' && (
        <label className="field__row field__row--block" htmlFor={inputId}>
          <span>{node.key} (YAML value)</span>
          <textarea
            id={inputId}
            ref={ref}
            rows={Math.min(8, Math.max(2, text.split('\n').length))}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
      )}
      {kind === 'list' && (
        <div className="field__list">
          <ul aria-label={`Items of ${node.key}`}>
            {(node.children ?? []).map((c) => (
              <li key={c.path}>
                <code>{c.value === undefined ? c.key : showValue(c.value)}</code>
                <button
                  type="button"
                  className="field__small"
                  aria-label={`Remove ${c.value === undefined ? c.key : showValue(c.value)} from ${node.key}`}
                  onClick={() =>
                    // A scalar item is removed by its value: the operation keeps meaning that item when
                    // other operations of the draft add or remove items before it.
                    onAdd([
                      c.value === undefined
                        ? { op: 'remove', path: c.path }
                        : { op: 'remove', path: node.path, value: c.value },
                    ])
                  }
                >
                  Remove
                </button>
              </li>
            ))}
            {(node.children ?? []).length === 0 && <li className="muted">no items</li>}
          </ul>
          <label className="field__row" htmlFor={inputId}>
            <span>New item</span>
            {itemKind === 'enum' && itemEnum ? (
              <select id={inputId} ref={ref} value={text} onChange={(e) => setText(e.target.value)}>
                <option value="">(choose)</option>
                {itemEnum.map((o) => (
                  <option key={String(o)} value={String(o)}>
                    {String(o)}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={inputId}
                ref={ref}
                value={text}
                placeholder={itemKind === 'string' ? 'text' : 'YAML value, e.g. {name: x}'}
                onChange={(e) => setText(e.target.value)}
              />
            )}
          </label>
        </div>
      )}
      {kind === 'map' && (
        <div className="field__map">
          <label className="field__row" htmlFor={`${inputId}-key`}>
            <span>Key</span>
            <input id={`${inputId}-key`} ref={ref} value={key} onChange={(e) => setKey(e.target.value)} />
          </label>
          <label className="field__row" htmlFor={inputId}>
            <span>Value</span>
            <input
              id={inputId}
              value={text}
              placeholder="YAML value"
              onChange={(e) => setText(e.target.value)}
            />
          </label>
        </div>
      )}
      {kind === 'object' && node.set && (
        <p className="muted">A mapping: expand it in the tree and pick one of its fields.</p>
      )}

      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
      <div className="field__actions">
        {kind !== 'none' && !(kind === 'object' && node.set) && (
          <button type="submit" className="primary">
            {kind === 'list'
              ? 'Add item'
              : kind === 'map'
                ? 'Add entry'
                : kind === 'object'
                  ? 'Create'
                  : 'Set'}
          </button>
        )}
        {node.set && !node.required && node.path !== '' && (
          <button type="button" onClick={() => onAdd([{ op: 'unset', path: node.path }])}>
            Unset
          </button>
        )}
      </div>
    </form>
  );
}
