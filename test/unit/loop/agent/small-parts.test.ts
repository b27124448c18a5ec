// The small pure pieces beside the trajectory loop: edit paths, the messages that carry observations,
// the one-line actions, the bounds, and the agent's prompt.
import { describe, expect, it } from 'vitest';
import { actionLine, stepKey } from '../../../../src/loop/agent/action-line.js';
import { boundReached } from '../../../../src/loop/agent/bounds.js';
import { NOT_RUN, observationMessages } from '../../../../src/loop/agent/messages.js';
import { resolveAgentPath } from '../../../../src/loop/agent/paths.js';
import { agentSystemMessage, buildAgentPrompt } from '../../../../src/loop/agent/prompt.js';

describe('resolveAgentPath', () => {
  it('takes repository-relative paths and absolute ones under /workspace, normalised', () => {
    for (const [raw, path] of [
      ['calc.py', 'calc.py'],
      ['./src/a.py', 'src/a.py'],
      ['/workspace/src/a.py', 'src/a.py'],
      ['src//b/../a.py', 'src/a.py'],
      [' src/a.py\n', 'src/a.py'],
      ['.github-notes.md', '.github-notes.md'],
    ] as const)
      expect(resolveAgentPath(raw), raw).toEqual({ ok: true, path });
  });

  it('refuses paths outside the repository, the root, .git and control characters, saying why', () => {
    for (const [raw, why] of [
      ['../x', 'outside the repository'],
      ['/etc/passwd', 'outside the repository'],
      ['/workspace/../etc/passwd', 'outside the repository'],
      ['/workspacefoo/a', 'outside the repository'],
      ['src/../../x', 'outside the repository'],
      ['/workspace', 'a directory'],
      ['.', 'a directory'],
      ['.git/config', 'inside .git'],
      ['sub/.GIT/hooks/pre-commit', 'inside .git'],
      ['a\u0000b', 'control characters'],
      ['', 'no path'],
    ] as const) {
      const r = resolveAgentPath(raw);
      expect(r.ok, raw).toBe(false);
      if (!r.ok) expect(r.reason, raw).toContain(why);
    }
  });
});

describe('observationMessages', () => {
  it('answers every native call (those not run say so) and puts a nudge after them', () => {
    const calls = [
      { id: 'a', name: 'bash', arguments: '{}' },
      { id: 'b', name: 'edit', arguments: '{}' },
    ];
    expect(observationMessages({ toolCalls: calls }, [{ callId: 'a', text: 'one' }], 'try something else')).toEqual([
      { role: 'tool', content: 'one', toolCallId: 'a', toolName: 'bash' },
      { role: 'tool', content: NOT_RUN, toolCallId: 'b', toolName: 'edit' },
      { role: 'user', content: 'try something else' },
    ]);
  });

  it('sends text-protocol observations as one user message, numbered when there are several', () => {
    expect(observationMessages({}, [{ text: 'one' }])).toEqual([{ role: 'user', content: 'one' }]);
    const [m] = observationMessages({}, [{ text: 'one' }, { text: 'two' }]);
    expect(m?.content).toBe('[result of call 1]\none\n\n[result of call 2]\ntwo');
  });
});

describe('actionLine and stepKey', () => {
  it('says each action in one line and keys steps by their whole action and observation', () => {
    expect(actionLine({ tool: 'bash', command: 'ls -la' })).toBe('ls -la');
    expect(actionLine({ tool: 'edit', command: 'view', path: 'a.py', viewRange: [3, 9] })).toBe('view a.py 3-9');
    expect(actionLine({ tool: 'edit', command: 'str_replace', path: 'a.py', oldStr: 'x', newStr: 'y' })).toBe(
      'str_replace a.py',
    );
    expect(actionLine({ tool: 'submit' })).toBe('submit');
    const a = stepKey({ tool: 'edit', command: 'str_replace', path: 'a.py', oldStr: 'x', newStr: 'y' }, 'o', false);
    const b = stepKey({ tool: 'edit', command: 'str_replace', path: 'a.py', oldStr: 'x', newStr: 'z' }, 'o', false);
    expect(a.action).not.toBe(b.action);
    expect(a.observation).toBe(b.observation);
  });
});

describe('boundReached', () => {
  const b = { maxSteps: 10, runStepsLeft: 100, maxMs: 1000, maxTokens: 500 };
  it('names the first bound reached, the run-wide steps before the trajectory-wide ones', () => {
    expect(boundReached({ steps: 9, ms: 999, tokens: 499 }, b)).toBeNull();
    expect(boundReached({ steps: 10, ms: 0, tokens: 0 }, b)?.reason).toBe('max_steps');
    expect(boundReached({ steps: 4, ms: 0, tokens: 0 }, { ...b, runStepsLeft: 4 })?.reason).toBe('max_run_steps');
    expect(boundReached({ steps: 0, ms: 1000, tokens: 0 }, b)?.reason).toBe('max_seconds');
    expect(boundReached({ steps: 0, ms: 0, tokens: 500 }, b)?.detail).toContain('agent.max_tokens');
  });
});

describe('the agent prompt', () => {
  const opts = { testCommand: 'npm test', commandTimeoutS: 60, native: true, toolsText: 'TOOLS-AS-TEXT', maxSteps: 7 };
  it('explains the tools, the shell, the bounds and the rules; the text protocol only without native tools', () => {
    const sys = agentSystemMessage(opts);
    expect(sys).toContain('fresh `sh`');
    expect(sys).toContain('after 60 s');
    expect(sys).toContain('`npm test`');
    expect(sys).toContain('at most 7 tool calls');
    expect(sys).not.toContain('TOOLS-AS-TEXT');
    expect(agentSystemMessage({ ...opts, native: false })).toContain('TOOLS-AS-TEXT');
  });

  it('puts the directive, tree and map first, then the last test run, the changes and where the loop stands', () => {
    const p = buildAgentPrompt(
      {
        directive: 'Fix total().',
        iteration: 2,
        maxIterations: 5,
        signal: 'last patch applied, tests still failing (exit 1)',
        diffSoFar: 'diff --git a/calc.py b/calc.py\n',
        lastTest: null,
        lastRejection: { patch: 'p', message: 'git said no' },
        tree: ['calc.py', 'test_calc.py'],
        context: { files: [], map: null, focus: [], wholeRepository: false, sourceFiles: 2 } as never,
        limits: {
          budget_chars: 48000,
          tree_max_entries: 400,
          file_max_bytes: 16000,
          map_chars: 6000,
          output_head_lines: 40,
          output_tail_lines: 80,
          output_failure_lines: 40,
          output_max_failures: 5,
        },
      },
      opts,
    );
    const user = p.messages[1].content;
    const order = [
      '# Directive',
      '# Files in the repository',
      '# Last test run',
      '# Changes so far',
      '# Iteration',
      '# Last rejected change',
    ];
    const at = order.map((h) => user.indexOf(h));
    expect(at.every((x) => x >= 0)).toBe(true);
    expect([...at].sort((x, y) => x - y)).toEqual(at);
    expect(user).toContain('Iteration 2 of 5');
    expect(p.chars).toBe(p.messages[0].content.length + user.length);
  });
});
