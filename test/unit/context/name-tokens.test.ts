import { describe, expect, it } from 'vitest';
import {
  dataWords,
  filesNamedAfter,
  namedLike,
  titleMatch,
  titleWords,
  words,
} from '../../../src/context/name-tokens.js';
import { indexTree } from '../../../src/context/tree-index.js';
import { treeOf } from './support.js';

describe('words', () => {
  it('splits camelCase, snake_case, kebab-case and paths, lower-case and singular', () => {
    expect(words('parseInlineTables')).toEqual(['parse', 'inline', 'table']);
    expect(words('TestLexErrors/unterminated_raw_string')).toEqual([
      'test',
      'lex',
      'error',
      'unterminated',
      'raw',
      'string',
    ]);
    expect(words('HTTPServer-entries')).toEqual(['http', 'server', 'entry']);
    expect(words('class status')).toEqual(['class', 'status']);
  });
});

describe('namedLike', () => {
  const lexer = titleWords(['TestLexErrors/unterminated_raw_string']);
  it('finds the definition named most like the failing test', () => {
    expect(titleMatch('lexRawString', lexer)).toBe(3);
    expect(titleMatch('lexString', lexer)).toBe(2);
    expect(titleMatch('Lex', lexer)).toBe(0);
    expect(namedLike(['Lex', 'lexString', 'lexRawString', 'lexNumber'], lexer)).toEqual(['lexRawString']);
    expect(namedLike(['_handle_long_word', 'wrap'], titleWords(['test_wrap_breaks_long_words']))).toEqual([
      '_handle_long_word',
    ]);
    // a longer form of the title's word
    expect(namedLike(['_isPartiallyTyped'], titleWords(['should skip a partial check that is not typed']))).toEqual([
      '_isPartiallyTyped',
    ]);
  });
  it('finds nothing when many names match as well, or the title has one word', () => {
    const title = titleWords(['partialCheckAsync > should not run when a path has an issue']);
    const many = ['CheckAsyncIssue', 'ValueAsyncIssue', 'TrimAsyncIssue', 'UrlAsyncIssue', 'BrandAsyncIssue'];
    expect(namedLike(many, title)).toEqual([]);
    expect(namedLike(['read_port'], titleWords(['test_port']))).toEqual([]);
  });
});

describe('data-driven failures', () => {
  it("names the component after a data file's directory, or a title's quoted part", () => {
    expect(dataWords(['tests/languages/java/text_block_feature.test'], [])).toEqual(['java', 'text', 'block']);
    expect(dataWords([], ["Testing language 'kotlin' › should pass", 'test_functional[unused_argument]'])).toEqual([
      'kotlin',
      'unused',
      'argument',
    ]);
  });
  it('finds the few source files named after a word, not tests, minified files or many', () => {
    const index = indexTree(
      treeOf({
        'components/prism-java.js': '',
        'components/prism-java.min.js': '',
        'components/prism-javadoc.js': '',
        'components/prism-javascript.js': '',
        'tests/java/prism-java.test.js': '',
        'src/a/util.js': '',
        'src/b/util.js': '',
        'src/c/util.js': '',
        'src/d/util.js': '',
      }),
    );
    expect(filesNamedAfter(['java', 'util', 'kotlin'], index)).toEqual([
      { word: 'java', paths: ['components/prism-java.js'] },
    ]);
  });
});
