// The toolchains a directive names by their language ("the Python port", "in Go", "the Rust
// crate"): a weaker hint than a path it names, used when no path decides between projects. Pure.

/** Each toolchain's language names, as a directive writes them (Go only where it cannot be the verb). */
const LANGUAGE_NAMES: Readonly<Record<string, RegExp>> = {
  python: /\b(?:python3?|cpython|pypy)\b/i,
  node: /\b(?:javascript|typescript|node\.?js|nodejs)\b/i,
  go: /\bgolang\b|\b(?:in|the|a|its|our|with) Go\b|\bGo(?:'s)? (?:module|package|code|version|port|implementation|library|binding|bindings|side|tests?|program)\b/,
  rust: /\brust\b(?! (?:on|off|stain|proof))/i,
};

/** The toolchains the directive names by language, in the order of LANGUAGE_NAMES. */
export function directiveLanguages(directive: string): string[] {
  return Object.entries(LANGUAGE_NAMES)
    .filter(([, re]) => re.test(directive))
    .map(([tc]) => tc);
}
