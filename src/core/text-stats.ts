// How much prose a text holds, comparably across scripts, and which language it looks like.
// Chinese words average about 1.5 characters, so 1.5 Han/kana characters count as one word:
// an English and a Chinese page of the same reading length get about the same count.
import { ABUGIDA, BMP_CLASS, isHanOrKana, isRunClass, WORD } from './scripts';

export interface TextStats {
  /** Reading length in word-equivalents. */
  words: number;
  /** A BCP 47 primary language subtag guessed from the script mix ('und' when unsure). */
  lang: string;
}

/**
 * What the stats count, over the text as written (code units: a character outside the BMP counts
 * as neither a word nor Han). scanPassages counts the same while it cuts, so that digestArticle
 * need not read the text once more.
 */
export interface ScriptCounts {
  /** Runs of word characters (letters and digits of spaced scripts). */
  latinWords: number;
  /** Han and kana characters. */
  hanKana: number;
  kana: number;
  /** Hangul syllables and Cyrillic letters, inside words. */
  hangul: number;
  cyrillic: number;
  /** Letters of the scripts written without spaces between words but Han and kana: Thai, Lao, Myanmar, Khmer. */
  abugida: number;
  /** Of those, Thai letters. */
  thai: number;
}

const CJK_CHARS_PER_WORD = 1.5;
const ENGLISH_MARKERS = /\b(?:the|and|of|to|is|that|with|for)\b/g;

export function textStats(text: string): TextStats {
  return statsFromCounts(text, countScripts(text));
}

export function countScripts(text: string): ScriptCounts {
  let latinWords = 0;
  let hanKana = 0;
  let kana = 0;
  let hangul = 0;
  let abugida = 0;
  let thai = 0;
  let cyrillic = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const cls = c >= 0xd800 && c <= 0xdfff ? 0 : BMP_CLASS[c];
    if (cls === WORD) {
      if (!inWord) {
        latinWords++;
        inWord = true;
      }
      if (c >= 0xac00 && c <= 0xd7a3) hangul++;
      else if (c >= 0x400 && c <= 0x52f) cyrillic++;
    } else {
      inWord = false;
      if (isRunClass(cls)) {
        if (isHanOrKana(c)) hanKana++;
        else if (cls === ABUGIDA) {
          abugida++;
          if (c <= 0xe4e) thai++;
        }
        if (c >= 0x3041 && c <= 0x30ff) kana++;
      }
    }
  }
  return { latinWords, hanKana, kana, hangul, abugida, thai, cyrillic };
}

/** The stats of `text` from its counts (countScripts, or scanPassages's). */
export function statsFromCounts(text: string, n: ScriptCounts): TextStats {
  return { words: wordsFromCounts(n), lang: guessLang(text, n) };
}

/** Reading length in word-equivalents, as textStats counts it, without guessing the language. */
export function wordCount(text: string): number {
  return wordsFromCounts(countScripts(text));
}

function wordsFromCounts(n: ScriptCounts): number {
  // About four letters a word in Thai, Lao, Myanmar and Khmer.
  return Math.round(n.latinWords + n.hanKana / CJK_CHARS_PER_WORD + n.abugida / 4);
}

function guessLang(text: string, n: ScriptCounts): string {
  const total = n.latinWords + n.hanKana + n.abugida + 1;
  if (n.hanKana / total > 0.3) return n.kana > n.hanKana * 0.1 ? 'ja' : 'zh';
  if (n.hangul > n.latinWords * 0.5 && n.hangul > 0) return 'ko';
  if (n.thai / total > 0.3) return 'th';
  if (n.cyrillic > n.latinWords) return 'ru';
  const sample = text.slice(0, 20000).toLowerCase();
  const markers = sample.match(ENGLISH_MARKERS)?.length ?? 0;
  const sampleWords = Math.min(n.latinWords, sample.length / 6) + 1;
  return markers / sampleWords > 0.05 ? 'en' : 'und';
}
