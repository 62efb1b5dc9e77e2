// The notice's frame (src/messaging/notice-frame.ts): it takes the channel the content script hands
// it with the one-time name written in the frame's address, and draws what comes over it. Loaded by
// anything else (a page that frames this address itself), it gets nothing: no one else knows the
// name, and it is taken once.
import type { FromFrame, ToFrame } from '../messaging/notice-frame';
import { localizePage } from '../ui/i18n';
import { awaitChannel, renderNotice } from './view';

localizePage(document);
awaitChannel(window, location.hash.slice(1), (port) => {
  let take: ((message: ToFrame) => void) | undefined;
  port.onmessage = (message) => {
    const m = message.data as ToFrame;
    if (m.type === 'show' && !take) take = renderNotice(document, m.data, (out: FromFrame) => port.postMessage(out));
    else take?.(m);
  };
});
