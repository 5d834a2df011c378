// Types for scripts/commands-doc.mjs, so a test can check docs/commands.md against main().
export function commandsMarkdown(helps: ReadonlyArray<readonly [readonly string[], string]>): string;
