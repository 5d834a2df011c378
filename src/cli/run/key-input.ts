/**
 * What a hidden prompt makes of the bytes a terminal in raw mode sends: editing keys edit, keys
 * that move a cursor do nothing (there is no visible line to move in), and only printable text and
 * pasted text become the key. Pure, so each key is a one-line test; `auth login` drives it.
 *
 * Our own rather than a prompt library's: readline-based prompts (@inquirer/password among them)
 * move an invisible cursor on arrow keys, so the next character lands mid-key, and treat a newline
 * inside a paste as Enter. Here:
 * - Enter ends; Ctrl-C cancels; Ctrl-D ends only on an empty line (EOF), else does nothing;
 * - Backspace deletes a character, Ctrl-U and Ctrl-W the whole line;
 * - escape sequences (arrows, Home, Delete, F-keys) are dropped whole, even split across reads;
 * - bracketed paste (ESC[200~ ... ESC[201~) is taken as text, without its line breaks.
 */
export interface KeyInput {
  typed: string;
  /** Bytes of an escape sequence not complete yet (it may continue in the next read). */
  pending: string;
  /** Inside a bracketed paste. */
  pasting: boolean;
  done?: 'enter' | 'cancel';
}

export const EMPTY_KEY_INPUT: KeyInput = { typed: '', pending: '', pasting: false };

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
/** CSI (ESC [ params final) or SS3 (ESC O char) sequences, complete. */
// eslint-disable-next-line no-control-regex -- terminal escape sequences are what these match
const ESCAPE_SEQUENCE = /^\x1b(?:\[[0-?]*[ -/]*[@-~]|O.|[^[O])/;
/** A prefix of an escape sequence that may complete with more bytes. */
// eslint-disable-next-line no-control-regex -- terminal escape sequences are what these match
const PARTIAL_ESCAPE = /^\x1b(?:\[[0-?]*[ -/]*|O)?$/;
const LINE_BREAKS = /[\r\n]/g;

export function applyKeys(state: KeyInput, chunk: string): KeyInput {
  let { typed, pasting } = state;
  let rest = state.pending + chunk;
  while (rest !== '') {
    if (pasting) {
      const end = rest.indexOf(PASTE_END);
      if (end === -1) {
        // Keep a possible start of the end marker for the next read.
        let tail = Math.min(PASTE_END.length - 1, rest.length);
        while (tail > 0 && !PASTE_END.startsWith(rest.slice(-tail))) tail -= 1;
        typed += rest.slice(0, rest.length - tail).replace(LINE_BREAKS, '');
        return { typed, pending: rest.slice(rest.length - tail), pasting };
      }
      typed += rest.slice(0, end).replace(LINE_BREAKS, '');
      rest = rest.slice(end + PASTE_END.length);
      pasting = false;
      continue;
    }
    const character = rest[0]!;
    if (character === '\x1b') {
      if (rest.startsWith(PASTE_START)) {
        pasting = true;
        rest = rest.slice(PASTE_START.length);
        continue;
      }
      const sequence = ESCAPE_SEQUENCE.exec(rest);
      if (sequence) {
        rest = rest.slice(sequence[0].length);
        continue;
      }
      if (PARTIAL_ESCAPE.test(rest)) return { typed, pending: rest, pasting };
      rest = rest.slice(1);
      continue;
    }
    rest = rest.slice(1);
    if (character === '\r' || character === '\n') return { typed, pending: '', pasting, done: 'enter' };
    if (character === '\x03') return { typed: '', pending: '', pasting, done: 'cancel' };
    if (character === '\x04') {
      if (typed === '') return { typed, pending: '', pasting, done: 'enter' };
      continue;
    }
    if (character === '\x7f' || character === '\b') {
      typed = [...typed].slice(0, -1).join('');
      continue;
    }
    if (character === '\x15' || character === '\x17') {
      typed = '';
      continue;
    }
    if (character < ' ') continue;
    typed += character;
  }
  return { typed, pending: '', pasting };
}
