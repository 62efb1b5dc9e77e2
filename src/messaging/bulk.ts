// Large payloads between the extension's own pages and its background: chunks of a history being
// exported or imported. Extension messages cross as JSON (about 15 ms per 1,000 history records in
// Chromium); a BroadcastChannel between the extension's own contexts clones them (about 5 ms), and
// no web page or content script can join it (it is the extension's origin's). A channel cannot wake
// a stopped background, and a parcel sent to one that stops is lost, so the extension message stays
// the request and names its parcel: a parcel not there is a lost delivery (DeliveryError), and the
// page sends both again (both are idempotent). Where the background may be stopped (before the
// first parcel, and before a parcel sent again), the page wakes it with a message first
// ('options:wake'): a parcel posted while it is stopped would be lost at every try when nothing
// else keeps it running, and the message that follows would wake it only to wait in vain.
//
//   page:        await send('options:wake', {});      // first, or after a lost delivery
//   page:        const id = port.post(pages); await send('options:importChunk', { ..., parcel: id });
//   background:  const pages = inbox.take(id);            // or a DeliveryError
//   background:  inbox.post(id, blob); return { ... };     // an export chunk, as a Blob of its text
//   page:        const blob = await port.receive(id);
//
// Parcels for the background and parcels for pages go on two channels, each context listening only
// to its own: a page never receives (and so never clones) another page's parcels, and an import's
// worker can post its chunks straight to the background, past the page.
import { DeliveryError } from './retry';

/** The channel of parcels for the background; pages get theirs on `toPages` of it. */
export const BULK_CHANNEL = 'deja-read-bulk';
const toPages = (name: string) => `${name}:pages`;
/** Parcels kept unclaimed at most, and how long: a page that sent one and went away leaves it behind. */
const KEPT = 8;
const KEPT_MS = 60_000;

interface Parcel {
  id: string;
  body: unknown;
}

const isParcel = (data: unknown): data is Parcel => !!data && typeof data === 'object' && typeof (data as Parcel).id === 'string';

/** Parcels received and not yet claimed, by id, oldest first. */
class Shelf {
  private readonly parcels = new Map<string, { body: unknown; at: number }>();

  put(p: Parcel): void {
    const now = Date.now();
    for (const [id, { at }] of this.parcels) if (at < now - KEPT_MS || this.parcels.size >= KEPT) this.parcels.delete(id);
    this.parcels.set(p.id, { body: p.body, at: now });
  }

  take(id: string): unknown {
    const found = this.parcels.get(id);
    this.parcels.delete(id);
    return found?.body;
  }
}

/** Waits for parcels by id: one may come before or after the message that names it. */
class Receiver {
  private readonly shelf = new Shelf();
  private readonly waiting = new Map<string, (body: unknown) => void>();

  constructor(readonly channel: BroadcastChannel) {
    channel.onmessage = (e: MessageEvent) => {
      if (!isParcel(e.data)) return;
      const resolve = this.waiting.get(e.data.id);
      if (resolve) {
        this.waiting.delete(e.data.id);
        resolve(e.data.body);
      } else this.shelf.put(e.data);
    };
  }

  /** The parcel with this id, come already or within `timeoutMs`; a DeliveryError after. */
  receive(id: string, timeoutMs: number): Promise<unknown> {
    const here = this.shelf.take(id);
    if (here !== undefined) return Promise.resolve(here);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new DeliveryError(`parcel ${id} did not arrive`));
      }, timeoutMs);
      this.waiting.set(id, (body) => {
        clearTimeout(timer);
        resolve(body);
      });
    });
  }
}

/** How long the background waits for a parcel its message names: the two travel apart. */
const PARCEL_WAIT_MS = 2000;

/** Posts a parcel on a channel; returns its id, to name in the message that goes with it. */
export function postParcel(channel: BroadcastChannel, body: unknown): string {
  const id = crypto.randomUUID();
  channel.postMessage({ id, body } satisfies Parcel);
  return id;
}

/** What the background's handlers use of its inbox. */
export type BulkHandle = Pick<BulkInbox, 'take' | 'post'>;

/** The background's side. */
export class BulkInbox {
  private readonly receiver: Receiver;
  private readonly out: BroadcastChannel;

  constructor(name = BULK_CHANNEL) {
    this.receiver = new Receiver(new BroadcastChannel(name));
    this.out = new BroadcastChannel(toPages(name));
  }

  /** The parcel a page sent with this id; a DeliveryError if it does not come (lost, or sent to a background since stopped). */
  take(id: string): Promise<unknown> {
    return this.receiver.receive(id, PARCEL_WAIT_MS);
  }

  /** Sends a page a parcel under the id it gave. */
  post(id: string, body: unknown): void {
    this.out.postMessage({ id, body } satisfies Parcel);
  }

  close(): void {
    this.receiver.channel.close();
    this.out.close();
  }
}

/** A page's side. `name` is the background's channel, for a worker of the page to post on as well. */
export class BulkPort {
  private readonly receiver: Receiver;
  private readonly out: BroadcastChannel;

  constructor(readonly name = BULK_CHANNEL) {
    this.receiver = new Receiver(new BroadcastChannel(toPages(name)));
    this.out = new BroadcastChannel(name);
  }

  /** Sends a parcel to the background; returns its id, to name in the message that goes with it. */
  post(body: unknown): string {
    return postParcel(this.out, body);
  }

  /** A new id for a parcel the background is asked to send. */
  id(): string {
    return crypto.randomUUID();
  }

  /** The parcel the background sent under this id (it may have come already); a DeliveryError after `timeoutMs`. */
  receive(id: string, timeoutMs: number): Promise<unknown> {
    return this.receiver.receive(id, timeoutMs);
  }

  close(): void {
    this.receiver.channel.close();
    this.out.close();
  }
}
