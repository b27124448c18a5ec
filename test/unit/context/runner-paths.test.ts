// A data-driven suite's runner: the path patterns its code builds, filled in with the failing data's names.
import { describe, expect, it } from 'vitest';
import { filesFromPatterns, runNames, runnerPatterns } from '../../../src/context/runner-paths.js';
import { indexTree } from '../../../src/context/tree-index.js';
import { treeOf } from './support.js';

describe('runnerPatterns', () => {
  it('reads concatenations, template literals and f-strings that build a path of source code', () => {
    const text = [
      "return fs.readFileSync(path.join(__dirname, '../../components', 'prism-' + name + '.js'), 'utf8');",
      'const file = `src/languages/${id}.js`;',
      'module = importlib.import_module(f"yamllint.rules.{rule}")',
      'path = os.path.join(RULES, f"{rule}_rule.py")',
      "const data = fs.readFileSync(dir + '/' + name + '.test');",
      "throw new Error(`Language '${id}' not found.`);",
    ].join('\n');
    expect(runnerPatterns(text)).toEqual([
      { dir: 'components', prefix: 'prism-', suffix: '.js' },
      { dir: 'src/languages', prefix: '', suffix: '.js' },
      { dir: '', prefix: '', suffix: '_rule.py' },
    ]);
  });
});

describe('filesFromPatterns and runNames', () => {
  const index = indexTree(
    treeOf({
      'components/prism-go.js': '',
      'components/prism-go.min.js': '',
      'components/prism-go-module.js': '',
      'components/prism-c.js': '',
      'plugins/prism-c.js': '',
      'tests/languages/go/issue3412.test': '',
    }),
  );
  it("names the component of a short language id in the pattern's directory, never a test or minified file", () => {
    const names = runNames([], ["Testing language 'go' › – should pass test case 'issue3412'"]);
    expect(names).toEqual(['go', 'issue3412']);
    const patterns = [{ dir: 'components', prefix: 'prism-', suffix: '.js' }];
    expect(filesFromPatterns(patterns, names, index)).toEqual([{ word: 'go', path: 'components/prism-go.js' }]);
    expect(filesFromPatterns(patterns, ['c'], index)).toEqual([{ word: 'c', path: 'components/prism-c.js' }]);
  });
  it('reads the names of a data file the failure names: its directories and its name', () => {
    expect(runNames(['tests/languages/go/issue3412.test'], [])).toEqual(['languages', 'go', 'issue3412']);
  });
});
