// Colour for the chat's terminal, only when it has colour: a TTY that says so, and no NO_COLOR
// (https://no-color.org: set and not empty) or TERM=dumb. Callers sanitise text before styling it.

/** Styles that wrap text in SGR sequences when colour is on, and leave it alone otherwise. */
export interface Style {
  readonly colour: boolean;
  dim(s: string): string;
  bold(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  magenta(s: string): string;
}

/** Whether `out` gets colour under `env`. */
export function colourFor(
  out: { isTTY?: boolean; hasColors?: (env?: Record<string, string | undefined>) => boolean },
  env: NodeJS.ProcessEnv,
): boolean {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  if (env['TERM'] === 'dumb') return false;
  if (out.isTTY !== true) return false;
  return out.hasColors ? out.hasColors(env) : true;
}

/** The styles for a terminal with (or without) colour. */
export function makeStyle(colour: boolean): Style {
  const sgr =
    (open: number, close: number) =>
    (s: string): string =>
      colour && s !== '' ? `\u001b[${open}m${s}\u001b[${close}m` : s;
  return {
    colour,
    dim: sgr(2, 22),
    bold: sgr(1, 22),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    cyan: sgr(36, 39),
    magenta: sgr(35, 39),
  };
}
