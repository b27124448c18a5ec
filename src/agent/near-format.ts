// The call format an answer points to without holding a readable call: the tokens of a format
// that opened but could not be read (a malformed call, answered in that format), or the format an
// answer without any call came closest to (its "no tool call" message shows an example in it).
import type { CallFormat } from './types.js';

/** Tokens that open a call in a format: the answer tried to call in it. */
const TELLTALES: readonly [RegExp, CallFormat][] = [
  [/<tool_call>|<function\b|<invoke\b/, 'qwen-xml'],
  [/\[TOOL_CALLS\]/, 'mistral'],
  [/<\|tool_call\|>/, 'granite'],
  [/<\|START_ACTION\|>/, 'command-r'],
  [/<[｜|]tool[▁_]calls?[▁_]?(?:begin)?[｜|]>/, 'deepseek'],
  [/<\|python_tag\|>/, 'llama'],
  [/\bfunctools\[/, 'firefunction'],
  [/<\|channel\|>[^<]*\bto=/, 'harmony'],
];

/** Tokens of a format that say nothing about a call by themselves (framing, talk). */
const FRAMINGS: readonly [RegExp, CallFormat][] = [
  [/<\|channel\|>|<\|message\|>|<\|start\|>assistant/, 'harmony'],
  [/<[｜|](?:end[▁_]of[▁_]sentence|Assistant)[｜|]>/, 'deepseek'],
  [/<\|START_RESPONSE\|>|<\|START_THINKING\|>/, 'command-r'],
  [/(?:^|\n)>>>all\n|^all\n/, 'functionary'],
  [/<\|eot_id\|>|<\|eom_id\|>/, 'llama'],
  [/\[ARGS\]/, 'mistral'],
];

/** The format whose call-opening tokens the text holds (the first that matches), or null. */
export function telltaleFormat(text: string): CallFormat | null {
  return TELLTALES.find(([re]) => re.test(text))?.[1] ?? null;
}

/** The format an answer without a call came closest to: its tokens, or a JSON object naming a tool; null when it shows none. */
export function nearestFormat(text: string): CallFormat | null {
  const hit = telltaleFormat(text) ?? FRAMINGS.find(([re]) => re.test(text))?.[1];
  if (hit !== undefined && hit !== null) return hit;
  if (/\{\s*"(?:name|tool|tool_name|function)"\s*:\s*"[\w.-]+"/.test(text)) return 'json';
  if (/<parameter[\s=]|<\/function>/.test(text)) return 'qwen-xml';
  return null;
}
