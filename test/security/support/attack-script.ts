// A repository test script with two modes: the attack runs at baseline; the model's first patch
// switches it to the control, which runs as the next iteration's test in the same sandbox. So each
// attack is paired with a control that must work right after it.
import { answerWith } from '../../helpers/python-fixture.js';

/** attack.sh: `mode=attack` on line 1, the attack and the control as the two branches. */
export function attackScript(attack: string, control: string): string {
  return `mode=attack\n# hostile test script: the model's patch switches it to the control\nif [ "$mode" = attack ]; then\n${attack}\nelse\n${control}\nfi\n`;
}

/** The patch that switches attack.sh to its control. */
export const SWITCH_PATCH = `diff --git a/attack.sh b/attack.sh
--- a/attack.sh
+++ b/attack.sh
@@ -1,2 +1,2 @@
-mode=attack
+mode=control
 # hostile test script: the model's patch switches it to the control
`;

/** A model answer carrying SWITCH_PATCH. */
export const SWITCH_ANSWER = answerWith(SWITCH_PATCH, 'Switching the script to its normal mode:');

/** printf text (octal escapes) with a window title, clear screen, colours, a C1 CSI, a bidi override and a hyperlink. */
export const EVIL_PRINTF = `\\033]0;pwned\\007\\033[2J\\033[31mRED\\033[0m \\302\\233[1m C1-CSI \\342\\200\\256RTL-OVERRIDE \\033]8;;http://evil\\007link\\033]8;;\\007`;

/** Model prose with a title, clear screen, a C1 CSI and a bidi override. */
export const EVIL_PROSE = '\u001b]0;owned\u0007\u001b[2J\u009b31m\u202eevil prose\u001b[0m';

/**
 * ESC, BEL, C1 controls, and every bidi control and default-ignorable character (by Unicode property,
 * U+061C among them): none may reach the terminal, the state or PR_SUMMARY.md raw.
 */
export const RAW_CONTROL = /[\u001b\u0007\u0080-\u009f\p{Bidi_Control}\p{Default_Ignorable_Code_Point}]/u;
