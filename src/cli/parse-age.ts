// Ages on the command line: "30m", "12h", "7d", "2w", or a bare number of days.
import { InvalidArgumentError } from 'commander';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** An age in milliseconds (commander's InvalidArgumentError when it is not one). */
export function parseAge(value: string): number {
  const m = /^(\d+(?:\.\d+)?)([mhdw]?)$/.exec(value.trim());
  if (!m) throw new InvalidArgumentError(`not an age: ${value} (use e.g. 30m, 12h, 7d, 2w)`);
  return Number(m[1]) * UNIT_MS[(m[2] || 'd') as keyof typeof UNIT_MS];
}
