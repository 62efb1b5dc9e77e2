// Traditional Chinese read as Simplified, character by character, before anything is hashed: a
// 轉載 in Traditional characters of an article read in Simplified (or the other way round, a
// Taiwanese article reposted on the mainland) is the same text to the fingerprint, the passages and
// the read set. Each Traditional character becomes the one Simplified character OpenCC's
// character table (TSCharacters, from the `opencc-js` package) gives first for it: 體 → 体,
// 於 → 于, 後 → 后; a character as Taiwan or Hong Kong write it goes to OpenCC's form first (著 → 着,
// 裡 → 裏 → 里). Only characters of the two main Han blocks to characters of the same blocks, so
// a text keeps its length (offsets into it hold) and every character keeps its class. Phrases are
// not converted (OpenCC's phrase tables choose 乾 → 干 or 乾 by the word around it): a character
// read alike in both texts is all the hashes need. Simplified text is left as it is, but for the
// few characters it shares with the tables (著 reads as 着; of the Han characters of the shared
// corpus's 192 Chinese texts, 0.6 % fold, most of them in its two Traditional pages). Japanese
// kanji fold too (時間 reads as 时间): a Japanese text and its copy fold alike.
import HK_VARIANTS_REV from 'opencc-js/dict/HKVariantsRev';
import TS_CHARACTERS from 'opencc-js/dict/TSCharacters';
import TW_VARIANTS_REV from 'opencc-js/dict/TWVariantsRev';

/** Whether `c` is in CJK Unified Ideographs or its Extension A. */
const mainHan = (c: number) => (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf);

/**
 * An OpenCC table ("體 体|於 于 …|…") as a map of code units: each character of the main Han
 * blocks to the first it gives, of those blocks too (entries of other characters, or of characters
 * outside the BMP, are left out). Read code unit by code unit: at a worker's start, splitting the
 * text into strings took several milliseconds more.
 */
function tableOf(text: string, targets?: Uint8Array): Uint16Array {
  const map = new Uint16Array(0x10000);
  const n = text.length;
  for (let i = 0; i < n; ) {
    // An entry: one character, a space, its first target, then more targets or the next entry.
    const f = text.charCodeAt(i);
    const single = text.charCodeAt(i + 1) === 0x20;
    let k = i;
    while (k < n && text.charCodeAt(k) !== 0x20) k++;
    const t = text.charCodeAt(k + 1);
    const end = k + 2;
    if (single && end <= n && (end === n || text.charCodeAt(end) === 0x20 || text.charCodeAt(end) === 0x7c) && f !== t && mainHan(f) && mainHan(t)) {
      map[f] = t;
      if (targets) targets[t] = 1;
    }
    while (k < n && text.charCodeAt(k) !== 0x7c) k++;
    i = k + 1;
  }
  return map;
}

let table: Uint16Array | undefined;

/**
 * For each code unit, its Simplified character, or 0 where it has none of its own. Built at the
 * first use: a character as Taiwan or Hong Kong writes it (著, 裡, 溫) to OpenCC's standard
 * Traditional one (着, 裏, 溫: TWVariantsRev, HKVariantsRev), then to Simplified (TSCharacters), as
 * far as the table goes (薴 → 苧 → 苎), so that folding twice gives what folding once gives.
 */
export function simplifiedTable(): Uint16Array {
  if (table === undefined) {
    const regional = [tableOf(TW_VARIANTS_REV), tableOf(HK_VARIANTS_REV)];
    // A character that is some Traditional one's Simplified form is Simplified text's own, though
    // Taiwan may write it for another (么 for 幺): it is not taken for a regional variant.
    const simplifiedForm = new Uint8Array(0x10000);
    const ts = tableOf(TS_CHARACTERS, simplifiedForm);
    table = new Uint16Array(0x10000);
    for (let c = 0x3400; c <= 0x9fff; c++) {
      let s = simplifiedForm[c] ? c : regional[0][c] || regional[1][c] || c;
      for (let steps = 0; ts[s] !== 0 && steps < 8; steps++) s = ts[s];
      if (s !== c) table[c] = s;
    }
  }
  return table;
}

/** Any character above U+33FF: text without one has no Han character to fold. */
const HAN_OR_ABOVE = /[\u3400-\uffff]/;

let none: Uint16Array | undefined;

/** simplifiedTable() where `text` may hold a Han character; else a table that folds nothing, so that other text never builds it. */
export function simplifiedTableFor(text: string): Uint16Array {
  return HAN_OR_ABOVE.test(text) ? simplifiedTable() : (none ??= new Uint16Array(0x10000));
}

/** `text` with each Traditional character as its Simplified one (see the top of this file). */
export function simplified(text: string): string {
  if (!HAN_OR_ABOVE.test(text)) return text;
  const t = simplifiedTable();
  let i = 0;
  while (i < text.length && t[text.charCodeAt(i)] === 0) i++;
  if (i === text.length) return text;
  const parts: string[] = [text.slice(0, i)];
  let from = i;
  for (; i < text.length; i++) {
    const s = t[text.charCodeAt(i)];
    if (s === 0) continue;
    parts.push(text.slice(from, i), String.fromCharCode(s));
    from = i + 1;
  }
  parts.push(text.slice(from));
  return parts.join('');
}
