// The functions a traceback or stack names: Python tracebacks and pytest frames, JS stack frames, Go
// panic stacks and Rust backtraces (pure). Their names lead to definitions wherever the frame's file is.

/** Frame names kept at most. */
const MAX_FRAMES = 40;
/** Lines read for frames at most (the head and tail of longer outputs). */
const MAX_LINES = 4000;
/** A frame line longer than this is not a frame (and is not matched at all). */
const MAX_FRAME_LINE = 600;

const FRAME_PATTERNS: readonly RegExp[] = [
  // Python: `File "x.py", line 3, in name` and pytest's `x.py:3: in name`
  /^\s*File "[^"\n]{1,400}", line \d{1,7}, in ([A-Za-z_]\w{0,99})\s*$/,
  /^\S{1,400}:\d{1,7}: in ([A-Za-z_]\w{0,99})\s*$/,
  // JS: `at Class.method (file:1:2)`, `at async name (…)`, `at new Name (…)`
  /^\s*at (?:async )?(?:new )?([\w$.]{1,200})(?: \[as [\w$]{1,100}\])? \(/,
  // Go panics: `example.com/m/pkg.(*T).Method(...)`, `pkg.Func(0x1)`
  /^\s*[\w.~/-]{1,300}\.(?:\(\*?[\w]{1,100}\)\.)?([A-Za-z_]\w{0,99})(?:\.func\d{1,4})*\((?:[^()]{0,200})\)\s*$/,
  // Rust backtraces: `  3: app::parser::parse_expr` (with or without a hash suffix)
  /^\s*\d{1,4}: ([\w:<>{}]{1,300}?)(?:::h[0-9a-f]{16})?\s*$/,
];

/** Names no repository defines in a way worth following (runtimes' own frames). */
const SKIPPED = new Set(['<module>', '<anonymous>', 'anonymous', 'Object', 'Context', 'Test', 'main', 'tRunner']);

/** The function names of the frames the output prints, innermost last, each once. */
export function frameNames(text: string): string[] {
  let lines = text.split('\n');
  if (lines.length > MAX_LINES) lines = [...lines.slice(0, MAX_LINES / 2), ...lines.slice(-MAX_LINES / 2)];
  const out: string[] = [];
  for (const line of lines) {
    if (line.length > MAX_FRAME_LINE) continue;
    for (const re of FRAME_PATTERNS) {
      const m = re.exec(line);
      if (m === null) continue;
      const name = lastSegment(m[1]!);
      if (name !== '' && !SKIPPED.has(name) && !out.includes(name)) out.push(name);
      break;
    }
    if (out.length >= MAX_FRAMES) break;
  }
  return out;
}

/** The last part of a qualified name (`Command.parse` → parse, `app::lex::next` → next), closures left out. */
function lastSegment(qualified: string): string {
  const parts = qualified.split(/\.|::/).filter((p) => p !== '' && !p.startsWith('{{') && !p.startsWith('<'));
  const last = parts.at(-1) ?? '';
  return /^[A-Za-z_$][\w$]*$/.test(last) ? last : '';
}
