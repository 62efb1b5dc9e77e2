// @vitest-environment jsdom
// The welcome page, opened once on install: what a new reader needs to know, the shortcuts as the
// browser has them (said only when both are set), and the way to the options and the history.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { message } from './messages';

const fake = vi.hoisted(() => ({ commands: [] as Array<{ name: string; shortcut?: string }> }));

vi.mock('../../src/ext', () => ({
  default: {
    i18n: { getMessage: (key: string, subs: string[] = []) => message(key, subs), getUILanguage: () => 'en' },
    commands: { getAll: async () => fake.commands },
  },
}));

async function openWelcome(): Promise<void> {
  const parsed = new DOMParser().parseFromString(readFileSync(join(process.cwd(), 'src/welcome/index.html'), 'utf8'), 'text/html');
  document.documentElement.replaceChildren(...[...parsed.documentElement.childNodes].map((n) => document.importNode(n, true)));
  await import('../../src/welcome/main');
  await new Promise((r) => setTimeout(r, 0));
}

const items = () => [...document.querySelectorAll('li')].filter((li) => !li.hidden).map((li) => li.textContent);

beforeEach(() => vi.resetModules());
afterEach(() => document.documentElement.replaceChildren());

describe('the welcome page', () => {
  it('says when a page counts as read, what is left out, and the shortcuts the browser has', async () => {
    fake.commands = [{ name: '_execute_action', shortcut: 'Alt+Shift+D' }, { name: 'focus-notice', shortcut: 'Alt+Shift+J' }];
    await openWelcome();
    expect(items()).toEqual([
      'A page counts as read once it has been in front of you for 5 seconds; pages opened and closed unseen are never recorded.',
      'Search result pages are never read, and mail and banking sites are left out to begin with: Options lists them, to add any site you want left out or take one back.',
      'Pin Déjà Read’s button to the toolbar to see its number on every page.',
      'Alt+Shift+D opens Déjà Read for the page you are on; Alt+Shift+J moves to its notice on the page.',
    ]);
    expect([...document.querySelectorAll('a')].map((a) => [a.getAttribute('href'), a.textContent])).toEqual([
      ['../options/index.html', 'Options, excluded sites and export'],
      ['../history/index.html', 'Your reading history'],
    ]);
  });

  it('leaves the shortcuts out when the reader removed one', async () => {
    fake.commands = [{ name: '_execute_action', shortcut: '' }, { name: 'focus-notice', shortcut: 'Alt+Shift+J' }];
    await openWelcome();
    expect(items()).toHaveLength(3);
  });
});
