import { createRequire } from 'node:module';
import type { Language as TsLanguage, Parser as TsParser } from 'web-tree-sitter';
import type { Language } from './sources.js';

/** The grammar file of each language in tree-sitter-wasms (prebuilt WebAssembly, no native build). */
const GRAMMAR: Record<Language, string> = {
  typescript: 'tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-tsx.wasm',
  javascript: 'tree-sitter-javascript.wasm',
  python: 'tree-sitter-python.wasm',
  go: 'tree-sitter-go.wasm',
  rust: 'tree-sitter-rust.wasm',
};

export interface Parsers {
  /** A parser for `language`, its grammar loaded on first use. */
  get(language: Language): Promise<TsParser>;
}

/**
 * Loads web-tree-sitter on first call (only atlas commands reach this module, through import()), and each
 * language's grammar when a file of it is first met.
 */
export async function createParsers(): Promise<Parsers> {
  const ts = await import('web-tree-sitter');
  await ts.Parser.init();
  const require = createRequire(import.meta.url);
  const cache = new Map<Language, Promise<TsParser>>();
  const load = async (language: Language): Promise<TsParser> => {
    const lang: TsLanguage = await ts.Language.load(
      require.resolve(`tree-sitter-wasms/out/${GRAMMAR[language]}`),
    );
    const parser = new ts.Parser();
    parser.setLanguage(lang);
    return parser;
  };
  return {
    get(language) {
      let p = cache.get(language);
      if (!p) {
        p = load(language);
        cache.set(language, p);
      }
      return p;
    },
  };
}
