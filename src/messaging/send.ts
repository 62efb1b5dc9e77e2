// Typed senders. Errors come back as data from the router and are thrown again here.
import browser from '../ext';
import type { ContentProtocol, Protocol, Reply } from './protocol';
import { DeliveryError } from './retry';

function unwrap<R>(reply: unknown, type: string): R {
  if (reply && typeof reply === 'object' && 'ok' in reply) return (reply as { ok: R }).ok;
  if (reply && typeof reply === 'object' && 'error' in reply) {
    const { name, message } = (reply as Extract<Reply<R>, { error: unknown }>).error;
    // The background may say a delivery was lost (a bulk parcel that did not arrive): sending again may succeed.
    const error = name === 'DeliveryError' ? new DeliveryError(message) : new Error(message);
    error.name = name;
    throw error;
  }
  // No listener answered: the background was stopped or is starting.
  throw new DeliveryError(`no answer to ${type}`);
}

/**
 * The extension this script belongs to was reloaded, updated or removed while the page stayed open
 * (Chrome leaves the old content script running, cut off): no message can ever arrive, so it is not
 * sent again, and the script stops.
 */
export class ExtensionGoneError extends Error {
  override name = 'ExtensionGoneError';
}

/** Whether this script's extension is gone (its `runtime.id` is then undefined). */
export const extensionGone = (): boolean => !browser.runtime?.id;

/** Throws ExtensionGoneError if this script's extension is gone. */
export function checkExtension(): void {
  if (extensionGone()) throw new ExtensionGoneError('the extension was reloaded or removed');
}

/** Sends a message to the background and returns its typed answer. */
export async function send<K extends keyof Protocol>(type: K, req: Protocol[K]['req']): Promise<Protocol[K]['res']> {
  let reply: unknown;
  checkExtension();
  try {
    reply = await browser.runtime.sendMessage({ type, req });
  } catch (e) {
    checkExtension();
    // The browser could not deliver it, or lost the answer ("message port closed", "receiving end does not exist").
    throw new DeliveryError(e instanceof Error ? e.message : String(e));
  }
  return unwrap(reply, type);
}

/** Sends a message to the content script of a tab. */
export async function sendToTab<K extends keyof ContentProtocol>(
  tabId: number,
  type: K,
  req: ContentProtocol[K]['req'],
): Promise<ContentProtocol[K]['res']> {
  return unwrap(await browser.tabs.sendMessage(tabId, { type, req }), type);
}
