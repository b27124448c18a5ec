// The user's terminal: with stdout and stderr on a real (pseudo-)terminal, hammer-box draws a live
// status line and shows the run's change in colour. Escape sequences, C1 controls and bidi overrides
// from the tests' output and the model's answers must still never reach it; the only control
// sequences on the screen are the renderer's own line erase and its own colours (SGR of its palette).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshotRepo } from '../helpers/fixture-repo.js';
import { answerWith, FIX_PATCH } from '../helpers/python-fixture.js';
import { attackScript, EVIL_PRINTF, EVIL_PROSE, RAW_CONTROL, SWITCH_ANSWER } from './support/attack-script.js';
import { runCliOnTerminal } from './support/cli.js';
import { attack } from './support/record.js';
import { expectCanarySafe, outcomeOf } from './support/scene.js';
import { attackFileHooks } from './support/hooks.js';

const { scene } = attackFileHooks();

/** The renderer's own sequence: carriage return, erase the line. */
const OWN_ERASE = /\r\u001b\[2K/g;
/** hammer-box's own colours (src/cli/chat/style.ts): bold, dim, red, green, yellow, magenta, cyan and their ends. */
const OWN_COLOUR = /\u001b\[(?:1|2|22|31|32|33|35|36|39)m/g;

describe('the terminal', () => {
  it('escape sequences from the tests and the model never reach a terminal; the live status line does', async () => {
    const s = await scene({
      files: {
        'attack.sh': attackScript(
          `printf '${EVIL_PRINTF}\\n'; printf '${EVIL_PRINTF}' >&2; exit 1`,
          // the control's summary line is one a runner prints: an exit 0 with nothing readable is unread, not a pass
          `printf '${EVIL_PRINTF}\\n'; echo control-printed; echo '==== 1 passed in 0.01s ===='`,
        ),
      },
      answers: [
        { answer: answerWith('--- a/x\u001b[2J.py\n+++ b/x\u001b[2J.py\n@@ -1 +1 @@\n-a\n+b\n', EVIL_PROSE) },
        { answer: `${EVIL_PROSE}\n${SWITCH_ANSWER}` },
      ],
      testCommand: 'sh attack.sh',
      maxIterations: 2,
    });
    const term = await runCliOnTerminal(s.args, s.env);
    const out = await outcomeOf(s, { code: term.code, signal: null, stdout: term.screen, stderr: '', peakRss: 0 });
    await attack(
      'escape sequences on a terminal (TTY)',
      'only the status line erase reaches the terminal; run stable',
      async () => {
        expect(term.code, term.screen.slice(-800)).toBe(0);
        // control: this was a terminal (the live status line drew and erased itself) and the run went on
        const erases = term.screen.match(OWN_ERASE)?.length ?? 0;
        expect(erases, 'the live status line was drawn').toBeGreaterThan(0);
        const rest = term.screen.replace(OWN_ERASE, '').replace(OWN_COLOUR, '');
        expect(RAW_CONTROL.exec(rest)?.[0], 'a raw escape, C1 or bidi character reached the terminal').toBeUndefined();
        // the hostile file name did reach the terminal, shown as text rather than obeyed
        expect(rest).toContain('iteration 1: unusable - no usable diff: "x\\u001b[2J.py"');
        expect(out.state.status).toBe('stable');
        expect(out.state.baseline?.stdout_tail).toContain('RED');
        await expectCanarySafe(s, out);
        return `${erases} status-line erases, no other control sequence in ${term.screen.length} bytes of terminal output; stable`;
      },
    );
  });

  it('a base branch name with C1 controls and a bidi override reaches the terminal escaped, in the header and the next commands', async () => {
    const s = await scene({ answers: [{ answer: answerWith(FIX_PATCH) }] });
    // U+061C (a bidi mark) and U+3164 (a blank filler) are found by Unicode property, like U+202E
    const hostile = 'main\u009b2J\u0085\u202egnp\u061c\u3164.exe';
    await s.fx.repo.git(['branch', '-m', hostile]);
    s.before = await snapshotRepo(s.fx.repo.path);
    const term = await runCliOnTerminal(s.args, s.env);
    const out = await outcomeOf(s, { code: term.code, signal: null, stdout: term.screen, stderr: '', peakRss: 0 });
    await attack(
      'a base branch name with C1 controls, a bidi override, U+061C and U+3164',
      'the run header and the suggested commands show it escaped; the fix lands',
      async () => {
        expect(term.code, term.screen.slice(-800)).toBe(0);
        const rest = term.screen.replace(OWN_ERASE, '').replace(OWN_COLOUR, '');
        expect(RAW_CONTROL.exec(rest)?.[0], 'a raw C1 or bidi character reached the terminal').toBeUndefined();
        expect(out.state.repo.base_ref).toBe(hostile);
        expect(rest).toContain('<U+202E>gnp<U+061C><U+3164>.exe)');
        expect(rest).toContain("--base $'main\\u009b2J\\u0085\\u202egnp\\u061c\\u3164.exe'");
        // the state keeps the name itself (a resume needs it) and no other raw copy; the summary none
        const stateText = await readFile(join(s.fx.repo.path, '.hammer', 'runs', `${out.runId}.json`), 'utf8');
        expect(RAW_CONTROL.exec(stateText.split(hostile).join(''))?.[0], 'the state').toBeUndefined();
        expect(RAW_CONTROL.exec(out.summary)?.[0], 'PR_SUMMARY.md').toBeUndefined();
        expect(out.summary).toContain('<U+061C>');
        expect(out.state.status).toBe('stable');
        await expectCanarySafe(s, out);
        return 'header and next commands escaped; stable';
      },
    );
  });
});
