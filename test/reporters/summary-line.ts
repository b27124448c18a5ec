// Prints one closing line, "N passed, N failed, N skipped", that CI systems read.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      let failedHere = 0;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      // A file that failed without a failing test (it did not load, or a hook failed and its tests
      // were skipped) is a failure too.
      failed += failedHere > 0 ? failedHere : mod.state() === 'failed' ? 1 : 0;
    }
    failed += unhandledErrors.length;
    // the gVisor tests left out (make test GVISOR=0, or no runsc under GVISOR=auto) are named, not hidden
    const leftOut =
      (process.env['HAMMER_GVISOR'] === 'off'
        ? '; gVisor tests left out (the engine offers no runsc, or GVISOR=0)'
        : '') +
      (process.env['HAMMER_PODMAN'] === 'off' ? '; Podman test left out (Podman not installed, or PODMAN=0)' : '');
    process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${leftOut}\n`);
  }
}
