// How much of a prompt repeats the previous one from its start: what a local server's KV cache reuses.

/** The length of the common prefix of two texts. */
export function sharedPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  // compare in chunks first: prompts share tens of thousands of characters
  const step = 256;
  while (i + step <= n && a.slice(i, i + step) === b.slice(i, i + step)) i += step;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
