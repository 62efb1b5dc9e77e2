// Which earlier pages the current one matches, through every identity layer: the same canonical
// URL (a revisit), the same text (exact), and near-duplicates found through the fingerprint's
// block index or the passage index (a copy inside a longer page, a preview) and confirmed by the
// sketch or the shared passages. The decision itself is core's judgePair.
import { ALGORITHM, bothSchemes, decodePassages, decodeReadSet, decodeSketch, frameAtEnds, judgePair, lookupWithoutFrame, newParts, pageIdentity, passageSet, registrableDomain, siteFrame, siteOf, titledApart, titleRead, touchesFrame, whatsNewByHashes, withoutFrame, type MatchSettings, type PagePassage, type PageSignature, type PassageLookup, type ReadSet, type Verdict } from '../core';
import type { Freshness, MatchSummary } from '../messaging/protocol';
import type { PageRecord, PageRepository } from '../storage';

export interface CurrentPage {
  url: string;
  canonicalUrl: string;
  signature: PageSignature;
  /** Its passages as hashes, when the content script sent them. */
  passages?: PagePassage[];
  /** Its read set, when it is a page of the history (which lists each page with its copies): its passages too. */
  readSet?: string;
  /** Its title: its headline, where the text holds it, is no new part. */
  title?: string;
}

/** What the reader read of two pages at once: a key read in either was read. */
function either(a: ReadSet, b: ReadSet | null): ReadSet {
  if (!b) return a;
  // Runs sampled at the larger rate are sampled at the smaller too (rates are powers of two).
  return {
    runSample: Math.max(a.runSample, b.runSample),
    runFalse: 1 - (1 - a.runFalse) * (1 - b.runFalse),
    paragraphs: a.paragraphs && b.paragraphs,
    has: (key) => a.has(key) || b.has(key),
    hasRun: (key) => a.hasRun(key) || b.hasRun(key),
  };
}

/**
 * What is new in the current page against a record, when the record has a read set and the page its
 * passages; with `alsoRead`, what the reader read of this very page before counts as read too.
 * `elsewhere`: the record is of another site than the page (core's newParts: a repost's own lines
 * around what was read are nothing new); `partOf`: the page is a part of the record (a preview of
 * what was read), whose own line before or after the part read is nothing new either.
 */
export function freshness(r: Pick<PageRecord, 'readSet' | 'title'>, passages: PagePassage[] | undefined, { alsoRead = null, elsewhere = false, partOf = false, title = '' }: { alsoRead?: ReadSet | null; elsewhere?: boolean; partOf?: boolean; title?: string } = {}): Freshness | undefined {
  const set = r.readSet && passages?.length ? decodeReadSet(r.readSet) : null;
  if (!set || !passages) return undefined;
  // The earlier page's title was read with it, and this page's own headline is none of its news (core's titleRead).
  const w = whatsNewByHashes(either(either(set, titleRead(r.title, title)), alsoRead), passages);
  return { read: w.read, parts: newParts(passages, w.passages, { elsewhere, partOf }), ...(w.readUpTo !== undefined ? { readUpTo: w.readUpTo } : {}) };
}

export function signatureOf(r: PageRecord): PageSignature {
  return { fp: r.fp, words: r.textLength, textHash: r.textHash, sketch: r.sketch ? decodeSketch(r.sketch) : null, passages: r.passages ? decodePassages(r.passages) : null };
}

/** The last pages of a site a lookup reads, beside its candidates, to learn the site's frame. */
const SITE_FRAME_PAGES = 8;

/**
 * At most this many pages of other sites are judged again without their sites' frames, the closest
 * first: each costs a read of its site's pages (in bench:store at 10^5, warm p95 +4 ms with 1, +15
 * with 3, where heavily edited near-duplicates make such pages common).
 */
const DILUTED_JUDGED = 1;

/**
 * Which matches come first: the same text; then copies and pages held whole, by their resemblance
 * to this page (an update of an article read names that article, which it holds whole, before a
 * repost of it that has lines of its own: review 44); then pages this one is part of; then
 * fingerprints alone.
 */
const KIND_ORDER: Record<string, number> = { 'same-text': 0, 'near-duplicate': 1, 'contains-earlier': 1, 'part-of-earlier': 2, fingerprint: 3 };

function summary(r: PageRecord, v: Verdict, fresh?: Freshness): MatchSummary {
  return {
    url: r.url,
    title: r.title,
    fp: r.fp,
    distance: v.distance,
    kind: v.kind ?? 'fingerprint',
    ...(v.resemblance !== undefined ? { resemblance: v.resemblance } : {}),
    ...(v.containment !== undefined ? { containment: v.containment } : {}),
    ...(fresh ? { read: fresh.read, fresh } : v.read !== undefined ? { read: v.read } : {}),
    ...(r.changed ? { changed: r.changed } : {}),
    firstSeen: r.firstSeen,
    lastSeen: r.lastSeen,
    visits: r.visits,
  };
}

/** What a page's lookup tells: its own earlier visit (or one under its canonical address), and the earlier pages it repeats. */
export interface LookUp {
  before?: PageRecord;
  matches: MatchSummary[];
  /** What is new to the reader against the best match and their own earlier reading of this page (lookUp). */
  fresh?: Freshness;
}

/**
 * Everything the history says about the current page, from one read (PageRepository.lookup): the
 * earlier record of this very page (its own, by any variant of its address, or one under the same
 * canonical address), and the earlier pages elsewhere whose content it repeats, best match first.
 * What is new to the reader (`fresh`) is told against the best match and, with `ownReadSet`, what
 * they read of this very page on an earlier visit: a revision read once has nothing new the next
 * time, whatever its copy elsewhere lacks. `ownReadSet` gives the read set of that reading, given
 * `before` (its own, or, where `before` already holds this visit, the one it held before it; none
 * when there was no earlier visit). With `fresh: 'all'` each match also tells what is new against
 * it alone (the popup's list: a row's figure is about that row's page, and does not move when this
 * page is forgotten or read again; until 28 November 2026 every row counted this page's own reading
 * too: review 50); with `'best'` none does: the notice and the history's mark show no other, and
 * each costs a read set's decoding and a pass over the page's passages (50-200 µs in Node for
 * 60-250 passages).
 * Matches as close as each other come in the order they were first read (`ties: 'first'`: the
 * notice names where the reader read it first), or the latest read first (`'latest'`).
 */
export async function lookUp(
  repo: PageRepository,
  page: CurrentPage,
  settings: MatchSettings,
  { fresh = 'all', ownReadSet, ties = 'first' }: { fresh?: 'all' | 'best'; ownReadSet?: (before: PageRecord) => string | undefined; ties?: 'first' | 'latest' } = {},
): Promise<LookUp> {
  const { signature } = page;
  const enough = signature.words >= settings.minWords;
  // Pages near in fingerprint (the same text among them) and, for a page with enough prose, pages
  // sharing a passage anchor. The decision weighs each (judgePair).
  const found = await repo.lookup({
    url: page.url,
    canonicalUrl: page.canonicalUrl,
    fp: signature.fp,
    maxDistance: settings.maxDistance,
    ...(enough && signature.passages ? { anchors: { values: Array.from(signature.passages.hashes), bits: signature.passages.bits } } : {}),
    excludeUrl: page.url,
    algo: ALGORITHM,
  });
  const flagged: Array<[PageRecord, Verdict]> = [];
  // Earlier pages are looked for among all the current page's passages, where they are at hand: sent
  // by its content script, or held by its read set.
  const all = !found.candidates.length ? null : page.passages?.length ? passageSet(page.passages.map((p) => p.hash)) : page.readSet ? decodeReadSet(page.readSet) : null;
  const current = all ? { ...signature, allPassages: all } : signature;
  // The same page at another address (its declared canonical) is a revisit, not a copy read elsewhere.
  const candidates = found.candidates.filter((r) => r.canonicalUrl !== page.canonicalUrl).map((r) => ({ r, s: signatureOf(r) }));
  const verdicts = candidates.map(({ s }) => judgePair(current, s, settings));
  const site = siteOf(page.url);
  const domain = registrableDomain(site);
  const domainOf = (url: string) => registrableDomain(siteOf(url));
  const recordedOf = new Map<string, Promise<PageRecord[]>>();
  /**
   * The frame of the site of `ref` (a page's passages, at `refUrl`): learned from the candidates of
   * its registrable domain and the last pages each of `hosts` recorded, this page and `ref`'s own
   * excepted (core's siteFrame).
   */
  const frameOf = async (ref: PassageLookup, refUrl: string, hosts: Iterable<string>): Promise<{ frame: Set<number>; taught: number }> => {
    const recorded = (
      await Promise.all(
        [...hosts].map((host) => {
          if (!recordedOf.has(host)) recordedOf.set(host, repo.pagesOfSite(host, SITE_FRAME_PAGES));
          return recordedOf.get(host)!;
        }),
      )
    ).flat();
    const known = new Set(candidates.map(({ r }) => r.url));
    const others = [...new Map(recorded.map((r) => [r.url, r])).values()].filter((r) => !known.has(r.url) && r.url !== page.url && r.url !== refUrl && r.canonicalUrl !== page.canonicalUrl && r.passages);
    const ofSite = candidates.filter(({ r, s }) => s.passages && r.url !== refUrl && domainOf(r.url) === domainOf(refUrl)).map(({ s }) => s.passages!);
    const teachers = [...ofSite, ...others.map((r) => decodePassages(r.passages!)).filter((p) => p !== null)];
    return { frame: siteFrame(ref, teachers, settings.minSharedPassages), taught: teachers.length };
  };
  // A page's passages: all of them in its read set, else those its signature keeps.
  const passagesOf = ({ r, s }: (typeof candidates)[number]): PassageLookup => (r.readSet && decodeReadSet(r.readSet)) || passageSet(Array.from(s.passages!.hashes, (h) => (s.passages!.bits === 32 ? h >>> 8 : h)));
  // This page and a page judged with both their sites' frames taken out.
  const withoutFrames = (s: PageSignature, frame: ReadonlySet<number>): [PageSignature, PageSignature] => [
    { ...signature, passages: signature.passages && withoutFrame(signature.passages, frame), ...(all ? { allPassages: lookupWithoutFrame(all, frame) } : {}) },
    { ...s, passages: s.passages && withoutFrame(s.passages, frame) },
  ];
  // A page of its own site taken for this one may be taken on the lines the site puts around every
  // article: the site's frame, learned from the site's pages among the candidates and the last each
  // of its hosts concerned recorded. Those pages are judged again without it, on their passages
  // alone. A site is its registrable domain here: one publisher's news., finance. and m. hosts put
  // the same lines under their articles (until 28 November 2026 each host was a site of its own,
  // and a short article on one was taken for every article read on the others: review 50).
  // Judged on whole passages, a light revision (a figure corrected in a sentence) keeps few of
  // them: where the earlier page's read set says most of this page's own text (`ownText`, without
  // the frame) was read there, run by run as "what's new" reads it, the verdict on the whole text
  // stands (until 28 November 2026 such a revision was missed once the site's frame was known:
  // review 50). An article of the site that only shares its frame has none of its own text read there.
  const ownTextRead = (r: PageRecord, ownText: PagePassage[] | undefined) => {
    const set = ownText?.length && r.readSet ? decodeReadSet(r.readSet) : null;
    return set !== null && whatsNewByHashes(set, ownText!).read >= settings.minContainment;
  };
  const suspect = (i: number) => verdicts[i].flagged && verdicts[i].kind !== 'same-text' && candidates[i].s.passages != null && domainOf(candidates[i].r.url) === domain;
  let frameHere: Set<number> | undefined;
  if (all && candidates.some((_, i) => suspect(i))) {
    const learned = await frameOf(all, page.url, new Set([site, ...candidates.filter((_, i) => suspect(i)).map(({ r }) => siteOf(r.url))]));
    const frame = (frameHere = learned.frame);
    if (frame.size) {
      // The page's own text, the frame left out, as its content script sent it (with its runs).
      const ownText = page.passages?.filter((p) => !frame.has(p.hash));
      candidates.forEach(({ r, s }, i) => {
        if (!suspect(i) || !touchesFrame(s.passages!, frame)) return;
        const framed = judgePair(...withoutFrames(s, frame), settings, { framed: true });
        if (framed.flagged || !ownTextRead(r, ownText)) verdicts[i] = framed;
      });
    } else if (learned.taught < 2 && page.passages?.length && page.title) {
      // The site's second page read: no frame can be learned from one page, and around a short
      // article the site's lines made the two pages one (until 28 November 2026 the second article
      // of such a site was "read before": review 50, FP-2). Where the two are titled as two
      // articles, and what they share stands only at this page's ends, it is taken for those lines
      // (core's frameAtEnds); the page is judged without it, as above, and keeps its verdict where
      // its own text was read there (ownTextRead: an update, its sentences edited).
      const { passages, title } = page;
      candidates.forEach((c, i) => {
        if (!suspect(i) || !c.r.title || !titledApart(title, c.r.title)) return;
        const ends = frameAtEnds(passages, passagesOf(c), c.s.passages!, settings.minSharedPassages);
        if (!ends) return;
        const framed = judgePair(...withoutFrames(c.s, ends), settings, { framed: true });
        if (!framed.flagged && !ownTextRead(c.r, passages.filter((p) => !ends.has(p.hash)))) verdicts[i] = framed;
      });
    }
  }
  // A page of another site that shares this page's passages without being taken for it may be held
  // apart by the lines each site puts around its articles: a short article reposted under other
  // lines is a small share of either page (until 28 November 2026 a 188-character news item under
  // its site's 473 characters of lines was missed reposted elsewhere: review 50, M-1). The closest
  // is judged again with this site's frame (learned as above) and its own site's (from that site's
  // pages, as it holds it) taken out of both. Such lines, two sites' different ones, hold the
  // fingerprints apart too: a page near in fingerprint (mostly the same text, lines and all) was
  // judged on what it shares already, and is not read for again.
  const diluted = !all
    ? []
    : candidates
        .map((_, i) => i)
        .filter((i) => !verdicts[i].flagged && verdicts[i].distance > settings.maxDistance && candidates[i].s.passages != null && (verdicts[i].shared ?? 0) >= settings.minSharedPassages && domainOf(candidates[i].r.url) !== domain)
        // As close as each other: the one read first, as the notice names it.
        .sort((i, j) => (verdicts[j].containment ?? 0) - (verdicts[i].containment ?? 0) || candidates[i].r.firstSeen - candidates[j].r.firstSeen)
        .slice(0, DILUTED_JUDGED);
  if (diluted.length) {
    // The sites' pages are read at once.
    const [here, ...theirs] = await Promise.all([frameHere ?? frameOf(all!, page.url, [site]).then((f) => f.frame), ...diluted.map((i) => frameOf(passagesOf(candidates[i]), candidates[i].r.url, [siteOf(candidates[i].r.url)]).then((f) => f.frame))]);
    diluted.forEach((i, k) => {
      const { s } = candidates[i];
      const frame = new Set([...here, ...theirs[k]]);
      if (!touchesFrame(s.passages!, frame) && !(signature.passages && touchesFrame(signature.passages, frame))) return;
      const framed = judgePair(...withoutFrames(s, frame), settings, { framed: true });
      if (framed.flagged) verdicts[i] = framed;
    });
  }
  candidates.forEach(({ r }, i) => {
    if (verdicts[i].flagged) flagged.push([r, verdicts[i]]);
  });
  const dismissed = await repo.dismissedAmong(page.url, flagged.map(([r]) => r.url));
  // A page read at another address declaring the same canonical one is this page read before only
  // where the text agrees (the same text, or taken for a copy of it): a site that declares its home
  // page canonical for every article (a common misconfiguration) would make each article "visited
  // before" (until 28 November 2026: review 50). The page's own address over the other scheme is
  // this page, whatever its text now, as its own address is.
  const ownAddress = bothSchemes(pageIdentity(page.url));
  const sameCanonical = found.sameCanonical.filter((r) => ownAddress.includes(r.url) || (r.textHash !== undefined && r.textHash === signature.textHash) || judgePair(current, signatureOf(r), settings).flagged);
  const before = found.own ?? sameCanonical.sort((a, b) => b.lastSeen - a.lastSeen)[0];
  const ownSet = before && flagged.length ? ownReadSet?.(before) : undefined;
  const own = ownSet ? decodeReadSet(ownSet) : null;
  const ranked = flagged
    .filter(([r]) => !dismissed.has(r.url))
    .map(([r, verdict]) => ({ r, verdict, s: summary(r, verdict) }))
    // Equally close pages in the order the reader first read them (the notice names where this was
    // read first), or, for the history's list, latest first as it lists pages.
    .sort(({ s: a }, { s: b }) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (b.resemblance ?? 0) - (a.resemblance ?? 0) || (ties === 'latest' ? b.lastSeen - a.lastSeen : a.firstSeen - b.firstSeen));
  const newAgainst = (r: PageRecord, verdict: Verdict, alsoRead: ReadSet | null) =>
    freshness(r, page.passages, { alsoRead, elsewhere: siteOf(r.url) !== siteOf(page.url), partOf: verdict.kind === 'part-of-earlier', ...(page.title ? { title: page.title } : {}) });
  const matches = ranked.map(({ r, verdict, s }) => (fresh === 'all' ? summary(r, verdict, newAgainst(r, verdict, null)) : s));
  const [best] = ranked;
  const told = !best ? undefined : own || fresh !== 'all' ? newAgainst(best.r, best.verdict, own) : matches[0].fresh;
  return { ...(before ? { before } : {}), matches, ...(told ? { fresh: told } : {}) };
}

/** Earlier pages elsewhere whose content the current page repeats, best match first (equal ones as `ties` says: lookUp). */
export async function findMatches(repo: PageRepository, page: CurrentPage, settings: MatchSettings, ties: 'first' | 'latest' = 'first'): Promise<MatchSummary[]> {
  return (await lookUp(repo, page, settings, { ties })).matches;
}
