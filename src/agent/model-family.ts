// The text format a model family writes its tool calls in, from the model's name: the shape an
// example is shown in when an answer makes no call (the server parses that shape into native
// calls, or hammer-box reads it from the text).
import type { CallFormat } from './types.js';

const FAMILIES: readonly [RegExp, Exclude<CallFormat, 'native' | 'fenced'>][] = [
  [/qwen3?[-_.]?coder/i, 'qwen-xml'],
  [/gpt-?oss/i, 'harmony'],
  [/deepseek/i, 'deepseek'],
  [/functionary/i, 'functionary'],
  [/granite/i, 'granite'],
  [/firefunction/i, 'firefunction'],
  [/command-?r7b/i, 'command-r'],
  [/mistral|devstral|ministral|magistral|codestral|mixtral/i, 'mistral'],
  [/llama[-_.]?3/i, 'llama'],
  [/qwen|hermes|qwq/i, 'hermes'],
];

/** The format the model's family writes calls in, or null when the name says nothing. */
export function familyFormat(model: string): Exclude<CallFormat, 'native' | 'fenced'> | null {
  return FAMILIES.find(([re]) => re.test(model))?.[1] ?? null;
}
