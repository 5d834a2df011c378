/**
 * Whether to colour, and with how many colours, as the ecosystem's conventions say:
 * - `--no-color`, a non-empty NO_COLOR (no-color.org) or FORCE_COLOR=0/false: no colour;
 * - FORCE_COLOR (empty, 1, true, 2, 3): colour even when the stream is not a terminal; 2 and 3
 *   ask for 256 and 24-bit colours, as chalk and Node read it;
 * - otherwise colour only on a terminal, and not on TERM=dumb;
 * - depth: 24-bit only when COLORTERM says truecolor or 24bit, 256 when TERM names 256 colours,
 *   else the 16 every terminal has.
 * Pure, so each rule is a one-line test.
 */
export type ColorDepth = 0 | 4 | 8 | 24;

function detectedDepth(env: NodeJS.ProcessEnv): Exclude<ColorDepth, 0> {
  if (/^(truecolor|24bit)$/i.test(env.COLORTERM ?? '')) return 24;
  if (/256/.test(env.TERM ?? '')) return 8;
  return 4;
}

export function colorDepth(env: NodeJS.ProcessEnv, isTTY: boolean, colorFlag = true): ColorDepth {
  if (!colorFlag || (env.NO_COLOR !== undefined && env.NO_COLOR !== '')) return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0;
    if (force === '3') return 24;
    if (force === '2') return Math.max(8, detectedDepth(env)) as ColorDepth;
    return detectedDepth(env);
  }
  if (!isTTY || env.TERM === 'dumb') return 0;
  return detectedDepth(env);
}

/** The 16 basic colours' SGR codes and their usual RGB (xterm's defaults). */
const BASIC: readonly (readonly [number, number, number, number])[] = [
  [30, 0, 0, 0], [31, 205, 0, 0], [32, 0, 205, 0], [33, 205, 205, 0],
  [34, 0, 0, 238], [35, 205, 0, 205], [36, 0, 205, 205], [37, 229, 229, 229],
  [90, 127, 127, 127], [91, 255, 0, 0], [92, 0, 255, 0], [93, 255, 255, 0],
  [94, 92, 92, 255], [95, 255, 0, 255], [96, 0, 255, 255], [97, 255, 255, 255],
];

const CUBE_LEVELS = [0, 95, 135, 175, 215, 255];

function nearestLevel(value: number): number {
  let best = 0;
  for (let i = 1; i < CUBE_LEVELS.length; i += 1) {
    if (Math.abs(CUBE_LEVELS[i]! - value) < Math.abs(CUBE_LEVELS[best]! - value)) best = i;
  }
  return best;
}

const distance = (a: readonly number[], b: readonly number[]) => a.reduce((sum, value, i) => sum + (value - b[i]!) ** 2, 0);

/** The nearest of the 256 colours: the 6x6x6 cube or the grey ramp, whichever is closer. */
function ansi256(red: number, green: number, blue: number): number {
  const [r, g, b] = [nearestLevel(red), nearestLevel(green), nearestLevel(blue)];
  const cube = [CUBE_LEVELS[r]!, CUBE_LEVELS[g]!, CUBE_LEVELS[b]!];
  const greyIndex = Math.max(0, Math.min(23, Math.round(((red + green + blue) / 3 - 8) / 10)));
  const grey = 8 + greyIndex * 10;
  return distance([grey, grey, grey], [red, green, blue]) < distance(cube, [red, green, blue])
    ? 232 + greyIndex
    : 16 + 36 * r + 6 * g + b;
}

/** The SGR sequence that sets the foreground nearest to #rrggbb at this depth ('' without colour). */
export function foreground(red: number, green: number, blue: number, depth: ColorDepth): string {
  if (depth === 24) return `\x1b[38;2;${red};${green};${blue}m`;
  if (depth === 8) return `\x1b[38;5;${ansi256(red, green, blue)}m`;
  if (depth === 4) {
    const nearest = BASIC.reduce((best, color) => (distance(color.slice(1), [red, green, blue]) < distance(best.slice(1), [red, green, blue]) ? color : best));
    return `\x1b[${nearest[0]}m`;
  }
  return '';
}
