// An agent action in one line, and the keys the stuck detector compares (pure).
import { createHash } from 'node:crypto';
import type { AgentAction } from '../../agent/types.js';
import type { StepKey } from '../../agent/stuck.js';

/** The action in one line for the state, events and runs show: the command, or the editor command and path. */
export function actionLine(action: AgentAction): string {
  switch (action.tool) {
    case 'bash':
      return action.command;
    case 'submit':
      return 'submit';
    case 'edit':
      return action.command === 'view' && action.viewRange
        ? `view ${action.path} ${action.viewRange[0]}-${action.viewRange[1]}`
        : `${action.command} ${action.path}`;
  }
}

/** What the stuck detector compares of a step: the whole action and observation, hashed. */
export function stepKey(action: AgentAction, observation: string, failed: boolean): StepKey {
  return { action: digest(JSON.stringify(action)), observation: digest(observation), failed };
}

function digest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);
}
