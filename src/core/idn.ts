// Host names as a reader knows them. The URL parser keeps a name in other scripts in its ASCII form
// ("xn--fsqu00a.example" for 例子.example, RFC 3492's Punycode), and a reader who typed 例子 and
// sees it in the address bar cannot tell that form, nor search for it. Browsers show the Unicode
// form only where a name cannot pass for another (Chrome's IDN display policy); ours is narrower:
// a label is shown in Unicode only when every character of it is a Han, kana or Hangul character
// (with digits and hyphens), and not all of them are ones that look like Latin letters or signs
// (工, 口, ロ, ノ, 〇, ㅇ…). Every other label stays in its ASCII form. So no label shown can pass
// for one in Latin letters, or mix Latin letters with another script, or hold Cyrillic, Greek or any
// other script whose letters look like Latin ones; what is kept (the key of a page or a site) is
// always the ASCII form.

const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 0x80;
const MAX_CODE_POINT = 0x10ffff;

/** RFC 3492's bias adaptation. */
function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / DAMP) : delta >> 1;
  d += Math.floor(d / points);
  let k = 0;
  while (d > ((BASE - T_MIN) * T_MAX) >> 1) {
    d = Math.floor(d / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * d) / (d + SKEW));
}

/** A Punycode digit's value (0–35), or -1. */
function digit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30 + 26; // 0-9
  if (c >= 0x41 && c <= 0x5a) return c - 0x41; // A-Z
  if (c >= 0x61 && c <= 0x7a) return c - 0x61; // a-z
  return -1;
}

/** The Unicode a Punycode string (without its "xn--") stands for, or null where it is not well formed (RFC 3492, section 6.2). */
export function decodePunycode(input: string): string | null {
  const end = input.lastIndexOf('-');
  const out: number[] = [];
  for (let j = 0; j < Math.max(0, end); j++) {
    const c = input.charCodeAt(j);
    if (c >= 0x80) return null;
    out.push(c);
  }
  let n = INITIAL_N;
  let bias = INITIAL_BIAS;
  let i = 0;
  for (let pos = end > 0 ? end + 1 : 0; pos < input.length; ) {
    const old = i;
    for (let w = 1, k = BASE; ; k += BASE) {
      if (pos >= input.length) return null;
      const d = digit(input.charCodeAt(pos++));
      if (d < 0) return null;
      i += d * w;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (d < t) break;
      w *= BASE - t;
      if (i > Number.MAX_SAFE_INTEGER / BASE || w > Number.MAX_SAFE_INTEGER / BASE) return null;
    }
    bias = adapt(i - old, out.length + 1, old === 0);
    n += Math.floor(i / (out.length + 1));
    i %= out.length + 1;
    if (n > MAX_CODE_POINT || (n >= 0xd800 && n <= 0xdfff)) return null;
    out.splice(i, 0, n);
    i++;
  }
  return String.fromCodePoint(...out);
}

/** Han (with its extensions and 々 〆), kana, Hangul: the scripts a label may be shown in. */
const EAST_ASIAN = /^(?:[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々〆]|[0-9-])+$/u;
const ANY_LETTER = /[^0-9-]/;
/** Han, kana and Hangul characters that look like a Latin letter, a digit or a sign: a label of them alone could pass for one in Latin letters. */
const LATIN_ALIKE = /^[〇一丁丨丶丿乙二亅人入八几冂凵卜口工廾弋弓土士ノソンエロハニヘトーメレ\u110b\u1173\u1175\u3147\u3161\u3163\d-]+$/u;

/** A label as shown: its Unicode form where it is one of the scripts above, else as it is. */
function displayLabel(label: string): string {
  if (!label.startsWith('xn--')) return label;
  const unicode = decodePunycode(label.slice(4));
  if (unicode === null || !EAST_ASIAN.test(unicode) || !ANY_LETTER.test(unicode) || LATIN_ALIKE.test(unicode)) return label;
  return unicode;
}

/** A host name (as the URL parser gives it) as the reader knows it: see the top of this file. */
export function displayHost(host: string): string {
  return host.includes('xn--') ? host.split('.').map(displayLabel).join('.') : host;
}

/** A web address with its host as the reader knows it (for a search by the name they know). */
export function displayUrl(url: string): string {
  if (!url.includes('xn--')) return url;
  try {
    const host = new URL(url).hostname;
    return url.replace(host, displayHost(host));
  } catch {
    return url;
  }
}
