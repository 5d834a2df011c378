/**
 * URL slugs from names, one rule for the whole project: the sandbox makes its country slugs and
 * personHash values with it, and the CLI uses it to match what a user types against country names.
 */
/** Letters that Unicode does not decompose into a base letter plus marks. */
const FOLD: Record<string, string> = {
  ø: 'o', Ø: 'O', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ł: 'l', Ł: 'L', ß: 'ss', đ: 'd', Đ: 'D',
  ı: 'i', þ: 'th', Þ: 'Th', ð: 'd', Ð: 'D',
};

/** Latin text without diacritics: "Søren Ødegård" -> "Soren Odegard". Other scripts pass through. */
export function foldToAscii(text: string): string {
  return text
    .replace(/[øØæÆœŒłŁßđĐıþÞðÐ]/g, (letter) => FOLD[letter] ?? letter)
    .normalize('NFD')
    .replace(/\p{M}+/gu, '');
}

/** Lower-case ASCII words joined by '-': "Côte d'Ivoire" -> "cote-d-ivoire". */
export function slugify(text: string): string {
  return foldToAscii(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
