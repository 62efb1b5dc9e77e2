// Host names shown as the reader knows them: Punycode decoded where the name cannot pass for
// another, kept in its ASCII form everywhere else.
import { domainToASCII, domainToUnicode } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodePunycode, displayHost, displayUrl } from '../../src/core';
import { placeOf, siteName, sitePatternName } from '../../src/ui/site';

describe('Punycode', () => {
  it('decodes every label as Node does (RFC 3492): Chinese, Japanese, Korean, mixed with Latin, and long', () => {
    const labels = ['例子', '中国', '他们为什么不说中文', '他們爲什麽不說中文', 'そのスピードで', '세계의모든사람들이', 'qq音乐', 'bücher', 'аррӏе', '3年b組金八先生', '𠀀𪚥𰻞'];
    // And labels of random code points, of 1 to 20 characters, in the scripts above.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0);
    const ranges = [[0x4e00, 0x9fff], [0x3041, 0x3096], [0x30a1, 0x30fa], [0xac00, 0xd7a3], [0x61, 0x7a]];
    for (let n = 0; n < 300; n++) {
      let s = '';
      for (let i = 0, len = 1 + (next() % 20); i < len; i++) {
        const [lo, hi] = ranges[next() % ranges.length];
        s += String.fromCodePoint(lo + (next() % (hi - lo + 1)));
      }
      labels.push(s);
    }
    for (const label of labels) {
      const ascii = domainToASCII(`${label}.example`).split('.')[0];
      if (!ascii.startsWith('xn--')) continue;
      expect(decodePunycode(ascii.slice(4)), label).toBe(domainToUnicode(`${ascii}.example`).split('.')[0]);
    }
  });

  it('refuses what is not Punycode rather than guess', () => {
    for (const bad of ['a-!!', '99999999999999999999', 'zzzzzzzzzzzz', 'ü-a']) expect(decodePunycode(bad), bad).toBeNull();
  });
});

describe('a host name as the reader knows it', () => {
  it('shows a name in Han, kana or Hangul as written, the top-level domain too', () => {
    expect(displayHost('xn--fsqu00a.example')).toBe('例子.example');
    expect(displayHost('xn--fsqu00a.xn--fiqs8s')).toBe('例子.中国');
    expect(displayHost('www.xn--d9juau41awczczp.jp')).toBe('www.そのスピードで.jp');
    expect(displayHost('xn--989av7mma33yx7eb8k51ap27amha.kr')).toBe('세계의모든사람들이.kr');
    expect(displayHost('example.com')).toBe('example.com');
  });

  it('keeps the ASCII form of a name that could pass for another: other scripts, scripts mixed with Latin, Han or kana that look like Latin', () => {
    for (const name of ['аррӏе.com', 'bücher.de', 'qq音乐.com', '工口.com', 'エロ.jp', '一.com', '〇〇.com', 'ㅇ.kr']) {
      const ascii = domainToASCII(name);
      expect(ascii, name).toMatch(/^xn--/);
      expect(displayHost(ascii), name).toBe(ascii);
    }
    // Not Punycode at all, though it starts so.
    expect(displayHost('xn--a-.example')).toBe('xn--a-.example');
  });

  it('names the site, the place and the sites never read so, and keeps the key in ASCII', () => {
    expect(siteName('http://www.xn--fsqu00a.example/a/watch')).toBe('例子.example');
    expect(placeOf('http://xn--fsqu00a.example/a/%E8%A1%A8')).toBe('例子.example/a/表');
    expect(sitePatternName('xn--fsqu00a.xn--fiqs8s:8080/reads')).toBe('例子.中国:8080/reads');
    expect(sitePatternName('example.com')).toBe('example.com');
    expect(displayUrl('https://xn--fsqu00a.example/xn--fsqu00a?q=1')).toBe('https://例子.example/xn--fsqu00a?q=1');
  });
});
