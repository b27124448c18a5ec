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
