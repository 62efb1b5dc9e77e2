// One router per receiving side: answers only known message names, only from allowed senders,
// and returns errors as data so the sender can show them.
import type { Runtime } from 'webextension-polyfill';
import type { Reply } from './protocol';

/** A map from message name to its request and response types. */
type AnyProtocol<P> = { [K in keyof P]: { req: unknown; res: unknown } };

export type Handlers<P extends AnyProtocol<P>> = {
  [K in keyof P]: (req: P[K]['req'], sender: Runtime.MessageSender) => Promise<P[K]['res']>;
};

/** Which senders may send a message: content scripts (in a tab) or the extension's own pages. */
export type SenderKind = 'content' | 'extension-page';

export function senderKind(sender: Runtime.MessageSender, extensionId: string, extensionOrigin: string): SenderKind | null {
  if (sender.id !== extensionId) return null;
  if (sender.tab && !(sender.url ?? '').startsWith(extensionOrigin)) return 'content';
  if ((sender.url ?? '').startsWith(extensionOrigin)) return 'extension-page';
  return null;
}

/**
 * Refuses a message from a frame of a page: what a content script asks for (a page's report, its
 * links, "not the same", the list of matches) is asked for the tab's top page only, where the
 * notice is drawn. `what` names it in the error.
 */
export function fromTopFrame(sender: Runtime.MessageSender, what: string): void {
  if (sender.frameId !== undefined && sender.frameId !== 0) throw new TypeError(`${what} from a frame`);
}

/**
 * Who may send a message follows from its name: `content:…` comes from content scripts, every
 * other name (`popup:…`, `options:…`, `history:…`, `background:…`) from the extension's own pages.
 */
export function expectedSender(type: string): SenderKind {
  return type.startsWith('content:') ? 'content' : 'extension-page';
}

export function createRouter<P extends AnyProtocol<P>>(
  handlers: Handlers<P>,
  identify: (sender: Runtime.MessageSender) => SenderKind | null,
): (message: unknown, sender: Runtime.MessageSender) => Promise<Reply<unknown>> | undefined {
  return (message, sender) => {
    if (!message || typeof message !== 'object') return undefined;
    const { type, req } = message as { type?: unknown; req?: unknown };
    if (typeof type !== 'string' || !Object.hasOwn(handlers, type)) return undefined;
    const kind = identify(sender);
    const name = type as keyof P & string;
    if (kind !== expectedSender(name)) {
      return Promise.resolve({ error: { name: 'Forbidden', message: `${name} is not accepted from this sender` } });
    }
    // The request is checked by the handler itself: it comes from another context.
    return handlers[name](req as P[typeof name]['req'], sender).then(
      (ok) => ({ ok }),
      (e: unknown) => ({
        error: { name: e instanceof Error ? e.name : 'Error', message: e instanceof Error ? e.message : String(e) },
      }),
    );
  };
}
