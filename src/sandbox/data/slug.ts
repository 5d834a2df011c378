import { foldToAscii } from '../../shared/slug.js';

export { foldToAscii, slugify } from '../../shared/slug.js';

/** Case- and accent-insensitive form used by the people search. */
export function searchFold(text: string): string {
  return foldToAscii(text).toLowerCase();
}
