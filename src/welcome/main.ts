// The page opened once, on install.
import browser from '../ext';
import { FOCUS_NOTICE } from '../background/shortcut';
import { localizePage, t } from '../ui/i18n';

localizePage();

// The shortcuts as the browser has them (the reader may have changed or removed them): said only when both are set.
void browser.commands
  ?.getAll()
  .then((commands) => {
    const popup = commands.find((c) => c.name === '_execute_action')?.shortcut;
    const notice = commands.find((c) => c.name === FOCUS_NOTICE)?.shortcut;
    if (!popup || !notice) return;
    const item = document.getElementById('shortcuts');
    if (!item) return;
    item.textContent = t('welcomeShortcuts', popup, notice);
    item.hidden = false;
  })
  .catch(() => undefined);
