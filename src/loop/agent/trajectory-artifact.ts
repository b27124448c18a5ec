// The trajectory artifact (iter-NN-trajectory.md): the whole conversation of one agent iteration,
// readable: the messages it started from, each answer with its calls, each observation whole (pure).
import type { ChatMessage, ToolCall } from '../../llm/types.js';
import { fenceFor } from '../../text/markdown.js';

/** One part of the artifact, in the order it happened. */
export type TrajectoryPart =
  | { kind: 'start'; messages: readonly ChatMessage[] }
  | { kind: 'turn'; k: number; text: string; toolCalls?: readonly ToolCall[]; note: string }
  | { kind: 'step'; k: number; line: string; how: string; observation: string }
  | { kind: 'text'; title: string; text: string }
  | { kind: 'end'; reason: string; detail: string };

/** The artifact's markdown for iteration n. */
export function renderTrajectory(n: number, parts: readonly TrajectoryPart[]): string {
  const out = [`# Trajectory of iteration ${n}`];
  for (const p of parts) {
    switch (p.kind) {
      case 'start':
        for (const m of p.messages) out.push(`## ${m.role}`, fenced(m.content));
        break;
      case 'turn':
        out.push(`## turn ${p.k} (${p.note})`, fenced(p.text));
        if (p.toolCalls && p.toolCalls.length > 0)
          out.push('tool calls:', fenced(JSON.stringify(p.toolCalls, null, 2)));
        break;
      case 'step':
        out.push(`### step ${p.k}: ${oneLine(p.line)} → ${p.how}`, fenced(p.observation));
        break;
      case 'text':
        out.push(`### ${p.title}`, fenced(p.text));
        break;
      case 'end':
        out.push(`## end: ${p.reason}`, oneLine(p.detail));
        break;
    }
  }
  return `${out.join('\n\n')}\n`;
}

function fenced(text: string): string {
  const fence = fenceFor(text);
  return `${fence}\n${text.replace(/\n$/, '')}\n${fence}`;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
