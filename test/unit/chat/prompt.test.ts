// The plan's shape, and what the model is told.
import { describe, expect, it } from 'vitest';
import { chatSystemMessage, missingPlanSections, modeNote, planRequest } from '../../../src/chat/prompt.js';

const PLAN = `# Plan: x
## Goal
g
## Constraints
- c
## Files and functions
- \`a.py\`: f
## Steps
1. one
2. two
## Tests
- t`;

describe('missingPlanSections', () => {
  it('accepts a whole plan', () => {
    expect(missingPlanSections(PLAN)).toEqual([]);
  });
  it('names what is missing, and steps that are not numbered', () => {
    expect(missingPlanSections('## Goal\ng\n## Steps\n- one')).toEqual([
      'Constraints',
      'Files and functions',
      'Tests',
      'numbered steps',
    ]);
  });
});

describe('the prompts', () => {
  it('a plan request carries the goal and constraints, sanitised', () => {
    const r = planRequest('make it \u001b[2Jfast', ['keep the API', 'no new deps']);
    expect(r).toContain('Goal: make it fast');
    expect(r).toContain('- keep the API\n- no new deps');
    expect(r).not.toContain('\u001b');
  });
  it('the system message teaches the text protocol only when tools are not native', () => {
    const opts = { testCommand: 'pytest', commandTimeoutS: 120, toolsText: '# Tools\nXML' };
    expect(chatSystemMessage({ ...opts, native: true })).not.toContain('# Tools');
    expect(chatSystemMessage({ ...opts, native: false })).toContain('# Tools\nXML');
    expect(modeNote('plan')).toMatch(/Read-only mode/);
  });
});
