// The addresses a page gives for itself, which the background weighs for its canonical URL.
/** The URLs a page declares for itself (rel=canonical, og:url), made absolute. */
export function declaredUrls(doc: Document): string[] {
  const out: string[] = [];
  const add = (value: string | null | undefined) => {
    if (!value) return;
    try {
      out.push(new URL(value.trim(), doc.baseURI).href);
    } catch {
      // not a URL: ignored
    }
  };
  // Both belong in the head (a canonical link elsewhere is ignored by search engines too); looking
  // only there spares a page of 60,000 elements a search through all of them.
  const head = doc.head;
  add(head?.querySelector('link[rel~="canonical" i]')?.getAttribute('href'));
  add(head?.querySelector('meta[property="og:url" i]')?.getAttribute('content'));
  return out;
}
