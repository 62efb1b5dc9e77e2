// What the command line prints of a file's own text (titles, addresses, passages, a page's
// language, a parser's quote of a file): control characters (ESC, BEL: a terminal would run the
// sequences they start, set its title, clear the screen) and bidirectional controls (U+202E would
// turn the rest of the line around) are written as visible \u{…} escapes instead.

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- the same, line feeds and tabs kept
const UNSAFE_IN_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const escape = (c: string) => `\\u{${c.charCodeAt(0).toString(16)}}`;

/** Text for one line of a terminal. */
export const printable = (text: string): string => text.replace(UNSAFE, escape);

/** Text that may span lines (a passage of a page): line feeds and tabs kept, a Windows line end (CR LF) as a line feed. */
export const printableLines = (text: string): string => text.replace(/\r\n/g, '\n').replace(UNSAFE_IN_LINES, escape);
