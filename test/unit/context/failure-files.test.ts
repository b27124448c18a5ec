import { describe, expect, it } from 'vitest';
import { failureFiles, readFailureReport } from '../../../src/context/index.js';
import { indexTree } from '../../../src/context/tree-index.js';
import { treeOf } from './support.js';

const index = indexTree(
  treeOf({
    'go.mod': '',
    'mathx/abs.go': '',
    'mathx/abs_test.go': '',
    'services/api/handler/handler_test.go': '',
    'services/web/handler/handler_test.go': '',
    'services/billing/tests/test_tax.py': '',
    'tests/test_spans.py': '',
    'root_test.go': '',
    'other/root_test.go': '',
  }),
);

describe('failureFiles', () => {
  it("resolves Go's package-relative file against the package directory", () => {
    const out = '--- FAIL: TestAbs (0.00s)\n    abs_test.go:7: want 1\nFAIL\texample.com/m/mathx\t0.002s\n';
    expect(failureFiles(readFailureReport(out), index)).toMatchObject([{ path: 'mathx/abs_test.go', lines: [7] }]);
  });

  it('picks the package whose import path ends with the directory when two files share a name', () => {
    const out =
      '--- FAIL: TestRoute (0.00s)\n    handler_test.go:7: Route = "/USERS"\nFAIL\nFAIL\texample.com/api/handler\t0.003s\n';
    expect(failureFiles(readFailureReport(out), index).map((f) => f.path)).toEqual([
      'services/api/handler/handler_test.go',
    ]);
    const web = '--- FAIL: TestRoute (0.00s)\n    handler_test.go:7: x\nFAIL\nFAIL\texample.com/web/handler\t0.003s\n';
    expect(failureFiles(readFailureReport(web), index).map((f) => f.path)).toEqual([
      'services/web/handler/handler_test.go',
    ]);
  });

  it('takes the root package for a module-root test file', () => {
    const out = '    root_test.go:3: x\nFAIL\texample.com/m\t0.003s\n';
    expect(failureFiles(readFailureReport(out), index).map((f) => f.path)).toEqual(['root_test.go']);
  });

  it('resolves a path relative to a monorepo subfolder by its unique ending', () => {
    const out = 'tests/test_tax.py:5: AssertionError\n';
    expect(failureFiles(readFailureReport(out), index)).toEqual([
      { path: 'services/billing/tests/test_tax.py', lines: [5], order: 0 },
    ]);
  });

  it('finds the module of a unittest id', () => {
    const out =
      '======================================================================\nFAIL: test_days (tests.test_spans.SpanTest.test_days)\n----------------------------------------------------------------------\nAssertionError\n\n----------------------------------------------------------------------\nRan 1 test in 0.001s\n\nFAILED (failures=1)\n';
    expect(failureFiles(readFailureReport(out), index).map((f) => f.path)).toEqual(['tests/test_spans.py']);
  });
});
