// Link keys: which page of the history a link on a list leads to, through search-engine redirects
// that carry their target, and never through one that does not. The URLs are written by us in the
// shapes the engines use.
import { describe, expect, it } from 'vitest';
import { isSearchResultPage, linkKey, linkTarget } from '../../src/core/links';

const ARTICLE = 'https://www.example.org/2024/05/tool-libraries';
const enc = encodeURIComponent;
/** Bing's u parameter: "a1" and the address in base64url, unpadded. */
const bingU = (url: string) => `a1${Buffer.from(url, 'utf8').toString('base64url')}`;

describe('link keys', () => {
  it('are the identity of the page linked to: tracking parameters and place in the page removed', () => {
    expect(linkKey(`${ARTICLE}?utm_source=newsletter&utm_medium=email#comments`)).toBe(ARTICLE);
    expect(linkKey(`HTTPS://WWW.EXAMPLE.ORG:443/2024/05/tool-libraries?fbclid=IwAR0abc`)).toBe(ARTICLE);
    expect(linkKey('https://news.example/item?id=4711&ref_src=twsrc')).toBe('https://news.example/item?id=4711');
    // A route of a single-page app is a page of its own.
    expect(linkKey('https://app.example/#/story/12')).toBe('https://app.example/#/story/12');
  });

  it('are null for what is not a web page', () => {
    for (const href of ['mailto:someone@example.org', 'javascript:void(0)', 'ftp://files.example/x', 'data:text/html,hi', 'not a url', '']) expect(linkKey(href), href).toBeNull();
  });

  it('unwrap Google result redirects (q= and url=) and the AMP viewer', () => {
    expect(linkKey(`https://www.google.com/url?q=${enc(`${ARTICLE}?utm_source=google`)}&sa=U&ved=2ahUKEwjX4&usg=AOvVaw3k`)).toBe(ARTICLE);
    expect(linkKey(`https://www.google.com/url?sa=t&rct=j&source=web&url=${enc(ARTICLE)}&ved=0CAQQjRx`)).toBe(ARTICLE);
    expect(linkKey(`https://www.google.co.uk/url?q=${enc(ARTICLE)}&sa=U`)).toBe(ARTICLE);
    expect(linkKey(`https://www.google.com.hk/url?q=${enc('https://zh.example.cn/文章/42')}&sa=U`)).toBe('https://zh.example.cn/%E6%96%87%E7%AB%A0/42');
    expect(linkKey('https://www.google.com/amp/s/www.example.org/2024/05/tool-libraries')).toBe(ARTICLE);
    // Links to Google's own pages stay links to Google.
    expect(linkKey('https://www.google.com/search?q=tool+libraries&start=10')).toBe('https://www.google.com/search?q=tool+libraries&start=10');
    expect(linkKey('https://www.google.com/url?q=/search%3Fq%3Dx&sa=U')).toBe('https://www.google.com/url?q=/search%3Fq%3Dx&sa=U');
  });

  it('unwrap Bing click redirects (u=a1 and base64url), Chinese addresses included', () => {
    expect(linkKey(`https://www.bing.com/ck/a?!&&p=5f0c3e9b2d&ptn=3&ver=2&hsh=3&fclid=1e2d&u=${bingU(`${ARTICLE}?utm_campaign=x`)}&ntb=1`)).toBe(ARTICLE);
    expect(linkKey(`https://cn.bing.com/ck/a?!&&p=77aa&ptn=3&u=${bingU('https://例子.example/文章/1')}&ntb=1`)).toBe('https://xn--fsqu00a.example/%E6%96%87%E7%AB%A0/1');
    // Damaged or foreign payloads are not guessed at.
    expect(linkTarget('https://www.bing.com/ck/a?!&&p=1&u=a1%%%&ntb=1')).toBe('https://www.bing.com/ck/a?!&&p=1&u=a1%%%&ntb=1');
    expect(linkTarget(`https://www.bing.com/ck/a?p=1&u=a1${Buffer.from('javascript:alert(1)').toString('base64url')}`)).toMatch(/^https:\/\/www\.bing\.com\/ck\/a/);
  });

  it('unwrap DuckDuckGo redirects (uddg=)', () => {
    expect(linkKey(`https://duckduckgo.com/l/?uddg=${enc(`${ARTICLE}?utm_source=ddg`)}&rut=9a8b7c6d5e`)).toBe(ARTICLE);
    expect(linkKey(`https://html.duckduckgo.com/l/?uddg=${enc(ARTICLE)}&rut=1f2e`)).toBe(ARTICLE);
  });

  it('leave Baidu and Sogou /link?url=<token> alone (the target is not in the link) and take a plain address', () => {
    const baidu = 'https://www.baidu.com/link?url=Qm9rZ0RhZl8yN2Fq-xYz_Wv3kP8aLmN&wd=&eqid=c3f2a1b00001';
    expect(linkKey(baidu)).toBe(baidu);
    const sogou = 'https://www.sogou.com/link?url=hedJjaC291NbWrwHYHKCyPQj_ei8OKC1';
    expect(linkKey(sogou)).toBe(sogou);
    expect(linkKey(`https://m.baidu.com/from=844b/bd_page_type=1/ssid=0/uid=0/pu=usm%401/baiduid=ABC/w=0_10_/t=iphone/l=3/tc?ref=www_iphone&lid=1&order=1&url=${enc(ARTICLE)}`)).toBe(ARTICLE);
    expect(linkKey(`https://wap.sogou.com/transcoding/sweb/12?url=${enc(`${ARTICLE}?from=sogou`)}`)).toBe(ARTICLE);
  });

  it('unwrap a redirect inside a redirect, and stop after a few', () => {
    const inner = `https://duckduckgo.com/l/?uddg=${enc(ARTICLE)}`;
    expect(linkKey(`https://www.google.com/url?q=${enc(inner)}`)).toBe(ARTICLE);
    let deep = ARTICLE;
    for (let i = 0; i < 5; i++) deep = `https://www.google.com/url?q=${enc(deep)}`;
    expect(linkKey(deep)).toMatch(/^https:\/\/www\.google\.com\/url\?q=/);
  });

  it('tell search result pages from the rest of the engines and the web', () => {
    for (const url of ['https://www.google.com/search?q=a', 'https://www.google.de/search?q=a', 'https://www.bing.com/search?q=a', 'https://duckduckgo.com/?q=a', 'https://html.duckduckgo.com/html/?q=a', 'https://www.baidu.com/s?wd=%E4%B9%A6', 'https://www.sogou.com/web?query=a', 'https://search.yahoo.co.jp/search?p=Wi-Fi', 'https://tw.search.yahoo.com/search?p=a', 'https://www.so.com/s?q=%E4%B9%A6', 'https://m.sm.cn/s?q=%E4%B9%A6', 'https://yandex.ru/search/?text=a', 'https://search.naver.com/search.naver?query=a', 'https://www.ecosia.org/search?q=a']) expect(isSearchResultPage(url), url).toBe(true);
    for (const url of ['https://www.google.com/maps', 'https://mail.google.com/', 'https://news.example/search?q=a', 'https://www.baidu.com/', 'https://baike.baidu.com/item/x', 'https://google.evil.example/search', 'https://news.yahoo.co.jp/articles/x', 'https://www.so.com/', 'https://evil-sm.cn.example/s', 'https://www.ecosia.org/blog']) expect(isSearchResultPage(url), url).toBe(false);
  });
});
