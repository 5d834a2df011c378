/**
 * Gender codes by name. The contract types gender as an integer and lists no values; these are the
 * codes the data uses (docs/sandbox.md), so `--gender female` sends 1. Any other integer still passes.
 * A leaf module: the flag parsers load it on every run.
 */
export const GENDER_CODES = { female: 1, male: 2, 'non-binary': 3, unknown: 0 } as const;
export type GenderName = keyof typeof GENDER_CODES;
