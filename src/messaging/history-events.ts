// What the extension's pages hear of a change to the whole history, as it happens: the history
// cleared (in the options page of another tab or window), so that a History page left open shows
// no page that is gone; an import ended, so that it shows the pages it brought. A BroadcastChannel
// of the extension's origin, which no web page or content script can join (as messaging/bulk.ts).
// Where there is none (an older browser), nothing is heard, and the History page is drawn anew
// when the reader comes back to it, as before.
const NAME = 'deja-read:history';

/** `cleared`: the whole history is gone; `imported`: an import has ended, adding pages. */
export type HistoryEvent = { type: 'cleared' | 'imported' };

let channel: BroadcastChannel | undefined;

/** Tells every page of the extension listening (not this context itself). */
export function announceHistory(event: HistoryEvent): void {
  if (typeof BroadcastChannel !== 'function') return;
  channel ??= new BroadcastChannel(NAME);
  channel.postMessage(event);
}

/** Calls `listen` for each event another context announces. */
export function onHistoryEvent(listen: (event: HistoryEvent) => void): void {
  if (typeof BroadcastChannel !== 'function') return;
  new BroadcastChannel(NAME).onmessage = (e: MessageEvent<unknown>) => {
    const data = e.data as { type?: unknown } | null;
    if (data && typeof data === 'object' && (data.type === 'cleared' || data.type === 'imported')) listen({ type: data.type });
  };
}
