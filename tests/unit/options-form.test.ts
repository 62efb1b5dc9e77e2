// @vitest-environment jsdom
// The options page's settings as a reader types them: nonsense is refused where it was typed, with
// the range the field takes, and nothing is saved; good values are saved as typed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { message } from './messages';

const fake = vi.hoisted(() => ({ stored: {} as Record<string, unknown>, saves: [] as unknown[], privateAllowed: undefined as boolean | undefined }));

vi.mock('../../src/ext', () => ({
  default: {
    i18n: { getMessage: (key: string, subs: string[] = []) => message(key, subs), getUILanguage: () => 'en' },
    storage: {
      sync: {
        get: async () => fake.stored,
        set: async (items: Record<string, unknown>) => {
          fake.saves.push(items.settings);
          Object.assign(fake.stored, items);
        },
      },
      onChanged: { addListener: () => undefined },
    },
    extension: { isAllowedIncognitoAccess: async () => fake.privateAllowed },
  },
}));

beforeEach(() => {
  const html = readFileSync(join(process.cwd(), 'src/options/index.html'), 'utf8');
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  document.documentElement.replaceChildren(...[...parsed.documentElement.childNodes].map((n) => document.importNode(n, true)));
  fake.stored = {};
  fake.saves = [];
  fake.privateAllowed = true;
  vi.resetModules();
});
afterEach(() => {
  document.documentElement.replaceChildren();
});

async function form() {
  const { initSettingsForm } = await import('../../src/options/settings-form');
  await initSettingsForm();
  const status = () => document.getElementById('settings-status')?.textContent ?? '';
  const type = async (id: string, value: string) => {
    const input = document.getElementById(id) as HTMLInputElement;
    input.value = value;
    input.dispatchEvent(new Event('change'));
    await new Promise((r) => setTimeout(r, 0));
    return input;
  };
  return { status, type };
}

describe('the options form', () => {
  it('says where to allow the extension in private windows while the browser keeps it out, and nothing once it is allowed', async () => {
    fake.privateAllowed = false;
    await form();
    const note = document.getElementById('private-not-allowed') as HTMLElement;
    await vi.waitFor(() => expect(note.hidden).toBe(false));
    expect(message(note.getAttribute('data-i18n') ?? '')).toContain('“Run in Private Windows”');
    expect(document.getElementById('record-private')?.getAttribute('aria-describedby')).toBe('private-not-allowed');
    fake.privateAllowed = true;
    await form();
    await new Promise((r) => setTimeout(r, 0));
    expect((document.getElementById('private-not-allowed') as HTMLElement).hidden).toBe(true);
  });

  it.each(['-3', '1000', '', '2.5', '1e2'])('refuses %j as a dwell time, says what it takes, and saves nothing', async (value) => {
    const { status, type } = await form();
    const input = await type('dwell', value);
    expect(status()).toBe('Not saved: enter a whole number from 0 to 600.');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    // Said right under the field too, where the reader is looking, and the field is described by it.
    const error = document.getElementById(input.getAttribute('aria-describedby') ?? '');
    expect([error?.textContent, error?.hidden, error?.previousElementSibling?.contains(input)]).toEqual(['Not saved: enter a whole number from 0 to 600.', false, true]);
    expect(fake.saves).toEqual([]);
  });

  it('saves a dwell time as typed, and clears the error', async () => {
    const { status, type } = await form();
    await type('dwell', '-3');
    const input = await type('dwell', '12');
    await vi.waitFor(() => expect(status()).toBe('Saved.'));
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(document.getElementById('dwell-error')?.hidden).toBe(true);
    expect(fake.saves).toMatchObject([{ dwellSeconds: 12 }]);
  });

  it('no longer marks a refused number once another change puts the saved value back in its field', async () => {
    const { status } = await form();
    const dwell = document.getElementById('dwell') as HTMLInputElement;
    dwell.value = '-3';
    dwell.dispatchEvent(new Event('change'));
    expect(dwell.getAttribute('aria-invalid')).toBe('true');
    (document.querySelector('input[name="sensitivity"][value="strict"]') as HTMLInputElement).click();
    await vi.waitFor(() => expect(status()).toBe('Saved.'));
    expect(dwell.value).toBe('5');
    expect(dwell.hasAttribute('aria-invalid')).toBe(false);
    expect(dwell.hasAttribute('aria-describedby')).toBe(false);
  });

  it('saves a number typed with spaces around it or in full-width digits, the same in every browser', async () => {
    const { status, type } = await form();
    // Text fields: a number field in Firefox kept "40 " on screen, took it for no value, and said nothing.
    expect([(document.getElementById('min-words') as HTMLInputElement).type, (document.getElementById('dwell') as HTMLInputElement).inputMode]).toEqual(['text', 'numeric']);
    await type('min-words', ' 40 ');
    await vi.waitFor(() => expect(status()).toBe('Saved.'));
    await type('dwell', '１２');
    await vi.waitFor(() => expect(fake.saves).toMatchObject([{ minWords: 40 }, { dwellSeconds: 12 }]));
    await type('min-words', '4 0');
    expect(status()).toBe('Not saved: enter a whole number from 0 to 5000.');
    expect(fake.saves).toHaveLength(2);
  });

  it('takes an empty minimum length as the default, and refuses one out of range', async () => {
    const { status, type } = await form();
    await type('min-words', '99999');
    expect(status()).toBe('Not saved: enter a whole number from 0 to 5000.');
    expect(fake.saves).toEqual([]);
    await type('min-words', '');
    await vi.waitFor(() => expect(status()).toBe('Saved.'));
    expect(fake.saves).toMatchObject([{ minWords: null }]);
    await type('min-words', '300');
    expect(fake.saves.at(-1)).toMatchObject({ minWords: 300 });
  });

  it('says nothing of spaces alone, and quotes a long entry that is no site cut short, saying so', async () => {
    const { status } = await form();
    const input = document.getElementById('new-site') as HTMLInputElement;
    const submit = () => document.getElementById('add-site')?.dispatchEvent(new Event('submit', { cancelable: true }));
    input.value = '   ';
    submit();
    expect(status()).toBe('');
    expect(input.value).toBe('');
    input.value = `  ${'x y'.repeat(100)}`;
    submit();
    await vi.waitFor(() => expect(status()).toBe(`"${'x y'.repeat(100).slice(0, 99)}…" is not a site name.`));
    expect(fake.saves).toEqual([]);
  });

  it('excludes a pasted address with a port, and it covers that address', async () => {
    await form();
    const input = document.getElementById('new-site') as HTMLInputElement;
    input.value = 'http://127.0.0.1:8080/';
    document.getElementById('add-site')?.dispatchEvent(new Event('submit', { cancelable: true }));
    await vi.waitFor(() => expect(fake.saves).toHaveLength(1));
    const { isExcluded } = await import('../../src/settings/settings');
    const saved = fake.saves[0] as { excludedSites: string[] };
    expect(saved.excludedSites).toContain('127.0.0.1:8080');
    expect(isExcluded('http://127.0.0.1:8080/any/article', saved.excludedSites)).toBe(true);
  });

  it('says a site the list covers already, and that the suggested sites are listed, rather than "Saved." for nothing', async () => {
    const { status } = await form();
    const input = document.getElementById('new-site') as HTMLInputElement;
    input.value = 'https://mail.google.com/mail/u/0/';
    document.getElementById('add-site')?.dispatchEvent(new Event('submit', { cancelable: true }));
    await vi.waitFor(() => expect(status()).toBe('The list covers mail.google.com/mail/u/0 already.'));
    expect(input.value).toBe('');
    (document.getElementById('add-suggested') as HTMLButtonElement).click();
    await vi.waitFor(() => expect(status()).toBe('The suggested sites are all in the list already.'));
    expect(fake.saves).toEqual([]);
    // With one of them taken away, the button adds it back.
    fake.stored.settings = { excludedSites: ['other.example'] };
    (document.getElementById('add-suggested') as HTMLButtonElement).click();
    await vi.waitFor(() => expect(status()).toBe('Saved.'));
    expect((fake.saves.at(-1) as { excludedSites: string[] }).excludedSites).toContain('mail.google.com');
  });

  it('takes out of the list the entries a site added covers (a page of it, a subdomain), and says which', async () => {
    const { status } = await form();
    fake.stored.settings = { excludedSites: ['www.mirror.example/p/night-bus', 'news.mirror.example', 'mirror.example:8080', 'other.example'] };
    const input = document.getElementById('new-site') as HTMLInputElement;
    input.value = '*.mirror.example';
    document.getElementById('add-site')?.dispatchEvent(new Event('submit', { cancelable: true }));
    await vi.waitFor(() => expect(status().replace(/[\u2066-\u2069]/g, '')).toBe('Saved. mirror.example covers www.mirror.example/p/night-bus, news.mirror.example, and mirror.example:8080, taken out of the list.'));
    expect((fake.saves.at(-1) as { excludedSites: string[] }).excludedSites).toEqual(['other.example', 'mirror.example']);
  });

  it('shows a site in another script as it was typed (例子.中国), and keeps it in its ASCII form', async () => {
    fake.stored.settings = { excludedSites: ['xn--fsqu00a.xn--fiqs8s', 'other.example'] };
    const { status } = await form();
    const chips = () => [...document.querySelectorAll('#excluded li')].map((li) => [li.querySelector('bdi')?.textContent, li.querySelector('button')?.getAttribute('aria-label')?.replace(/[\u2066-\u2069]/g, '')]);
    expect(chips()).toEqual([['例子.中国', 'Stop excluding 例子.中国'], ['other.example', 'Stop excluding other.example']]);
    const input = document.getElementById('new-site') as HTMLInputElement;
    input.value = 'https://例子.中国/';
    document.getElementById('add-site')?.dispatchEvent(new Event('submit', { cancelable: true }));
    await vi.waitFor(() => expect(status().replace(/[\u2066-\u2069]/g, '')).toBe('The list covers 例子.中国 already.'));
    expect(fake.saves).toEqual([]);
  });

  it('says that a pasted page address excludes that page only, and what would exclude its site', async () => {
    const { status } = await form();
    const input = document.getElementById('new-site') as HTMLInputElement;
    input.value = 'https://www.Mirror.example/p/night-bus?utm_source=x#top';
    document.getElementById('add-site')?.dispatchEvent(new Event('submit', { cancelable: true }));
    await vi.waitFor(() => expect(status().replace(/[\u2066-\u2069]/g, '')).toBe('Saved. Only www.mirror.example/p/night-bus is excluded; to exclude all of mirror.example, add mirror.example.'));
    expect((fake.saves.at(-1) as { excludedSites: string[] }).excludedSites).toContain('www.mirror.example/p/night-bus');
    // A site alone is just saved.
    input.value = 'other.example';
    document.getElementById('add-site')?.dispatchEvent(new Event('submit', { cancelable: true }));
    await vi.waitFor(() => expect(status()).toBe('Saved.'));
  });

  it('shows where links are marked and saves the choice', async () => {
    await form();
    const radios = [...document.querySelectorAll<HTMLInputElement>('input[name="link-marks"]')];
    expect(radios.filter((r) => r.checked).map((r) => r.value)).toEqual(['on']);
    const search = radios.find((r) => r.value === 'search') as HTMLInputElement;
    search.checked = true;
    search.dispatchEvent(new Event('change'));
    await vi.waitFor(() => expect(fake.saves.at(-1)).toMatchObject({ linkMarks: 'search' }));
    expect(radios.filter((r) => r.checked).map((r) => r.value)).toEqual(['search']);
  });

  it('removes two sites clicked away quickly, both; and keeps a site that does not fit in the field, saying why', async () => {
    const { status } = await form();
    // onChanged is not wired in this page's fake storage: the list on screen is the one first drawn.
    const remove = (site: string) => (document.querySelector(`#excluded button[aria-label*="${site}"]`) as HTMLButtonElement).click();
    remove('mail.google.com');
    remove('outlook.live.com');
    await vi.waitFor(() => expect(fake.saves).toHaveLength(2));
    const kept = (fake.saves.at(-1) as { excludedSites: string[] }).excludedSites;
    expect(kept).not.toContain('mail.google.com');
    expect(kept).not.toContain('outlook.live.com');
    // storage.sync keeps at most 8 KiB in one item: a list that would not fit is refused, and the site typed stays.
    fake.stored.settings = { excludedSites: Array.from({ length: 280 }, (_, i) => `site-number-${i}.example.org`) };
    const input = document.getElementById('new-site') as HTMLInputElement;
    input.value = 'one-more.example.org';
    document.getElementById('add-site')?.dispatchEvent(new Event('submit', { cancelable: true }));
    await vi.waitFor(() => expect(status()).toBe('Not saved: the list of sites never read is full. Remove some to add others.'));
    expect(input.value).toBe('one-more.example.org');
    expect(fake.saves).toHaveLength(2);
  });
});
