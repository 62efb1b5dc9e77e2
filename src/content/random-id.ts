/**
 * A random id (128 bits, hex). Not crypto.randomUUID: a page served over plain HTTP is not a secure
 * context, and there the content script has no randomUUID.
 */
export function randomId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
