/**
 * "Did you mean ...?" for names the user typed: profiles, countries. Pure.
 */

/** Edits (insert, delete, substitute, swap two neighbours) between two strings, case-insensitive. */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const rows = Array.from({ length: x.length + 1 }, (_, i) => [i, ...Array<number>(y.length).fill(0)]);
  for (let j = 1; j <= y.length; j += 1) rows[0]![j] = j;
  for (let i = 1; i <= x.length; i += 1) {
    for (let j = 1; j <= y.length; j += 1) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[x.length]![y.length]!;
}

/**
 * The candidates close to `typed`, closest first: within a third of its length in edits (at least
 * one), or, for three characters and more, starting with it. At most `max`.
 */
export function closest(typed: string, candidates: readonly string[], max = 3): string[] {
  const allowed = Math.max(1, Math.floor(typed.length / 3));
  const lower = typed.toLowerCase();
  return candidates
    .map((candidate) => ({ candidate, distance: editDistance(typed, candidate) }))
    .filter(({ candidate, distance }) => distance <= allowed || (lower.length >= 3 && candidate.toLowerCase().startsWith(lower)))
    .sort((left, right) => left.distance - right.distance)
    .slice(0, max)
    .map(({ candidate }) => candidate);
}

/** `; did you mean a, b or c?`, or nothing when there is nothing to suggest. */
export function didYouMean(suggestions: readonly string[]): string {
  if (suggestions.length === 0) return '';
  const listed = suggestions.length === 1 ? suggestions[0] : `${suggestions.slice(0, -1).join(', ')} or ${suggestions.at(-1)}`;
  return `; did you mean ${listed}?`;
}
