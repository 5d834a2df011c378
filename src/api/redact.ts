/**
 * Masking the API key in text about to be printed. A long key is masked wherever it appears. A short
 * one (people do use "test", "top" or "e") is masked only where a key could show up: as a token of
 * its own (`invalid key top`, `'top'`, `"top"`) or as the value of something named like a key
 * (`apiKey=top`, `X-Api-Key: top`, `token=top`). It is left alone inside a word, a path, a URL or a
 * host name (`stop`, `/api/data/people/top`, `?term=people`, `top.example`): the key travels only in
 * a header, so it never enters those, and masking every "top" in them would mangle each message
 * and, by what vanished from a path everyone knows, give the key away.
 */
export const MASK = '••••';

/**
 * The sandbox's default key: printed on its start line and in the docs, so it guards nothing and is
 * not masked. Masking it turned the sandbox's own messages into `Injected failure (•••• fail rate)`;
 * a rule that spared short keys in prose instead would have shown a real key a service echoed back
 * (`top is not a valid key`).
 */
export const PUBLISHED_SANDBOX_KEY = 'sandbox';

/** Keys this long or longer are masked inside any text; shorter ones only where they stand alone. */
const SUBSTRING_MASK_MIN_LENGTH = 8;

/**
 * Characters that make a neighbour of a short key part of one bigger token: a word (letters, digits,
 * `_`, `-`), a path (`/`, `\`), a URL's query or fragment (`?`, `&`, `=`, `#`, `%`, `+`, `~`) or an
 * address (`@`). A `.` counts only when a word goes on after it (`top.example`; `key top.` ends a
 * sentence); before the key, `.` always does (`api.top`, `.top`).
 */
let joins: { before: RegExp; after: RegExp; word: RegExp } | undefined;

/**
 * The rules above, made on first use: V8 builds the classes of Unicode properties (\p{L}: every
 * letter) when a literal is evaluated, about 2 million instructions each, which every run loading
 * this module (every request does) would otherwise pay for a key that is seldom short. By the RegExp
 * constructor: V8 checks a literal's pattern, and builds those classes, when it compiles the file
 * (0.5 ms of every run on Node 24, src/output/text.ts says more).
 */
function joinRules() {
  joins ??= {
    before: new RegExp(String.raw`[\p{L}\p{N}\p{M}_\-/\\?&=#%+~@.]$`, 'u'),
    after: new RegExp(String.raw`^(?:[\p{L}\p{N}\p{M}_\-/\\?&=#%+~@]|\.[\p{L}\p{N}_-])`, 'u'),
    word: new RegExp(String.raw`^[\p{L}\p{N}_]`, 'u'),
  };
  return joins;
}

/** Text that names a key just before its value: `apiKey=`, `X-Api-Key: `, `"token": "`, `key '`. */
const NAMES_A_KEY = /(?:key|token|secret|password|authorization|auth)["']?\s*[:=]?\s*["']?$/i;

export function redactSecret(text: string, key: string | undefined): string {
  if (!key || key === PUBLISHED_SANDBOX_KEY) return text;
  if (key.length >= SUBSTRING_MASK_MIN_LENGTH) return text.split(key).join(MASK);
  let result = '';
  let from = 0;
  for (let at = text.indexOf(key); at !== -1; at = text.indexOf(key, at + key.length)) {
    // The neighbourhood is all the rules look at (a key's name is never longer than "authorization").
    const before = text.slice(Math.max(0, at - 32), at);
    const after = text.slice(at + key.length, at + key.length + 2);
    // Quotes escaped as in JSON text (`\"top\"`) quote it as plain ones do.
    const escapedQuotes = /\\["']$/.test(before) && /^\\["']/.test(after);
    const rules = joinRules();
    const standsAlone = escapedQuotes || (!rules.before.test(before) && !rules.after.test(after));
    const valueOfAKey = NAMES_A_KEY.test(before) && !rules.word.test(after);
    if (!standsAlone && !valueOfAKey) continue;
    result += text.slice(from, at) + MASK;
    from = at + key.length;
  }
  return result + text.slice(from);
}
