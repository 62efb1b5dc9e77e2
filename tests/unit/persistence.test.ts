import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { keepFromEviction, type StorageGuard } from '../../src/background/persistence';

/** A browser's storage manager: persistent once `persist` is called, if the permission is given. */
function browserWith(permission: 'granted' | 'prompt' | 'denied' | 'none', persisted = false) {
  const calls: string[] = [];
  let persistent = persisted;
  const guard: StorageGuard = {
    storage: {
      persisted: async () => persistent,
      persist: async () => {
        calls.push('persist');
        persistent = permission === 'granted';
        return persistent;
      },
    },
    ...(permission === 'none' ? {} : { permissions: { query: async () => ({ state: permission }) } }),
  };
  return { guard, calls, isPersistent: () => persistent };
}

describe('keeping the history from eviction', () => {
  it('the manifest asks for unlimited storage, in both browsers', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../manifest.json', import.meta.url), 'utf8')) as { permissions: string[] };
    expect(manifest.permissions).toContain('unlimitedStorage');
  });

  it('marks the storage persistent where the permission is granted (Firefox with unlimitedStorage)', async () => {
    const b = browserWith('granted');
    expect(await keepFromEviction(b.guard)).toBe(true);
    expect(b.isPersistent()).toBe(true);
    // Already persistent: nothing is asked again.
    expect(await keepFromEviction(b.guard)).toBe(true);
    expect(b.calls).toEqual(['persist']);
  });

  it('never asks the reader: without the permission it leaves the storage as it is', async () => {
    for (const permission of ['prompt', 'denied', 'none'] as const) {
      const b = browserWith(permission);
      expect(await keepFromEviction(b.guard)).toBe(false);
      expect(b.calls).toEqual([]);
    }
  });

  it('does nothing where there is no such call (a service worker: unlimitedStorage alone keeps it)', async () => {
    expect(await keepFromEviction({ storage: { persisted: async () => false } })).toBeUndefined();
    expect(await keepFromEviction({})).toBeUndefined();
  });
});
