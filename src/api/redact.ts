/**
 * Masking the API key in text about to be printed. A long key is masked wherever it appears. A short
 * one (people do use "test" or "e") is masked only where it stands alone: masking every "e" would
 * mangle each message and, by the pattern of what vanished, give the key away.
 */
export const MASK = '••••';

/** Keys this long or longer are masked inside any text; shorter ones only as a whole word. */
const SUBSTRING_MASK_MIN_LENGTH = 8;

export function redactSecret(text: string, key: string | undefined): string {
  if (!key) return text;
  if (key.length >= SUBSTRING_MASK_MIN_LENGTH) return text.split(key).join(MASK);
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`(?<![\\p{L}\\p{N}_-])${escaped}(?![\\p{L}\\p{N}_-])`, 'gu'), MASK);
}
