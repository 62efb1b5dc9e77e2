// How much of a page extraction takes, apart from the extraction itself (which pulls in
// Readability): the background checks reports against these, and Chrome's service worker, which
// never extracts, must not carry Readability for it.

/** Longer texts are digested on their first part: about 600 pages of a book. */
export const MAX_TEXT_LENGTH = 2_000_000;

/** Passages sent for what's new: a page beyond this many is told about its first ones only. */
export const MAX_PAGE_PASSAGES = 5000;
