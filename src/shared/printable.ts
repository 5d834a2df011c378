/**
 * Text made safe for a terminal: what the library's error messages (api/core/response.ts) and every
 * renderer and note of the CLI run server text through before it reaches a screen.
 */

// C0 and C1 controls other than the whitespace we turn into spaces, and the bidi controls that
// reorder what follows (U+061C, U+200E-F, U+202A-E, U+2066-9). ESC among them: API text must never
// reach a terminal as an escape sequence, nor make a line read as something it is not.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const LINE_BREAKING = /[\t\n\r]/g;

/** Control characters other than tab and line breaks as U+FFFD: API text never reaches a terminal as an escape. */
export function withoutControls(text: string): string {
  return text.replace(CONTROL, '\uFFFD');
}

/**
 * Text safe to place in one terminal cell or one line of stderr: tabs and line breaks become spaces
 * (they would break the row, and the tab-separated layout), other control characters become U+FFFD.
 */
export function printable(text: string): string {
  return withoutControls(text.replace(LINE_BREAKING, ' '));
}
