import { ValidationError } from '../infra/index.js';

/** One XML element: its attributes (entities decoded), the line its tag starts on, and its child elements. */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  line: number;
  children: XmlElement[];
}

/** Deeper nesting than any repo manifest has; bounds recursion on hostile input. */
const MAX_DEPTH = 64;

const NAME = /[A-Za-z_:][-A-Za-z0-9_:.]*/y;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Parses the element structure of a small XML document (a repo manifest): elements and attributes, with
 * comments, processing instructions, CDATA and text skipped. No DTDs and no entities beyond the five
 * predefined ones and character references. Errors are ValidationErrors that name the file and line.
 */
export function parseXml(text: string, file: string): XmlElement {
  let pos = 0;
  let line = 1;
  const fail = (message: string, at = line): never => {
    throw new ValidationError(`${file}: line ${at}: ${message}`, { file, line: at, rule: 'xml_syntax' });
  };
  // Moves to `to`, counting the newlines passed, so every error can name its line.
  const moveTo = (to: number) => {
    for (let k = text.indexOf('\n', pos); k !== -1 && k < to; k = text.indexOf('\n', k + 1)) line++;
    pos = to;
  };
  const skipSpace = () => {
    let k = pos;
    while (k < text.length && isSpace(text.charCodeAt(k))) k++;
    moveTo(k);
  };
  const readName = (what: string): string => {
    NAME.lastIndex = pos;
    const m = NAME.exec(text);
    if (!m) fail(`expected ${what} name, found ${describe(text, pos)}`);
    moveTo(pos + m![0].length);
    return m![0];
  };
  const skipPast = (end: string, what: string) => {
    const startLine = line;
    const k = text.indexOf(end, pos);
    if (k === -1) fail(`unterminated ${what}`, startLine);
    moveTo(k + end.length);
  };

  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (pos < text.length) {
    const lt = text.indexOf('<', pos);
    const textEnd = lt === -1 ? text.length : lt;
    if (stack.length === 0) {
      const stray = text.slice(pos, textEnd).search(/[^ \t\r\n]/);
      if (stray !== -1) {
        moveTo(pos + stray);
        fail(root ? 'text after the root element' : 'text before the root element');
      }
    }
    moveTo(textEnd);
    if (lt === -1) break;
    if (text.startsWith('<!--', pos)) skipPast('-->', 'comment');
    else if (text.startsWith('<?', pos)) skipPast('?>', 'processing instruction');
    else if (text.startsWith('<![CDATA[', pos)) {
      if (stack.length === 0) fail('CDATA outside the root element');
      skipPast(']]>', 'CDATA section');
    } else if (text.startsWith('<!DOCTYPE', pos)) {
      const close = text.indexOf('>', pos);
      const bracket = text.indexOf('[', pos);
      if (bracket !== -1 && (close === -1 || bracket < close))
        fail('DOCTYPE with an internal subset is not supported');
      if (root || stack.length > 0) fail('DOCTYPE after the root element started');
      skipPast('>', 'DOCTYPE');
    } else if (text.startsWith('<!', pos)) fail(`unsupported markup ${describe(text, pos)}`);
    else if (text.startsWith('</', pos)) {
      const at = line;
      moveTo(pos + 2);
      const name = readName('closing tag');
      skipSpace();
      if (text[pos] !== '>') fail(`expected '>' to end </${name}, found ${describe(text, pos)}`);
      moveTo(pos + 1);
      const open = stack.pop();
      if (!open) fail(`</${name}> closes nothing`, at);
      if (open!.name !== name)
        fail(`</${name}> does not close <${open!.name}> (opened at line ${open!.line})`, at);
    } else {
      const at = line;
      moveTo(pos + 1);
      if (root && stack.length === 0) fail('a second root element', at);
      const el: XmlElement = { name: readName('element'), attrs: {}, line: at, children: [] };
      let selfClosing = false;
      for (;;) {
        const before = pos;
        skipSpace();
        if (pos >= text.length) fail(`unterminated tag <${el.name}`, at);
        if (text.startsWith('/>', pos)) {
          moveTo(pos + 2);
          selfClosing = true;
          break;
        }
        if (text[pos] === '>') {
          moveTo(pos + 1);
          break;
        }
        if (pos === before)
          fail(`expected whitespace before an attribute in <${el.name}, found ${describe(text, pos)}`);
        const attr = readName('attribute');
        skipSpace();
        if (text[pos] !== '=') fail(`attribute ${attr} of <${el.name}> needs '=' and a quoted value`);
        moveTo(pos + 1);
        skipSpace();
        const quote = text[pos];
        if (quote !== '"' && quote !== "'") fail(`value of attribute ${attr} in <${el.name}> must be quoted`);
        const valueLine = line;
        const end = text.indexOf(quote!, pos + 1);
        if (end === -1) fail(`unterminated value of attribute ${attr} in <${el.name}>`, valueLine);
        const raw = text.slice(pos + 1, end);
        if (raw.includes('<'))
          fail(`'<' in the value of attribute ${attr} of <${el.name}> must be written &lt;`);
        moveTo(end + 1);
        if (Object.hasOwn(el.attrs, attr)) fail(`duplicate attribute ${attr} in <${el.name}>`, valueLine);
        el.attrs[attr] = decodeEntities(raw, (msg) =>
          fail(`${msg} in attribute ${attr} of <${el.name}>`, valueLine),
        );
      }
      if (stack.length > 0) stack[stack.length - 1]!.children.push(el);
      else root = el;
      if (!selfClosing) {
        if (stack.length >= MAX_DEPTH) fail(`elements nested deeper than ${MAX_DEPTH} levels`, at);
        stack.push(el);
      }
    }
  }
  if (stack.length > 0) {
    const open = stack[stack.length - 1]!;
    fail(`<${open.name}> opened at line ${open.line} is never closed`);
  }
  if (!root) fail('no root element', 1);
  return root!;
}

/** Normalizes attribute whitespace as XML does, then decodes the predefined entities and character references. */
function decodeEntities(raw: string, fail: (message: string) => never): string {
  const s = raw.replace(/[\t\n\r]/g, ' ');
  if (!s.includes('&')) return s;
  return s.replace(/&([^;&\s]*)(;?)/g, (whole, name: string, semi: string) => {
    if (!semi) fail(`'&' must start an entity such as &amp; (found ${JSON.stringify(whole.slice(0, 12))})`);
    if (Object.hasOwn(ENTITIES, name)) return ENTITIES[name]!;
    const num = /^#x([0-9a-fA-F]{1,6})$/.exec(name) ?? /^#([0-9]{1,7})$/.exec(name);
    if (num) {
      const code = Number.parseInt(num[1]!, name.startsWith('#x') ? 16 : 10);
      if (code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff))
        return String.fromCodePoint(code);
      fail(`character reference &${name}; is not a valid character`);
    }
    return fail(`unknown entity &${name};`);
  });
}

/** XML whitespace: space, tab, line feed, carriage return. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function describe(text: string, pos: number): string {
  if (pos >= text.length) return 'end of file';
  return JSON.stringify(text.slice(pos, pos + 12));
}
