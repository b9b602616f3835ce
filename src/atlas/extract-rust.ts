import type { Node } from 'web-tree-sitter';
import {
  type Extracted,
  type FoundSymbol,
  type FoundTest,
  kids,
  lineOf,
  type SymbolKind,
} from './extract-types.js';

const ITEM_KIND: Record<string, SymbolKind> = {
  function_item: 'function',
  function_signature_item: 'function',
  struct_item: 'class',
  enum_item: 'type',
  union_item: 'type',
  trait_item: 'interface',
  type_item: 'type',
  const_item: 'variable',
  static_item: 'variable',
};

/** `pub` exactly: `pub(crate)` and `pub(super)` are not the crate's public interface. */
const isPub = (item: Node): boolean =>
  kids(item).some((c) => c.type === 'visibility_modifier' && c.text === 'pub');

/** The type an `impl` block is for: `impl<T> Foo<T>` and `impl Trait for Foo` -> `Foo`. */
function implType(item: Node): string | undefined {
  let t = item.childForFieldName('type');
  while (t && (t.type === 'generic_type' || t.type === 'scoped_type_identifier'))
    t = t.childForFieldName(t.type === 'generic_type' ? 'type' : 'name');
  return t?.text;
}

/**
 * `pub` items of a crate file, inside `pub mod` blocks too (names prefixed with the module path), and `pub fn`s of
 * `impl` blocks as methods of their type. Walked with an explicit stack.
 */
export function rustSymbols(root: Node): FoundSymbol[] {
  const out: FoundSymbol[] = [];
  const stack: Array<{ list: Node; prefix: string }> = [{ list: root, prefix: '' }];
  while (stack.length > 0) {
    const { list, prefix } = stack.pop()!;
    for (const item of kids(list)) {
      const kind = ITEM_KIND[item.type];
      if (kind && isPub(item)) {
        const name = item.childForFieldName('name');
        if (name) out.push({ name: prefix + name.text, kind, line: lineOf(name) });
      } else if (item.type === 'mod_item' && isPub(item)) {
        const body = item.childForFieldName('body');
        const name = item.childForFieldName('name')?.text;
        if (body && name) stack.push({ list: body, prefix: `${prefix}${name}::` });
      } else if (item.type === 'impl_item') {
        const type = implType(item);
        const body = item.childForFieldName('body');
        // A trait impl's methods are public when the trait is; an inherent impl's need `pub`.
        const traitImpl = item.childForFieldName('trait') !== null;
        for (const f of body && type ? kids(body) : []) {
          if (f.type !== 'function_item' || !(traitImpl || isPub(f))) continue;
          const name = f.childForFieldName('name');
          if (name)
            out.push({ name: name.text, kind: 'method', line: lineOf(name), receiver: prefix + type });
        }
      }
    }
  }
  return out.sort((a, b) => a.line - b.line);
}

/** An attribute that marks a test: `#[test]`, `#[tokio::test]`, `#[async_std::test(...)]`, `#[rstest]`. */
function isTestAttribute(attr: Node): boolean {
  const inner = kids(attr).find((c) => c.type === 'attribute' || c.type === 'meta_item');
  const path = (inner ? kids(inner)[0] : undefined)?.text ?? '';
  return path === 'test' || path.endsWith('::test') || path === 'rstest';
}

/** Functions with a test attribute, in any module (names with their module path), walked with a stack. */
export function rustTests(root: Node): FoundTest[] {
  const out: FoundTest[] = [];
  const stack: Array<{ list: Node; prefix: string }> = [{ list: root, prefix: '' }];
  while (stack.length > 0) {
    const { list, prefix } = stack.pop()!;
    let marked = false;
    for (const item of kids(list)) {
      if (item.type === 'attribute_item') {
        marked ||= isTestAttribute(item);
        continue;
      }
      if (item.type === 'function_item' && marked) {
        const name = item.childForFieldName('name');
        if (name) out.push({ name: prefix + name.text, line: lineOf(name), framework: 'cargo test' });
      } else if (item.type === 'mod_item') {
        const body = item.childForFieldName('body');
        const name = item.childForFieldName('name')?.text;
        if (body && name) stack.push({ list: body, prefix: `${prefix}${name}::` });
      }
      if (item.type !== 'line_comment' && item.type !== 'block_comment') marked = false;
    }
  }
  return out.sort((a, b) => a.line - b.line);
}

export function extractRust(root: Node): Extracted {
  return { symbols: rustSymbols(root), tests: rustTests(root) };
}
