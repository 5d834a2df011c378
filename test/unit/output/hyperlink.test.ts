/** OSC 8 detection as supports-hyperlinks decides it, and a cut URL drawn as a link to the whole. */
import { describe, expect, test } from 'vitest';
import { supportsHyperlinks } from '../../../src/output/hyperlink.js';
import { render } from './helpers.js';

describe('supportsHyperlinks', () => {
  test('FORCE_HYPERLINK decides first: 1 on (even piped), 0 off', () => {
    expect(supportsHyperlinks({ FORCE_HYPERLINK: '1' }, false)).toBe(true);
    expect(supportsHyperlinks({ FORCE_HYPERLINK: '0', WT_SESSION: 'x' }, true)).toBe(false);
  });

  test('never off a terminal or in CI; known terminals by their variables', () => {
    expect(supportsHyperlinks({ WT_SESSION: 'x' }, false)).toBe(false);
    expect(supportsHyperlinks({ CI: 'true', WT_SESSION: 'x' }, true)).toBe(false);
    expect(supportsHyperlinks({ WT_SESSION: 'x' }, true)).toBe(true);
    expect(supportsHyperlinks({ VTE_VERSION: '5001' }, true)).toBe(true);
    expect(supportsHyperlinks({ VTE_VERSION: '0.50.0' }, true)).toBe(false);
    expect(supportsHyperlinks({ TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.4.19' }, true)).toBe(true);
    expect(supportsHyperlinks({ TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.0.1' }, true)).toBe(false);
    expect(supportsHyperlinks({ TERM: 'xterm-256color' }, true)).toBe(false);
  });
});

describe('URLs in a terminal table', () => {
  const url = 'https://www.example.org/culture/2026/11/24/a-rather-long-article-slug-33817';
  const view = { data: [{ articleHash: 1, articleUrl: url, articleTitle: 'A title' }], fields: ['articleHash', 'articleUrl', 'articleTitle'] };

  test('cut to fit where the terminal draws hyperlinks: the cut text links to the whole URL', async () => {
    const text = await render(view, { format: 'table', isTTY: true, width: 40, hyperlinks: true });
    expect(text).toContain(`\x1b]8;;${url}\x1b\\`);
    expect(text).toContain('…\x1b]8;;\x1b\\');
  });

  test('whole, on a line of its own under its row, where it draws none and the URL would run past the edge', async () => {
    const text = await render(view, { format: 'table', isTTY: true, width: 40, hyperlinks: false });
    expect(text).not.toContain('\x1b]8');
    const lines = text.trimEnd().split('\n');
    expect(lines).toEqual([expect.stringMatching(/^ARTICLE HASH {2}TITLE$/), expect.stringMatching(/^1 {13}A title$/), `  ${url}`]);
  });

  test('whole, and last, on the row itself where the line has room for it', async () => {
    const text = await render(view, { format: 'table', isTTY: true, width: 120, hyperlinks: false });
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]!.endsWith(url)).toBe(true);
  });
});
