// @vitest-environment jsdom
// Every string the reader sees comes from public/_locales, in English and Chinese alike: the two
// have the same messages with the same placeholders; every message the code names exists and every
// message is used; no page, no notice and no toolbar tooltip puts a literal of its own on screen.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it, vi } from 'vitest';
import { MESSAGES, message } from './messages';

const root = process.cwd();
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const filesUnder = (dir: string): string[] =>
  readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(root, path)).isDirectory() ? filesUnder(path) : [path];
  });

/** Code that puts text in front of the reader: the extension's pages, the notice, the background (tooltips). */
const UI_DIRS = ['src/popup', 'src/options', 'src/history', 'src/welcome', 'src/notice', 'src/content', 'src/background', 'src/ui', 'src/settings', 'src/storage', 'src/messaging'];
const uiSources = UI_DIRS.flatMap(filesUnder).filter((f) => f.endsWith('.ts'));
/** The pages a reader opens (the offscreen document is never shown). */
const pages = ['src/popup/index.html', 'src/options/index.html', 'src/history/index.html', 'src/welcome/index.html', 'src/notice/index.html'];

const placeholders = (text: string) => [...new Set(text.match(/\$\d/g) ?? [])].sort();
/** Words: two letters in a row, in any script ("ok", "页面"). */
const WORDS = /\p{L}\p{L}/u;

describe('the languages', () => {
  it('are English, Simplified and Traditional Chinese, all loaded here', () => {
    expect(readdirSync(join(root, 'public/_locales')).sort()).toEqual(Object.keys(MESSAGES).sort());
  });

  it('have the same messages, each with the same placeholders, each named once', () => {
    // JSON.parse keeps the last of two keys alike; the stores' linters refuse the file.
    for (const lang of Object.keys(MESSAGES)) {
      const names = [...read(`public/_locales/${lang}/messages.json`).matchAll(/^ "(\w+)": \{$/gm)].map((m) => m[1]);
      expect(names.filter((n, i) => names.indexOf(n) !== i), lang).toEqual([]);
    }
    for (const lang of ['zh_CN', 'zh_TW'] as const) {
      expect(Object.keys(MESSAGES[lang]).sort(), lang).toEqual(Object.keys(MESSAGES.en).sort());
      for (const key of Object.keys(MESSAGES.en)) expect(placeholders(MESSAGES[lang][key].message), `${lang} ${key}`).toEqual(placeholders(MESSAGES.en[key].message));
    }
  });

  it('have every message the code and the manifest name, and no message nothing names', () => {
    // Comments left out: they may quote a call as an example.
    const code = [...uiSources, ...pages, 'manifest.json'].map((f) => read(f).replace(/\/\*[\s\S]*?\*\/|(^|[^:])\/\/.*$/gm, '$1')).join('\n');
    const named = new Set([...code.matchAll(/__MSG_(\w+)__/g), ...code.matchAll(/['"`](\w+)['"`]/g)].map((m) => m[1]));
    for (const key of Object.keys(MESSAGES.en)) expect(named.has(key), `"${key}" is in _locales but no code names it`).toBe(true);
    for (const m of code.matchAll(/__MSG_(\w+)__|data-i18n(?:-[\w-]+)?="(\w+)"|\bt\(\s*'(\w+)'|localizedNodes\(\s*'(\w+)'/g)) {
      const key = m[1] ?? m[2] ?? m[3] ?? m[4];
      expect(MESSAGES.en[key], `"${key}" is named but not in _locales`).toBeDefined();
    }
  });

  it('read naturally in Chinese where English words were once left or translated word for word', () => {
    const zh = (key: string) => MESSAGES.zh_CN[key].message;
    expect(zh('timeJustNow')).toBe('刚刚');
    expect(zh('noticeWhere')).toBe('$1，$2');
    expect(zh('optionsWhere')).not.toContain('在哪里工作');
    for (const key of Object.keys(MESSAGES.zh_CN)) expect(zh(key), key).not.toMatch(/Déjà Read/);
  });

  it("write Traditional Chinese in Traditional characters, with Taiwan's words and quotation marks", () => {
    const tw = (key: string) => MESSAGES.zh_TW[key].message;
    expect([tw('extName'), tw('timeJustNow'), tw('noticeWhere'), tw('uiLocale')]).toEqual(['似曾讀過', '剛剛', '$1，$2', 'zh-TW']);
    // Characters written only in Simplified Chinese (their Traditional forms are 讀 頁 網 這 個…), and “” where Taiwan writes 「」.
    const simplifiedOnly = /[读页网这个时们为过记录设选项开关导链键击显检类删复态数库览标题签错误说请还没从当应该对发现种么]|[“”]/;
    for (const key of Object.keys(MESSAGES.zh_TW)) expect(tw(key), key).not.toMatch(simplifiedOnly);
    // Words of the mainland where Taiwan has its own (a converter's slips once wrote 箇 for 个 before 中).
    for (const key of Object.keys(MESSAGES.zh_TW)) expect(tw(key), key).not.toMatch(/箇|訪問|列表|文本|子域名|工具欄|必應|Déjà Read/);
  });
});

/** Properties and attributes whose text a reader sees or hears. */
const SHOWN = new Set(['textContent', 'innerText', 'title', 'placeholder', 'ariaLabel', 'alt', 'text', 'data']);
const SHOWN_ATTRIBUTES = new Set(['title', 'placeholder', 'aria-label', 'alt', 'aria-description', 'aria-roledescription']);
const INSERTS = new Set(['append', 'prepend', 'replaceChildren', 'after', 'before', 'replaceWith', 'createTextNode', 'insertAdjacentText']);

/**
 * String literals in an expression that would reach the screen as they are: through concatenation,
 * templates and conditionals, not through calls (t('key') and the like build text from _locales).
 */
function literalWords(node: ts.Node): string[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return WORDS.test(node.text) ? [node.text] : [];
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].filter((s) => WORDS.test(s)).concat(node.templateSpans.flatMap((s) => literalWords(s.expression)));
  if (ts.isConditionalExpression(node)) return [...literalWords(node.whenTrue), ...literalWords(node.whenFalse)];
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.PlusToken || op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) return [...literalWords(node.left), ...literalWords(node.right)];
    return op === ts.SyntaxKind.AmpersandAmpersandToken ? literalWords(node.right) : [];
  }
  if (ts.isParenthesizedExpression(node) || ts.isSpreadElement(node) || ts.isAsExpression(node)) return literalWords(node.expression);
  if (ts.isArrayLiteralExpression(node)) return node.elements.flatMap(literalWords);
  return []; // calls (t('key')…), names, property reads
}

/** Where a file puts literal words on screen: "file:line: words". */
function literalsShown(file: string, text = read(file)): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (node: ts.Node, words: string[]) => {
    for (const w of words) found.push(`${relative(root, join(root, file))}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${JSON.stringify(w)}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(node.left) && SHOWN.has(node.left.name.text)) report(node, literalWords(node.right));
    if (ts.isPropertyAssignment(node) && SHOWN.has(node.name.getText(source))) report(node, literalWords(node.initializer));
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const name = node.expression.name.text;
      const [first, ...rest] = node.arguments;
      if (name === 'setAttribute' && first && ts.isStringLiteral(first) && SHOWN_ATTRIBUTES.has(first.text)) rest.forEach((a) => report(a, literalWords(a)));
      if (INSERTS.has(name)) node.arguments.forEach((a) => report(a, literalWords(a)));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('no literal words on screen', () => {
  it('in the code of the pages, the notice and the toolbar button', () => {
    expect(uiSources.length).toBeGreaterThan(20);
    expect(uiSources.flatMap((f) => literalsShown(f))).toEqual([]);
  });

  it('catches the literals it is meant to catch', () => {
    // The toolbar tooltip as it once was, and the other ways text reaches the screen.
    const caught = literalsShown(
      'example.ts',
      [
        "const badge = { text: '1', title: `${NAME}: you've read this before` };",
        "el.textContent = ok ? t('saved') : 'Not saved';",
        "button.setAttribute('aria-label', 'Close');",
        "meta.append(' · ', isolated(site), ', now');",
    "if (typeof x === 'string') b.textContent = `${n} more`;",
        "a.title = '页面';",
      ].join('\n'),
    );
    expect(caught).toEqual(['example.ts:1: ": you\'ve read this before"', 'example.ts:2: "Not saved"', 'example.ts:3: "Close"', 'example.ts:4: ", now"', 'example.ts:5: " more"', 'example.ts:6: "页面"']);
  });

  it.each(pages)('in %s: every text and every shown attribute comes from a message', (page) => {
    const doc = new DOMParser().parseFromString(read(page), 'text/html');
    expect(doc.querySelector('title')?.hasAttribute('data-i18n'), '<title> is localized').toBe(true);
    const walker = doc.createTreeWalker(doc.documentElement, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      // An element with data-i18n gets its message as its text when the page loads.
      if (n.parentElement?.closest('script, style, [data-i18n]')) continue;
      expect(WORDS.test(n.nodeValue ?? '') ? n.nodeValue : '', `text in ${page}`).toBe('');
    }
    for (const el of doc.querySelectorAll('*')) {
      for (const attr of SHOWN_ATTRIBUTES) expect(WORDS.test(el.getAttribute(attr) ?? '') ? `${el.localName}[${attr}]` : '').toBe('');
    }
  });
});

// The notice as a Chinese reader sees it.
vi.mock('../../src/ext', () => ({
  default: { i18n: { getMessage: (key: string, subs: string[] = []) => message(key, subs, 'zh_CN'), getUILanguage: () => 'zh-CN' } },
}));

describe('the notice in Chinese', () => {
  it('says when with 刚刚 and a Chinese comma', async () => {
    const { renderNotice } = await import('../../src/notice/view');
    const { relativeTime } = await import('../../src/ui/relative-time');
    const now = Date.now();
    const when = relativeTime(now - 20_000, now, 'zh-CN', message('timeJustNow', [], 'zh_CN'));
    const frame = document.implementation.createHTMLDocument('notice');
    renderNotice(frame, { match: { url: 'https://news.example/a', title: '标题', kind: 'same-text', when }, more: 0, canShowNew: false, room: 1000 }, () => undefined);
    expect(frame.querySelector('.meta')?.getAttribute('data-text')).toBe(' — \u2068news.example\u2069，刚刚 · 全文相同');
  });
});
