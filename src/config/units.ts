// Parsers for human-friendly sizes ("64m") used in the config.

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/** Parse a size: a non-negative integer of bytes, or a string such as "512k", "64m", "2g", "1.5GiB". */
export function parseSize(value: number | string): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(value);
  if (!m) return undefined;
  const unit = SIZE_UNITS[(m[2] ?? '').toLowerCase()];
  if (unit === undefined) return undefined;
  return Math.floor(Number(m[1]) * unit);
}
