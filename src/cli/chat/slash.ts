// The chat's slash commands (pure): what each does, and a typed line read as one.

/** Every slash command, with what /help says about it. */
export const SLASH_COMMANDS = {
  plan: 'read-only mode: the model reads and runs commands, edits are refused, what commands change is undone',
  code: 'back to code mode: the model may edit',
  diff: "the sandbox's change against the base",
  test: 'run the tests (the ones that failed last time first)',
  undo: 'take back the last exchange: its messages and its changes to the files',
  run: 'hand the conversation and the change to the loop as a directive; it runs as `hammer-box run` does (/run <note> adds a note)',
  branch: 'deliver the change as one new branch with PR_SUMMARY.md, tested by the loop (/branch <title> names the PR)',
  tools: "the model's tools and what the mode allows",
  config: 'the settings this chat runs with',
  new: 'start a new conversation (the work tree goes back to the base)',
  help: 'this list',
  quit: 'leave (the conversation is kept: hammer-box chat --continue)',
} as const;

/** A slash command's name. */
export type SlashName = keyof typeof SLASH_COMMANDS;

/** What a typed line is: a message for the model, a command, an unknown command, or nothing. */
export type Typed =
  | { kind: 'message'; text: string }
  | { kind: 'command'; name: SlashName; arg: string }
  | { kind: 'unknown'; name: string; suggestion: SlashName | null }
  | { kind: 'empty' };

const ALIASES: Record<string, SlashName> = { exit: 'quit', q: 'quit', '?': 'help', ask: 'plan' };

/** Read a typed line. A line starting with `//` is a message that starts with `/`. */
export function parseTyped(line: string): Typed {
  const text = line.trim();
  if (text === '') return { kind: 'empty' };
  if (!text.startsWith('/') || text.startsWith('//'))
    return { kind: 'message', text: text.startsWith('//') ? text.slice(1) : text };
  const m = /^\/(\S+)\s*([\s\S]*)$/.exec(text)!;
  const word = m[1]!.toLowerCase();
  const name = (word in SLASH_COMMANDS ? word : ALIASES[word]) as SlashName | undefined;
  if (name !== undefined) return { kind: 'command', name, arg: m[2]!.trim() };
  return { kind: 'unknown', name: word, suggestion: closest(word) };
}

/** The commands a prefix completes to (tab completion). */
export function completeSlash(line: string): [string[], string] {
  if (!line.startsWith('/') || /\s/.test(line)) return [[], line];
  const hits = Object.keys(SLASH_COMMANDS)
    .map((n) => `/${n}`)
    .filter((n) => n.startsWith(line));
  return [hits, line];
}

function closest(word: string): SlashName | null {
  const names = Object.keys(SLASH_COMMANDS) as SlashName[];
  const prefixed = names.filter((n) => n.startsWith(word.slice(0, 2)));
  return prefixed.length === 1 ? prefixed[0]! : null;
}
