// Cases shaped after real fixes the first prompt missed because the code to change is several calls
// from the failing test: a package-level function into a deep method (`sqlparse.split` → FilterStack.run
// → StatementSplitter.process), a Go package's `Decode` into its lexer, a Go test under test/issues/
// reaching the checker through the root package, and a derive macro's helper in a sub-crate whose
// runtime crate has a file of the same name.
import { goFuncs, pyHelpers, pyMethods, rustFns, snakeName } from './code.js';
import { noise, type ContextCase } from './shapes.js';

const PY_NOISE = noise('python', 'legacy', 24);
const GO_NOISE = noise('go', 'internal/legacy', 24);
const RS_NOISE = noise('rust', 'crates/legacy/src', 24);

// ---------------------------------------------------------------------------------------------------
// Python: a SQL splitter. The test calls sqlparse.split, a three-line function of the package's
// __init__; the statement splitter it reaches through the engine's FilterStack holds the fix.

const SQLPARSE_INIT = `"""Parse SQL statements."""

# Setup namespace
from sqlparse import sql
from sqlparse import cli
from sqlparse import engine
from sqlparse import tokens
from sqlparse import filters
from sqlparse import formatter


__version__ = '0.5.1'
__all__ = ['engine', 'filters', 'formatter', 'sql', 'tokens', 'cli']


def parse(sql, encoding=None):
    """Parse sql and return a list of statements.

    :param sql: A string containing one or more SQL statements.
    :param encoding: The encoding of the statement (optional).
    :returns: A tuple of :class:\`~sqlparse.sql.Statement\` instances.
    """
    return tuple(parsestream(sql, encoding))


def parsestream(stream, encoding=None):
    """Parses sql statements from file-like object.

    :param stream: A file-like object.
    :param encoding: The encoding of the stream contents (optional).
    :returns: A generator of :class:\`~sqlparse.sql.Statement\` instances.
    """
    stack = engine.FilterStack()
    stack.enable_grouping()
    return stack.run(stream, encoding)


def format(sql, encoding=None, **options):
    """Format *sql* according to *options*.

    Available options are documented in :ref:\`formatting\`.

    In addition to the formatting options this function accepts the
    keyword "encoding" which determines the encoding of the statement.

    :returns: The formatted SQL statement as string.
    """
    stack = engine.FilterStack()
    options = formatter.validate_options(options)
    stack = formatter.build_filter_stack(stack, options)
    stack.postprocess.append(filters.SerializerUnicode())
    return ''.join(stack.run(sql, encoding))


def split(sql, encoding=None, strip_semicolon=False):
    """Split *sql* into single statements.

    :param sql: A string containing one or more SQL statements.
    :param encoding: The encoding of the statement (optional).
    :param strip_semicolon: If True, remove trainling semicolons
        (default: False).
    :returns: A list of strings.
    """
    stack = engine.FilterStack(strip_semicolon=strip_semicolon)
    return [str(stmt).strip() for stmt in stack.run(sql, encoding)]
`;

const SQLPARSE_ENGINE_INIT = `from sqlparse.engine import grouping
from sqlparse.engine.filter_stack import FilterStack
from sqlparse.engine.statement_splitter import StatementSplitter

__all__ = [
    'grouping',
    'FilterStack',
    'StatementSplitter',
]
`;

const SQLPARSE_FILTER_STACK = `"""filter"""

from sqlparse import lexer
from sqlparse.engine import grouping
from sqlparse.engine.statement_splitter import StatementSplitter
from sqlparse.filters import StripTrailingSemicolonFilter


class FilterStack:
    def __init__(self, strip_semicolon=False):
        self.preprocess = []
        self.stmtprocess = []
        self.postprocess = []
        self._grouping = False
        if strip_semicolon:
            self.stmtprocess.append(StripTrailingSemicolonFilter())

    def enable_grouping(self):
        self._grouping = True

    def run(self, sql, encoding=None):
        stream = lexer.tokenize(sql, encoding)
        # Process token stream
        for filter_ in self.preprocess:
            stream = filter_.process(stream)

        stream = StatementSplitter().process(stream)

        # Output: Stream processed Statements
        for stmt in stream:
            if self._grouping:
                stmt = grouping.group(stmt)

            for filter_ in self.stmtprocess:
                filter_.process(stmt)

            for filter_ in self.postprocess:
                stmt = filter_.process(stmt)

            yield stmt
`;

const SQLPARSE_SPLITTER = `from sqlparse import sql, tokens as T


class StatementSplitter:
    """Filter that split stream at individual statements"""

    def __init__(self):
        self._reset()

    def _reset(self):
        """Set the filter attributes to its default values"""
        self._in_declare = False
        self._in_case = False
        self._is_create = False
        self._begin_depth = 0
        self._seen_begin = False

        self.consume_ws = False
        self.tokens = []
        self.level = 0

    def _change_splitlevel(self, ttype, value):
        """Get the new split level (increase, decrease or remain equal)"""
        # parenthesis increase/decrease a level
        if ttype is T.Punctuation and value == '(':
            return 1
        elif ttype is T.Punctuation and value == ')':
            return -1
        elif ttype not in T.Keyword:  # if normal token return
            return 0

        # Everything after here is ttype = T.Keyword
        # Also to note, once entered an If statement you are done and basically
        # returning
        unified = value.upper()

        # three keywords begin with CREATE, but only one of them is DDL
        # DDL Create though can contain more words such as "or replace"
        if ttype is T.Keyword.DDL and unified.startswith('CREATE'):
            self._is_create = True
            return 0

        # can have nested declare inside of being...
        if unified == 'DECLARE' and self._is_create and self._begin_depth == 0:
            self._in_declare = True
            return 1

        if unified == 'BEGIN':
            self._begin_depth += 1
            self._seen_begin = True
            if self._is_create:
                # FIXME(andi): This makes no sense.  ## this comment neither
                return 1
            return 0

        # BEGIN and CASE/WHEN both end with END
        if unified == 'END':
            if not self._in_case:
                self._begin_depth = max(0, self._begin_depth - 1)
            else:
                self._in_case = False
            return -1

        if (unified in ('IF', 'FOR', 'WHILE', 'CASE')
                and self._is_create and self._begin_depth > 0):
            if unified == 'CASE':
                self._in_case = True
            return 1

        if unified in ('END IF', 'END FOR', 'END WHILE'):
            return -1

        # Default
        return 0

    def process(self, stream):
        """Process the stream"""
        EOS_TTYPE = T.Whitespace, T.Comment.Single

        # Run over all stream tokens
        for ttype, value in stream:
            # Yield token if we finished a statement and there's no whitespaces
            # It will count newline token as a non whitespace. In this context
            # whitespace ignores newlines.
            # why don't multi line comments also count?
            if self.consume_ws and ttype not in EOS_TTYPE:
                yield sql.Statement(self.tokens)

                # Reset filter and prepare to process next statement
                self._reset()

            # Change current split level (increase, decrease or remain equal)
            self.level += self._change_splitlevel(ttype, value)

            # Append the token to the current statement
            self.tokens.append(sql.Token(ttype, value))

            # Check if we get the end of a statement
            # Issue762: Allow GO (or "GO 2") as statement splitter.
            # When implementing a language toggle, it's not only to add
            # keywords it's also to change some rules, like this splitting
            # rule.
            if (self.level <= 0 and ttype is T.Punctuation and value == ';') \\
                    or (ttype is T.Keyword and value.split()[0] == 'GO'):
                self.consume_ws = True

        # Yield pending statement (if any)
        if self.tokens and not all(t.is_whitespace for t in self.tokens):
            yield sql.Statement(self.tokens)
`;

const SQLPARSE_LEXER = `"""SQL Lexer"""
import re
from threading import Lock

# This code is based on the SqlLexer in pygments.
# http://pygments.org/
# It's separated from the rest of pygments to increase performance
# and to allow some customizations.

from io import TextIOBase

from sqlparse import tokens, keywords
from sqlparse.utils import consume


class Lexer:
    """The Lexer supports configurable syntax.
    To add support for additional keywords, use the \`add_keywords\` method."""

    _default_instance = None
    _lock = Lock()

    # Development notes:
    # - This class is prepared to be able to support additional SQL dialects
    #   in the future by adding additional functions that take the place of
    #   the function default_initialization().
    @classmethod
    def get_default_instance(cls):
        """Returns the lexer instance used internally
        by the sqlparse core functions."""
        with cls._lock:
            if cls._default_instance is None:
                cls._default_instance = cls()
                cls._default_instance.default_initialization()
        return cls._default_instance

    def default_initialization(self):
        """Initialize the lexer with default dictionaries.
        Useful if you need to revert custom syntax settings."""
        self.clear()
        self.set_SQL_REGEX(keywords.SQL_REGEX)
        self.add_keywords(keywords.KEYWORDS_COMMON)
        self.add_keywords(keywords.KEYWORDS_ORACLE)
        self.add_keywords(keywords.KEYWORDS_MYSQL)
        self.add_keywords(keywords.KEYWORDS_PLPGSQL)
        self.add_keywords(keywords.KEYWORDS)

    def clear(self):
        """Clear all syntax configurations.
        Useful if you want to load a reduced set of syntax configurations.
        After this call, regexps and keyword dictionaries need to be loaded
        to make the lexer functional again."""
        self._SQL_REGEX = []
        self._keywords = []

    def set_SQL_REGEX(self, SQL_REGEX):
        """Set the list of regex that will parse the SQL."""
        FLAGS = re.IGNORECASE | re.UNICODE
        self._SQL_REGEX = [
            (re.compile(rx, FLAGS).match, tt)
            for rx, tt in SQL_REGEX
        ]

    def add_keywords(self, keywords):
        """Add keyword dictionaries. Keywords are looked up in the same order
        that dictionaries were added."""
        self._keywords.append(keywords)

    def is_keyword(self, value):
        """Checks for a keyword.

        If the given value is in one of the KEYWORDS_* dictionary
        it's considered a keyword. Otherwise, tokens.Name is returned.
        """
        val = value.upper()
        for kwdict in self._keywords:
            if val in kwdict:
                return kwdict[val], value
        else:
            return tokens.Name, value

    def get_tokens(self, text, encoding=None):
        """
        Return an iterable of (tokentype, value) pairs generated from
        \`text\`. If \`unfiltered\` is set to \`True\`, the filtering mechanism
        is bypassed even if filters are defined.

        Also preprocess the text, i.e. expand tabs and strip it if
        wanted and applies registered filters.

        Split \`\`text\`\` into (tokentype, text) pairs.

        \`\`stack\`\` is the initial stack (default: \`\`['root']\`\`)
        """
        if isinstance(text, TextIOBase):
            text = text.read()

        if isinstance(text, str):
            pass
        elif isinstance(text, bytes):
            if encoding:
                text = text.decode(encoding)
            else:
                try:
                    text = text.decode('utf-8')
                except UnicodeDecodeError:
                    text = text.decode('unicode-escape')
        else:
            raise TypeError("Expected text or file-like object, got {!r}".
                            format(type(text)))

        iterable = enumerate(text)
        for pos, char in iterable:
            for rexmatch, action in self._SQL_REGEX:
                m = rexmatch(text, pos)

                if not m:
                    continue
                elif isinstance(action, tokens._TokenType):
                    yield action, m.group()
                elif action is keywords.PROCESS_AS_KEYWORD:
                    yield self.is_keyword(m.group())

                consume(iterable, m.end() - pos - 1)
                break
            else:
                yield tokens.Error, char


def tokenize(sql, encoding=None):
    """Tokenize sql.

    Tokenize *sql* using the :class:\`Lexer\` and return a 2-tuple stream
    of \`\`(token type, value)\`\` items.
    """
    return Lexer.get_default_instance().get_tokens(sql, encoding)
`;

/** A module of keyword tables as long as sqlparse's (about 1,000 lines). */
function keywordsModule(): string {
  const words = Array.from({ length: 900 }, (_, i) => `    '${snakeName(i).toUpperCase()}': tokens.Keyword,`);
  return `from sqlparse import tokens

# object() only supports "is" and is useful as a marker
# use this marker to specify that the given regex in SQL_REGEX
# shall be processed further through a lookup in the KEYWORDS dictionaries
PROCESS_AS_KEYWORD = object()


SQL_REGEX = [
    (r'(--|# )\\+.*?(\\r\\n|\\r|\\n|$)', tokens.Comment.Single.Hint),
    (r'/\\*\\+[\\s\\S]*?\\*/', tokens.Comment.Multiline.Hint),
    (r'(--|# ).*?(\\r\\n|\\r|\\n|$)', tokens.Comment.Single),
    (r'/\\*[\\s\\S]*?\\*/', tokens.Comment.Multiline),
    (r'(\\r\\n|\\r|\\n)', tokens.Newline),
    (r'\\s+?', tokens.Whitespace),
    (r':=', tokens.Assignment),
    (r'::', tokens.Punctuation),
    (r'\\*', tokens.Wildcard),
    (r"'(''|\\\\'|[^'])*'", tokens.String.Single),
    (r'[;:()\\[\\],\\.]', tokens.Punctuation),
    (r'[<>=~!]+', tokens.Operator.Comparison),
    (r'[+/@#%^&|^-]+', tokens.Operator),
    (r'\\w[$#\\w]*', PROCESS_AS_KEYWORD),
]

KEYWORDS = {
${words.slice(0, 500).join('\n')}
}

KEYWORDS_COMMON = {
    'SELECT': tokens.Keyword.DML,
    'INSERT': tokens.Keyword.DML,
    'DELETE': tokens.Keyword.DML,
    'UPDATE': tokens.Keyword.DML,
    'CREATE': tokens.Keyword.DDL,
    'DROP': tokens.Keyword.DDL,
    'BEGIN': tokens.Keyword,
    'END': tokens.Keyword,
    'TRANSACTION': tokens.Keyword,
${words.slice(500, 700).join('\n')}
}

KEYWORDS_ORACLE = {
${words.slice(700, 800).join('\n')}
}

KEYWORDS_MYSQL = {
${words.slice(800, 850).join('\n')}
}

KEYWORDS_PLPGSQL = {
${words.slice(850).join('\n')}
}
`;
}

/** sql.py's token classes: long, with many small methods. */
function sqlModule(): string {
  return `"""This module contains classes representing syntactical elements of SQL."""

import re

from sqlparse import tokens as T
from sqlparse.exceptions import SQLParseError
from sqlparse.utils import imt, remove_quotes


class Token:
    """Base class for all other classes in this module.

    It represents a single token and has two instance attributes:
    \`\`value\`\` is the unchanged value of the token and \`\`ttype\`\` is
    the type of the token.
    """

    __slots__ = ('value', 'ttype', 'parent', 'normalized', 'is_keyword',
                 'is_group', 'is_whitespace', 'is_newline')

    def __init__(self, ttype, value):
        value = str(value)
        self.value = value
        self.ttype = ttype
        self.parent = None
        self.is_group = False
        self.is_keyword = ttype in T.Keyword
        self.is_whitespace = self.ttype in T.Whitespace
        self.is_newline = self.ttype in T.Newline
        self.normalized = value.upper() if self.is_keyword else value

    def __str__(self):
        return self.value

    def flatten(self):
        """Resolve subgroups."""
        yield self

    def match(self, ttype, values, regex=False):
        """Checks whether the token matches the given arguments."""
        if not imt(self, t=ttype):
            return False
        if values is None:
            return True
        if isinstance(values, str):
            values = (values,)
        if regex:
            flag = re.IGNORECASE if self.is_keyword else 0
            values = (re.compile(v, flag) for v in values)
            return any(pattern.search(self.normalized) for pattern in values)
        return self.normalized in values

${pyMethods(20, 3000)}

class TokenList(Token):
    """A group of tokens."""

    __slots__ = 'tokens'

    def __init__(self, tokens=None):
        self.tokens = tokens or []
        [setattr(token, 'parent', self) for token in self.tokens]
        super().__init__(None, str(self))
        self.is_group = True

    def __str__(self):
        return ''.join(token.value for token in self.flatten())

    def flatten(self):
        """Generator yielding ungrouped tokens."""
        for token in self.tokens:
            if token.is_group:
                yield from token.flatten()
            else:
                yield token

${pyMethods(40, 3020)}

class Statement(TokenList):
    """Represents a SQL statement."""

    def get_type(self):
        """Returns the type of a statement."""
        token = self.token_first(skip_cm=True)
        if token is None:
            return 'UNKNOWN'
        elif token.ttype in (T.Keyword.DML, T.Keyword.DDL):
            return token.normalized
        return 'UNKNOWN'


class Identifier(TokenList):
    """Represents an identifier."""


class Parenthesis(TokenList):
    """Tokens between parenthesis."""
    M_OPEN = T.Punctuation, '('
    M_CLOSE = T.Punctuation, ')'


class Begin(TokenList):
    """A BEGIN/END block."""
    M_OPEN = T.Keyword, 'BEGIN'
    M_CLOSE = T.Keyword, 'END'
`;
}

/** A filter module: classes with a process method each, as sqlparse's filters are. */
function filterModule(names: string[], from: number): string {
  return `from sqlparse import sql, tokens as T
from sqlparse.utils import split_unquoted_newlines


${names
  .map(
    (n, k) => `class ${n}:
    def __init__(self, width=${2 + k}):
        self.width = width
        self._last = None

    def process(self, stmt):
        for token in stmt.tokens:
            if token.ttype in T.Whitespace:
                token.value = ' ' * self.width
        return stmt

${pyMethods(6, from + 6 * k)}`,
  )
  .join('\n')}`;
}

const SQLPARSE_TEST_SPLIT = `# Tests splitting functions.

import types
from io import StringIO

import pytest

import sqlparse


def test_split_semicolon():
    sql1 = 'select * from foo;'
    sql2 = "select * from foo where bar = 'foo;bar';"
    stmts = sqlparse.parse(''.join([sql1, sql2]))
    assert len(stmts) == 2
    assert str(stmts[0]) == sql1
    assert str(stmts[1]) == sql2


def test_split_backslash():
    stmts = sqlparse.parse("select '\\\\'; select '\\\\'';")
    assert len(stmts) == 2


@pytest.mark.parametrize('fn', ['function.sql',
                                'function_psql.sql',
                                'function_psql2.sql',
                                'function_psql3.sql',
                                'function_psql4.sql'])
def test_split_create_function(load_file, fn):
    sql = load_file(fn)
    stmts = sqlparse.parse(sql)
    assert len(stmts) == 1
    assert str(stmts[0]) == sql


def test_split_dashcomments(load_file):
    sql = load_file('dashcomment.sql')
    stmts = sqlparse.parse(sql)
    assert len(stmts) == 3
    assert ''.join(str(q) for q in stmts) == sql


def test_split_begintag(load_file):
    sql = load_file('begintag.sql')
    stmts = sqlparse.parse(sql)
    assert len(stmts) == 3
    assert ''.join(str(q) for q in stmts) == sql


def test_split_if_function():  # see issue 33
    # don't let IF as a function confuse the splitter
    sql = ('CREATE TEMPORARY TABLE tmp '
           'SELECT IF(a=1, a, b) AS o FROM one; '
           'SELECT t FROM two')
    stmts = sqlparse.split(sql)
    assert len(stmts) == 2


def test_split_stream():
    stream = StringIO("SELECT 1; SELECT 2;")
    stmts = sqlparse.parsestream(stream)
    assert isinstance(stmts, types.GeneratorType)
    assert len(list(stmts)) == 2


def test_split_transaction_after_begin():  # issue826
    sql = ('BEGIN TRANSACTION;\\n'
           'UPDATE accounts SET balance = balance - 10 WHERE id = 1;\\n'
           'COMMIT;')
    stmts = sqlparse.split(sql)
    assert [s.split()[0] for s in stmts] == ['BEGIN', 'UPDATE', 'COMMIT']


def test_split_strip_semicolon():
    stmts = sqlparse.split('select * from foo; select * from bar;', strip_semicolon=True)
    assert stmts == ['select * from foo', 'select * from bar']
`;

const SQLPARSE_CONFTEST = `"""Helpers for testing."""

import io
import os

import pytest

DIR_PATH = os.path.dirname(__file__)
FILES_DIR = os.path.join(DIR_PATH, 'files')


@pytest.fixture()
def filepath():
    """Returns full file path for test files."""

    def make_filepath(filename):
        # http://stackoverflow.com/questions/18011902/parameter-to-a-fixture
        # Alternate solution is to use parametrization \`indirect=True\`
        # http://stackoverflow.com/a/33879151
        # Syntax is noisy and requires specific variable names
        return os.path.join(FILES_DIR, filename)

    return make_filepath


@pytest.fixture()
def load_file(filepath):
    """Opens filename with encoding and return its contents."""

    def make_load_file(filename, encoding='utf-8'):
        # http://stackoverflow.com/questions/18011902/parameter-to-a-fixture
        # Alternate solution is to use parametrization \`indirect=True\`
        # http://stackoverflow.com/a/33879151
        # Syntax is noisy and requires specific variable names
        # And seems to be limited to only 1 argument.
        with open(filepath(filename), encoding=encoding) as f:
            return f.read().strip()

    return make_load_file
`;

function sqlparseFiles(): Record<string, string> {
  return {
    ...PY_NOISE,
    'pyproject.toml': '[project]\nname = "sqlparse"\ndynamic = ["version"]\n',
    'sqlparse/__init__.py': SQLPARSE_INIT,
    'sqlparse/__main__.py':
      'import sys\n\nfrom sqlparse.cli import main\n\nif __name__ == "__main__":\n    sys.exit(main())\n',
    'sqlparse/cli.py': `"""Module that contains the command line app."""\nimport argparse\nimport sys\n\nimport sqlparse\nfrom sqlparse.exceptions import SQLParseError\n\n\ndef create_parser():\n    parser = argparse.ArgumentParser(prog='sqlformat')\n    parser.add_argument('filename')\n    return parser\n\n\ndef main(args=None):\n    parser = create_parser()\n    args = parser.parse_args(args)\n    data = sys.stdin.read() if args.filename == '-' else open(args.filename).read()\n    sys.stdout.write(sqlparse.format(data))\n    return 0\n\n\n${pyHelpers(20, 3400)}`,
    'sqlparse/engine/__init__.py': SQLPARSE_ENGINE_INIT,
    'sqlparse/engine/filter_stack.py': SQLPARSE_FILTER_STACK,
    'sqlparse/engine/statement_splitter.py': SQLPARSE_SPLITTER,
    'sqlparse/engine/grouping.py': `from sqlparse import sql\nfrom sqlparse import tokens as T\nfrom sqlparse.utils import recurse, imt\n\n\ndef group(stmt):\n    for func in [group_parenthesis, group_begin]:\n        func(stmt)\n    return stmt\n\n\ndef group_parenthesis(tlist):\n    return tlist\n\n\ndef group_begin(tlist):\n    return tlist\n\n\n${pyHelpers(45, 3500)}`,
    'sqlparse/exceptions.py':
      '"""Exceptions used in this package."""\n\n\nclass SQLParseError(Exception):\n    """Base class for exceptions in this module."""\n',
    'sqlparse/filters/__init__.py':
      "from sqlparse.filters.others import SerializerUnicode\nfrom sqlparse.filters.others import StripCommentsFilter\nfrom sqlparse.filters.others import StripWhitespaceFilter\nfrom sqlparse.filters.others import StripTrailingSemicolonFilter\nfrom sqlparse.filters.others import SpacesAroundOperatorsFilter\n\nfrom sqlparse.filters.output import OutputPHPFilter\nfrom sqlparse.filters.output import OutputPythonFilter\n\nfrom sqlparse.filters.tokens import KeywordCaseFilter\nfrom sqlparse.filters.tokens import IdentifierCaseFilter\nfrom sqlparse.filters.tokens import TruncateStringFilter\n\nfrom sqlparse.filters.reindent import ReindentFilter\nfrom sqlparse.filters.right_margin import RightMarginFilter\nfrom sqlparse.filters.aligned_indent import AlignedIndentFilter\n\n__all__ = [\n    'SerializerUnicode',\n    'StripCommentsFilter',\n    'StripWhitespaceFilter',\n    'StripTrailingSemicolonFilter',\n    'SpacesAroundOperatorsFilter',\n    'OutputPHPFilter',\n    'OutputPythonFilter',\n    'KeywordCaseFilter',\n    'IdentifierCaseFilter',\n    'TruncateStringFilter',\n    'ReindentFilter',\n    'RightMarginFilter',\n    'AlignedIndentFilter',\n]\n",
    'sqlparse/filters/others.py': filterModule(
      [
        'SerializerUnicode',
        'StripCommentsFilter',
        'StripWhitespaceFilter',
        'StripTrailingSemicolonFilter',
        'SpacesAroundOperatorsFilter',
      ],
      3600,
    ),
    'sqlparse/filters/output.py': filterModule(['OutputFilter', 'OutputPHPFilter', 'OutputPythonFilter'], 3640),
    'sqlparse/filters/tokens.py': filterModule(
      ['_CaseFilter', 'KeywordCaseFilter', 'IdentifierCaseFilter', 'TruncateStringFilter'],
      3670,
    ),
    'sqlparse/filters/reindent.py': filterModule(['ReindentFilter'], 3700),
    'sqlparse/filters/right_margin.py': filterModule(['RightMarginFilter'], 3710),
    'sqlparse/filters/aligned_indent.py': filterModule(['AlignedIndentFilter'], 3720),
    'sqlparse/formatter.py': `"""SQL formatter"""\n\nfrom sqlparse import filters\nfrom sqlparse.exceptions import SQLParseError\n\n\ndef validate_options(options):\n    """Validates options."""\n    return dict(options)\n\n\ndef build_filter_stack(stack, options):\n    """Setup and return a filter stack."""\n    if options.get('strip_comments'):\n        stack.stmtprocess.append(filters.StripCommentsFilter())\n    return stack\n\n\n${pyHelpers(25, 3750)}`,
    'sqlparse/keywords.py': keywordsModule(),
    'sqlparse/lexer.py': SQLPARSE_LEXER,
    'sqlparse/sql.py': sqlModule(),
    'sqlparse/tokens.py': `"""Token types."""\n\n\nclass _TokenType(tuple):\n    parent = None\n\n    def __contains__(self, item):\n        return item is not None and (self is item or item[:len(self)] == self)\n\n    def __getattr__(self, name):\n        new = _TokenType(self + (name,))\n        setattr(self, name, new)\n        new.parent = self\n        return new\n\n\nToken = _TokenType()\n\nText = Token.Text\nWhitespace = Text.Whitespace\nNewline = Whitespace.Newline\nError = Token.Error\nKeyword = Token.Keyword\nName = Token.Name\nPunctuation = Token.Punctuation\nComment = Token.Comment\n`,
    'sqlparse/utils.py': `import itertools\nimport re\nfrom collections import deque\nfrom contextlib import contextmanager\n\n\ndef consume(iterator, n):\n    """Advance the iterator n-steps ahead. If n is none, consume entirely."""\n    deque(itertools.islice(iterator, n), maxlen=0)\n\n\ndef imt(token, i=None, m=None, t=None):\n    return token is not None and (t is None or token.ttype in t)\n\n\ndef remove_quotes(val):\n    return val[1:-1] if val and val[0] in '"\\'' else val\n\n\ndef recurse(*cls):\n    def wrap(f):\n        return f\n    return wrap\n\n\ndef split_unquoted_newlines(stmt):\n    return str(stmt).splitlines()\n\n\n${pyHelpers(20, 3800)}`,
    'tests/__init__.py': '',
    'tests/conftest.py': SQLPARSE_CONFTEST,
    'tests/test_split.py': SQLPARSE_TEST_SPLIT,
    'tests/test_format.py': `import pytest\n\nimport sqlparse\n\n\ndef test_keywordcase():\n    sql = 'select * from bar; -- select foo\\n'\n    res = sqlparse.format(sql, keyword_case='upper')\n    assert res == 'SELECT * FROM bar; -- select foo\\n'\n`,
    'tests/files/begintag.sql': 'begin;\nupdate foo\n       set bar = 1;\ncommit;\n',
    'tests/files/function.sql':
      "CREATE OR REPLACE FUNCTION foo()\nRETURNS integer AS\n$body$\nDECLARE\nBEGIN\n select * from foo;\nEND;\n$body$\nLANGUAGE 'plpgsql';\n",
  };
}

const SQLPARSE_OUTPUT = `============================= test session starts ==============================
platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0
rootdir: /workspace
configfile: pyproject.toml
collected 13 items

tests/test_split.py ..........F.                                         [ 92%]
tests/test_format.py .                                                   [100%]

=================================== FAILURES ===================================
_____________________ test_split_transaction_after_begin ______________________

    def test_split_transaction_after_begin():  # issue826
        sql = ('BEGIN TRANSACTION;\\n'
               'UPDATE accounts SET balance = balance - 10 WHERE id = 1;\\n'
               'COMMIT;')
        stmts = sqlparse.split(sql)
>       assert [s.split()[0] for s in stmts] == ['BEGIN', 'UPDATE', 'COMMIT']
E       AssertionError: assert ['BEGIN'] == ['BEGIN', 'UPDATE', 'COMMIT']
E         Right contains 2 more items, first extra item: 'UPDATE'

tests/test_split.py:{{tests/test_split.py#== ['BEGIN', 'UPDATE', 'COMMIT']}}: AssertionError
=========================== short test summary info ============================
FAILED tests/test_split.py::test_split_transaction_after_begin - AssertionError: assert ['BEGIN'] == ['BEGIN', 'UPDATE', 'COMMIT']
========================= 1 failed, 12 passed in 0.21s =========================
`;

// ---------------------------------------------------------------------------------------------------
// Go: a TOML library. The test calls toml.Decode; Decode → Decoder.Decode → parse → the lexer's
// nextItem, whose number scanner (1,200-line lex.go, same package) holds the fix.

const TOML_DECODE = `package toml

import (
	"bytes"
	"encoding"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Unmarshaler is the interface implemented by objects that can unmarshal a
// TOML description of themselves.
type Unmarshaler interface {
	UnmarshalTOML(any) error
}

// Unmarshal decodes the contents of data in TOML format into a pointer v.
func Unmarshal(data []byte, v any) error {
	_, err := NewDecoder(bytes.NewReader(data)).Decode(v)
	return err
}

// Decoder decodes TOML data.
type Decoder struct {
	r io.Reader
}

// NewDecoder creates a new Decoder.
func NewDecoder(r io.Reader) *Decoder {
	return &Decoder{r: r}
}

var (
	unmarshalToml = reflect.TypeOf((*Unmarshaler)(nil)).Elem()
	unmarshalText = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()
)

// Decode TOML data in to the pointer \`v\`.
func (dec *Decoder) Decode(v any) (MetaData, error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Ptr {
		s := "%q"
		if reflect.TypeOf(v) == nil {
			s = "%v"
		}
		return MetaData{}, fmt.Errorf("toml: cannot decode to non-pointer "+s, reflect.TypeOf(v))
	}
	if rv.IsNil() {
		return MetaData{}, fmt.Errorf("toml: cannot decode to nil value of %q", reflect.TypeOf(v))
	}

	data, err := io.ReadAll(dec.r)
	if err != nil {
		return MetaData{}, err
	}

	p, err := parse(string(data))
	if err != nil {
		return MetaData{}, err
	}

	md := MetaData{
		mapping: p.mapping,
		keyInfo: p.keyInfo,
		keys:    p.ordered,
		decoded: make(map[string]struct{}, len(p.ordered)),
		context: nil,
		data:    data,
	}
	return md, md.unify(p.mapping, rv)
}

// Decode the TOML data in to the pointer v.
//
// See the documentation on Decoder for a description of the decoding process.
func Decode(data string, v any) (MetaData, error) {
	return NewDecoder(strings.NewReader(data)).Decode(v)
}

// DecodeFile reads the contents of a file and decodes it with Decode.
func DecodeFile(path string, v any) (MetaData, error) {
	return MetaData{}, nil
}

// unify performs a sort of type unification based on the structure of \`rv\`,
// which is the client representation.
func (md *MetaData) unify(data any, rv reflect.Value) error {
	if rv.Kind() == reflect.Ptr {
		return md.unify(data, reflect.Indirect(rv))
	}
	switch rv.Kind() {
	case reflect.Struct:
		return md.unifyStruct(data, rv)
	case reflect.Map:
		return md.unifyMap(data, rv)
	case reflect.Int, reflect.Int64:
		return md.unifyInt(data, rv)
	case reflect.String:
		return md.unifyString(data, rv)
	}
	return md.e("unsupported type %s", rv.Type())
}

func (md *MetaData) unifyStruct(mapping any, rv reflect.Value) error {
	tmap, ok := mapping.(map[string]any)
	if !ok {
		return md.e("type mismatch for %s: expected table but found %T", rv.Type(), mapping)
	}
	for key, datum := range tmap {
		f := rv.FieldByNameFunc(func(n string) bool { return strings.EqualFold(n, key) })
		if f.IsValid() {
			if err := md.unify(datum, f); err != nil {
				return err
			}
		}
	}
	return nil
}

func (md *MetaData) unifyMap(mapping any, rv reflect.Value) error {
	return nil
}

func (md *MetaData) unifyInt(data any, rv reflect.Value) error {
	num, ok := data.(int64)
	if !ok {
		return md.e("incompatible types: TOML value has type %T; destination has type integer", data)
	}
	rv.SetInt(num)
	return nil
}

func (md *MetaData) unifyString(data any, rv reflect.Value) error {
	s, ok := data.(string)
	if !ok {
		return md.e("incompatible types: TOML value has type %T; destination has type string", data)
	}
	rv.SetString(s)
	return nil
}

func (md *MetaData) e(format string, args ...any) error {
	return fmt.Errorf("toml: "+format, args...)
}

${goFuncs(30, 'md *MetaData', 4000)}`;

const TOML_PARSE = `package toml

import (
	"fmt"
	"strconv"
	"strings"
)

type parser struct {
	lx         *lexer
	context    Key
	currentKey string
	mapping    map[string]any
	keyInfo    map[string]keyInfo
	ordered    []Key
	implicits  map[string]struct{}
}

type keyInfo struct {
	pos      Position
	tomlType tomlType
}

func parse(data string) (p *parser, err error) {
	defer func() {
		if r := recover(); r != nil {
			if pErr, ok := r.(ParseError); ok {
				err = pErr
				return
			}
			panic(r)
		}
	}()

	// Read over BOM; do this here as the lexer calls utf8.DecodeRuneInString()
	// which mangles stuff. UTF-16 BOM isn't strictly valid, but some tools add
	// it anyway.
	if strings.HasPrefix(data, "\\xff\\xfe") || strings.HasPrefix(data, "\\xfe\\xff") {
		data = data[2:]
	}

	p = &parser{
		keyInfo:   make(map[string]keyInfo),
		mapping:   make(map[string]any),
		lx:        lex(data),
		ordered:   make([]Key, 0),
		implicits: make(map[string]struct{}),
	}
	for item := p.lx.nextItem(); item.typ != itemEOF; item = p.lx.nextItem() {
		p.topLevel(item)
	}
	return p, nil
}

func (p *parser) panicf(format string, v ...any) {
	panic(ParseError{Message: fmt.Sprintf(format, v...)})
}

func (p *parser) topLevel(item item) {
	switch item.typ {
	case itemCommentStart:
		return
	case itemTableStart:
		p.context = Key{}
	case itemKeyStart:
		p.currentKey = item.val
		val := p.value(p.lx.nextItem())
		p.mapping[p.currentKey] = val
		p.ordered = append(p.ordered, Key{p.currentKey})
	default:
		p.panicf("unexpected type at top level: %s", item.typ)
	}
}

// value translates an expected value from the lexer into a Go value.
func (p *parser) value(it item) any {
	switch it.typ {
	case itemString:
		return it.val
	case itemInteger:
		return p.valueInteger(it)
	case itemFloat:
		return p.valueFloat(it)
	case itemBool:
		return it.val == "true"
	}
	p.panicf("unexpected value type: %s", it.typ)
	return nil
}

func (p *parser) valueInteger(it item) any {
	num, err := strconv.ParseInt(strings.ReplaceAll(it.val, "_", ""), 0, 64)
	if err != nil {
		p.panicf("invalid integer %q: %s", it.val, err)
	}
	return num
}

func (p *parser) valueFloat(it item) any {
	num, err := strconv.ParseFloat(strings.ReplaceAll(it.val, "_", ""), 64)
	if err != nil {
		p.panicf("invalid float %q: %s", it.val, err)
	}
	return num
}

${goFuncs(40, 'p *parser', 4100)}`;

const TOML_LEX_HEAD = `package toml

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"unicode"
	"unicode/utf8"
)

type itemType int

const (
	itemError itemType = iota
	itemNIL            // used in the parser to indicate no type
	itemEOF
	itemText
	itemString
	itemStringEsc
	itemRawString
	itemMultilineString
	itemRawMultilineString
	itemBool
	itemInteger
	itemFloat
	itemDatetime
	itemArray // the start of an array
	itemArrayEnd
	itemTableStart
	itemTableEnd
	itemArrayTableStart
	itemArrayTableEnd
	itemKeyStart
	itemKeyEnd
	itemCommentStart
	itemInlineTableStart
	itemInlineTableEnd
)

const eof = 0

type lexer struct {
	input string
	start int
	pos   int
	line  int
	atEOF bool
	err   error

	// A sentinel stack of positions, for backing up.
	prevWidths [4]int
	nprev      int
}

type item struct {
	typ itemType
	val string
	err error
	pos Position
}

func lex(input string) *lexer {
	return &lexer{
		input: input,
		line:  1,
	}
}

// nextItem scans the next token of the input.
func (lx *lexer) nextItem() item {
	lx.skipWhitespace()
	lx.start = lx.pos
	r := lx.next()
	switch {
	case r == eof:
		return lx.emit(itemEOF)
	case r == '#':
		return lx.lexComment()
	case r == '[':
		return lx.lexTableStart()
	case r == '{':
		return lx.lexInlineTableStart()
	case r == '"':
		return lx.lexString()
	case r == '\\'':
		return lx.lexRawString()
	case r == '=':
		return lx.lexValueStart()
	case isDigit(r) || r == '+' || r == '-':
		lx.backup()
		return lx.lexNumberOrDate()
	case r == 't' || r == 'f':
		return lx.lexBool()
	case isBareKeyChar(r):
		return lx.lexBareKey()
	}
	return lx.errorf("unexpected character %q", r)
}

func (lx *lexer) emit(typ itemType) item {
	it := item{typ: typ, val: lx.input[lx.start:lx.pos], pos: lx.getPos()}
	lx.start = lx.pos
	return it
}

func (lx *lexer) getPos() Position {
	return Position{Line: lx.line, Start: lx.start, Len: lx.pos - lx.start}
}

func (lx *lexer) next() (r rune) {
	if lx.atEOF {
		panic("BUG in lexer: next called after EOF")
	}
	if lx.pos >= len(lx.input) {
		lx.atEOF = true
		return eof
	}
	if lx.input[lx.pos] == '\\n' {
		lx.line++
	}
	r, w := utf8.DecodeRuneInString(lx.input[lx.pos:])
	lx.prevWidths[3] = lx.prevWidths[2]
	lx.prevWidths[2] = lx.prevWidths[1]
	lx.prevWidths[1] = lx.prevWidths[0]
	if lx.nprev < 4 {
		lx.nprev++
	}
	lx.prevWidths[0] = w
	lx.pos += w
	return r
}

// backup steps back one rune. Can be called 4 times between calls to next.
func (lx *lexer) backup() {
	if lx.atEOF {
		lx.atEOF = false
		return
	}
	if lx.nprev < 1 {
		panic("BUG in lexer: backed up too far")
	}
	w := lx.prevWidths[0]
	lx.prevWidths[0] = lx.prevWidths[1]
	lx.prevWidths[1] = lx.prevWidths[2]
	lx.prevWidths[2] = lx.prevWidths[3]
	lx.nprev--
	lx.pos -= w
	if lx.pos < len(lx.input) && lx.input[lx.pos] == '\\n' {
		lx.line--
	}
}

// peek returns the next rune without consuming it.
func (lx *lexer) peek() rune {
	r := lx.next()
	lx.backup()
	return r
}

func (lx *lexer) skipWhitespace() {
	for r := lx.next(); isWhitespace(r) || isNL(r); r = lx.next() {
	}
	lx.backup()
	lx.start = lx.pos
}

// errorf stops all lexing by emitting an error item.
func (lx *lexer) errorf(format string, values ...any) item {
	if lx.atEOF {
		lx.backup()
	}
	return item{typ: itemError, pos: lx.getPos(), err: fmt.Errorf(format, values...)}
}
`;

const TOML_LEX_NUMBERS = `
// lexNumberOrDate consumes either an integer, float or datetime.
func (lx *lexer) lexNumberOrDate() item {
	r := lx.next()
	if r == '+' || r == '-' {
		return lx.lexDecimalNumber()
	}
	if r == '0' {
		switch lx.peek() {
		case 'x':
			lx.next()
			return lx.lexHexInteger()
		case 'o':
			lx.next()
			return lx.lexOctalInteger()
		case 'b':
			lx.next()
			return lx.lexBinaryInteger()
		}
	}
	lx.backup()
	return lx.lexDecimalNumber()
}

// lexDecimalNumber consumes a decimal float or integer; underscores must sit between digits.
func (lx *lexer) lexDecimalNumber() item {
	typ := itemInteger
	for {
		r := lx.next()
		switch {
		case isDigit(r):
			continue
		case r == '.' || r == 'e' || r == 'E':
			typ = itemFloat
			continue
		}
		lx.backup()
		return lx.emit(typ)
	}
}

// lexHexInteger consumes a hexadecimal integer after seeing the '0x' prefix.
func (lx *lexer) lexHexInteger() item {
	for r := lx.next(); isHex(r) || r == '_'; r = lx.next() {
	}
	lx.backup()
	return lx.emit(itemInteger)
}

// lexOctalInteger consumes an octal integer after seeing the '0o' prefix.
func (lx *lexer) lexOctalInteger() item {
	for r := lx.next(); isOctal(r) || r == '_'; r = lx.next() {
	}
	lx.backup()
	return lx.emit(itemInteger)
}

// lexBinaryInteger consumes a binary integer after seeing the '0b' prefix.
func (lx *lexer) lexBinaryInteger() item {
	for r := lx.next(); isBinary(r) || r == '_'; r = lx.next() {
	}
	lx.backup()
	return lx.emit(itemInteger)
}
`;

const TOML_LEX_TOKENS = `
func (lx *lexer) lexComment() item {
	for r := lx.next(); !isNL(r) && r != eof; r = lx.next() {
	}
	lx.backup()
	return lx.emit(itemCommentStart)
}

func (lx *lexer) lexTableStart() item {
	if lx.peek() == '[' {
		lx.next()
		return lx.emit(itemArrayTableStart)
	}
	return lx.emit(itemTableStart)
}

func (lx *lexer) lexInlineTableStart() item {
	return lx.emit(itemInlineTableStart)
}

func (lx *lexer) lexString() item {
	for r := lx.next(); r != '"'; r = lx.next() {
		if r == eof || isNL(r) {
			return lx.errorf("unexpected EOF; expected '\\"'")
		}
	}
	return lx.emit(itemString)
}

func (lx *lexer) lexRawString() item {
	for r := lx.next(); r != '\\''; r = lx.next() {
		if r == eof || isNL(r) {
			return lx.errorf("unexpected EOF; expected \\"'\\"")
		}
	}
	return lx.emit(itemRawString)
}

func (lx *lexer) lexValueStart() item {
	lx.skipWhitespace()
	return lx.nextItem()
}

func (lx *lexer) lexBool() item {
	for r := lx.next(); unicode.IsLetter(r); r = lx.next() {
	}
	lx.backup()
	return lx.emit(itemBool)
}

func (lx *lexer) lexBareKey() item {
	for r := lx.next(); isBareKeyChar(r); r = lx.next() {
	}
	lx.backup()
	return lx.emit(itemKeyStart)
}

func isWhitespace(r rune) bool { return r == '\\t' || r == ' ' }
func isNL(r rune) bool         { return r == '\\n' || r == '\\r' }
func isDigit(r rune) bool      { return r >= '0' && r <= '9' }
func isBinary(r rune) bool     { return r == '0' || r == '1' }
func isOctal(r rune) bool      { return r >= '0' && r <= '7' }
func isHex(r rune) bool        { return (r >= '0' && r <= '9') || (r|0x20 >= 'a' && r|0x20 <= 'f') }
func isBareKeyChar(r rune) bool {
	return (r >= 'A' && r <= 'Z') || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '_' || r == '-'
}

func (itype itemType) String() string {
	return fmt.Sprintf("item(%d)", int(itype))
}

var _ = reflect.TypeOf
var _ = runtime.GOOS
var _ = strings.Repeat
`;

const TOML_TEST = `package toml_test

import (
	"reflect"
	"testing"

	"github.com/BurntSushi/toml"
)

func TestDecodeSimple(t *testing.T) {
	var v struct{ Name string }
	if _, err := toml.Decode(\`Name = "x"\`, &v); err != nil {
		t.Fatal(err)
	}
	if v.Name != "x" {
		t.Errorf("Name = %q", v.Name)
	}
}

func TestDecodeIntegerWithUnderscores(t *testing.T) {
	var v struct{ N int64 }
	if _, err := toml.Decode("N = 1_000_000", &v); err != nil {
		t.Fatal(err)
	}
	if want := int64(1000000); v.N != want {
		t.Errorf("N = %d, want %d", v.N, want)
	}
}

func TestDecodeTypes(t *testing.T) {
	var v map[string]any
	if _, err := toml.Decode("a = 1\\nb = 'x'\\n", &v); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(v, map[string]any{"a": int64(1), "b": "x"}) {
		t.Errorf("got %v", v)
	}
}
`;

function tomlFiles(): Record<string, string> {
  return {
    ...GO_NOISE,
    'go.mod': 'module github.com/BurntSushi/toml\n\ngo 1.18\n',
    'decode.go': TOML_DECODE,
    'parse.go': TOML_PARSE,
    'lex.go': `${TOML_LEX_HEAD}\n${goFuncs(50, 'lx *lexer', 4200)}${TOML_LEX_NUMBERS}\n${goFuncs(30, 'lx *lexer', 4260)}${TOML_LEX_TOKENS}`,
    'meta.go': `package toml\n\nimport "strings"\n\n// MetaData allows access to meta information about TOML data that's not\n// accessible otherwise.\ntype MetaData struct {\n\tcontext Key\n\tkeyInfo map[string]keyInfo\n\tmapping map[string]any\n\tkeys    []Key\n\tdecoded map[string]struct{}\n\tdata    []byte\n}\n\n// Key represents any TOML key, including key groups.\ntype Key []string\n\n// String returns the key as a dotted string.\nfunc (k Key) String() string { return strings.Join(k, ".") }\n\n${goFuncs(20, 'md MetaData', 4400)}`,
    'error.go': `package toml\n\nimport "fmt"\n\n// ParseError is returned when there is an error parsing the TOML syntax.\ntype ParseError struct {\n\tMessage  string\n\tPosition Position\n}\n\n// Position of an error.\ntype Position struct {\n\tLine  int\n\tStart int\n\tLen   int\n}\n\nfunc (pe ParseError) Error() string { return fmt.Sprintf("toml: line %d: %s", pe.Position.Line, pe.Message) }\n\n${goFuncs(15, '', 4450)}`,
    'encode.go': `package toml\n\nimport "fmt"\n\n${goFuncs(60, '', 4500)}`,
    'type_toml.go': `package toml\n\nimport "fmt"\n\ntype tomlType interface{ typeString() string }\n\n${goFuncs(15, '', 4600)}`,
    'decode_test.go': TOML_TEST,
    'encode_test.go': `package toml_test\n\nimport (\n\t"bytes"\n\t"testing"\n\n\t"github.com/BurntSushi/toml"\n)\n\nfunc TestEncodeEmpty(t *testing.T) {\n\tvar b bytes.Buffer\n\t_ = toml.NewDecoder(&b)\n}\n`,
  };
}

// ---------------------------------------------------------------------------------------------------
// Go: an expression language. A regression test under test/issues/819/ calls expr.Compile of the
// root package and asserts with the repository's own copy of testify; the checker package the root
// package calls holds the fix. Compile and Run are also defined by the compiler and vm packages.

const EXPR_ROOT = `package expr

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/optimizer"
	"github.com/expr-lang/expr/vm"
)

// Option for configuring config.
type Option func(c *conf.Config)

// Env specifies expected input of env for type checks.
func Env(env any) Option {
	return func(c *conf.Config) {
		c.WithEnv(env)
	}
}

// AllowUndefinedVariables allows to use undefined variables inside expressions.
func AllowUndefinedVariables() Option {
	return func(c *conf.Config) {
		c.Strict = false
	}
}

// Optimize turns optimizations on or off.
func Optimize(b bool) Option {
	return func(c *conf.Config) {
		c.Optimize = b
	}
}

// Patch adds visitor to list of visitors what will be applied before compiling AST to bytecode.
func Patch(visitor ast.Visitor) Option {
	return func(c *conf.Config) {
		c.Visitors = append(c.Visitors, visitor)
	}
}

// Operator allows to replace a binary operator with a function.
func Operator(operator string, fn ...string) Option {
	return func(c *conf.Config) {
		c.Operators[operator] = append(c.Operators[operator], fn...)
	}
}

// ConstExpr defines func expression as constant. If all argument to this function is constants,
// then it can be replaced by result of this func call on compile step.
func ConstExpr(fn string) Option {
	return func(c *conf.Config) {
		c.ConstFns[fn] = true
	}
}

// AsAny tells the compiler to expect any result.
func AsAny() Option {
	return func(c *conf.Config) {
		c.ExpectAny = true
	}
}

// AsKind tells the compiler to expect kind of the result.
func AsKind(kind reflect.Kind) Option {
	return func(c *conf.Config) {
		c.Expect = kind
		c.ExpectAny = true
	}
}

// AsBool tells the compiler to expect a boolean result.
func AsBool() Option {
	return func(c *conf.Config) {
		c.Expect = reflect.Bool
		c.ExpectAny = true
	}
}

// AsInt tells the compiler to expect an int result.
func AsInt() Option {
	return func(c *conf.Config) {
		c.Expect = reflect.Int
		c.ExpectAny = true
	}
}

// AsInt64 tells the compiler to expect an int64 result.
func AsInt64() Option {
	return func(c *conf.Config) {
		c.Expect = reflect.Int64
		c.ExpectAny = true
	}
}

// AsFloat64 tells the compiler to expect a float64 result.
func AsFloat64() Option {
	return func(c *conf.Config) {
		c.Expect = reflect.Float64
		c.ExpectAny = true
	}
}

// WarnOnAny tells the compiler to warn if expression return any type.
func WarnOnAny() Option {
	return func(c *conf.Config) {
		if c.Expect == reflect.Invalid {
			panic("WarnOnAny() works only with combination with AsInt(), AsBool(), etc. options")
		}
		c.ExpectAny = false
	}
}

// DisableAllBuiltins disables all builtins.
func DisableAllBuiltins() Option {
	return func(c *conf.Config) {
		for name := range c.Builtins {
			c.Disabled[name] = true
		}
	}
}

// DisableBuiltin disables builtin function.
func DisableBuiltin(name string) Option {
	return func(c *conf.Config) {
		c.Disabled[name] = true
	}
}

// EnableBuiltin enables builtin function.
func EnableBuiltin(name string) Option {
	return func(c *conf.Config) {
		delete(c.Disabled, name)
	}
}

// WithContext passes context to all functions calls with a context.Context argument.
func WithContext(name string) Option {
	return func(c *conf.Config) {
		c.Visitors = append(c.Visitors, name)
	}
}

// Timezone sets default timezone for date() and now() builtin functions.
func Timezone(name string) Option {
	return func(c *conf.Config) {
		c.Timezone = name
	}
}

// MaxNodes sets the maximum number of nodes allowed in the expression.
// By default, the maximum number of nodes is conf.DefaultMaxNodes.
// If MaxNodes is set to 0, the node budget check is disabled.
func MaxNodes(n uint) Option {
	return func(c *conf.Config) {
		c.MaxNodes = n
	}
}

// Compile parses and compiles given input expression to bytecode program.
func Compile(input string, ops ...Option) (*vm.Program, error) {
	config := conf.CreateNew()
	for _, op := range ops {
		op(config)
	}
	for name := range config.Disabled {
		delete(config.Builtins, name)
	}
	config.Check()

	tree, err := checker.ParseCheck(input, config)
	if err != nil {
		return nil, err
	}

	if config.Optimize {
		err = optimizer.Optimize(&tree.Node, config)
		if err != nil {
			var fileError *conf.FileError
			if errors.As(err, &fileError) {
				return nil, fileError.Bind(tree.Source)
			}
			return nil, err
		}
	}

	program, err := compiler.Compile(tree, config)
	if err != nil {
		return nil, err
	}

	return program, nil
}

// Run evaluates given bytecode program.
func Run(program *vm.Program, env any) (any, error) {
	return vm.Run(program, env)
}

// Eval parses, compiles and runs given input.
func Eval(input string, env any) (any, error) {
	if _, ok := env.(Option); ok {
		return nil, fmt.Errorf("misused expr.Eval: second argument (env) should be passed without expr.Env")
	}
	program, err := Compile(input)
	if err != nil {
		return nil, err
	}
	return Run(program, env)
}

var _ = reflect.TypeOf
`;

const EXPR_CHECKER_HEAD = `package checker

import (
	"fmt"
	"reflect"
	"regexp"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/parser"
)

// ParseCheck parses input expression and checks its types. Also, it applies
// all provided patchers. In case of error, it returns error with a tree.
func ParseCheck(input string, config *conf.Config) (*parser.Tree, error) {
	tree, err := parser.ParseWithConfig(input, config)
	if err != nil {
		return tree, err
	}

	if len(config.Visitors) > 0 {
		for i := 0; i < 1000; i++ {
			more := false
			for _, v := range config.Visitors {
				ast.Walk(&tree.Node, v)
			}
			if !more {
				break
			}
		}
	}
	_, err = new(checker).Check(tree, config)
	if err != nil {
		return tree, err
	}

	return tree, nil
}

// Check checks types of the expression tree. It returns type of the expression
// and error if any. If config is nil, then default configuration will be used.
func (v *checker) Check(tree *parser.Tree, config *conf.Config) (Nature, error) {
	v.config = config
	v.predicateScopes = v.predicateScopes[:0]
	v.varScopes = v.varScopes[:0]
	v.err = nil

	nt := v.visit(tree.Node)

	if v.err != nil {
		return unknown, v.err.Bind(tree.Source)
	}
	return nt, nil
}

type checker struct {
	config          *conf.Config
	predicateScopes []predicateScope
	varScopes       []varScope
	err             *conf.FileError
	needsReset      bool
}

type predicateScope struct {
	collection Nature
	vars       map[string]Nature
}

type varScope struct {
	name   string
	nature Nature
}

func (v *checker) visit(node ast.Node) Nature {
	var nt Nature
	switch n := node.(type) {
	case *ast.NilNode:
		nt = v.NilNode(n)
	case *ast.IdentifierNode:
		nt = v.IdentifierNode(n)
	case *ast.IntegerNode:
		nt = v.IntegerNode(n)
	case *ast.FloatNode:
		nt = v.FloatNode(n)
	case *ast.BoolNode:
		nt = v.BoolNode(n)
	case *ast.StringNode:
		nt = v.StringNode(n)
	case *ast.UnaryNode:
		nt = v.UnaryNode(n)
	case *ast.BinaryNode:
		nt = v.BinaryNode(n)
	case *ast.MemberNode:
		nt = v.MemberNode(n)
	case *ast.CallNode:
		nt = v.CallNode(n)
	case *ast.BuiltinNode:
		nt = v.BuiltinNode(n)
	case *ast.PointerNode:
		nt = v.PointerNode(n)
	case *ast.VariableDeclaratorNode:
		nt = v.VariableDeclaratorNode(n)
	case *ast.ArrayNode:
		nt = v.ArrayNode(n)
	default:
		panic(fmt.Sprintf("undefined node type (%T)", node))
	}
	node.SetNature(nt)
	return nt
}

func (v *checker) error(node ast.Node, format string, args ...any) Nature {
	if v.err == nil { // show first error
		v.err = &conf.FileError{
			Message: fmt.Sprintf(format, args...),
			Line:    node.Location().Line,
			Column:  node.Location().Column,
		}
	}
	return unknown
}

func (v *checker) NilNode(*ast.NilNode) Nature {
	return nilNature
}

func (v *checker) IdentifierNode(node *ast.IdentifierNode) Nature {
	if variable, ok := v.lookupVariable(node.Value); ok {
		return variable.nature
	}
	if node.Value == "$env" {
		return unknown
	}
	return v.ident(node, node.Value, v.config.Strict, true)
}

// ident method returns type of environment variable, builtin or function.
func (v *checker) ident(node ast.Node, name string, strict, builtins bool) Nature {
	if t, ok := v.config.Env.Get(name); ok {
		return t
	}
	if builtins {
		if fn, ok := v.config.Functions[name]; ok {
			return Nature{Type: fn.Type(), Func: fn}
		}
		if fn, ok := v.config.Builtins[name]; ok {
			return Nature{Type: fn.Type(), Func: fn}
		}
	}
	if v.config.Strict && strict {
		return v.error(node, "unknown name %v", name)
	}
	return unknown
}

func (v *checker) IntegerNode(*ast.IntegerNode) Nature { return integerNature }
func (v *checker) FloatNode(*ast.FloatNode) Nature     { return floatNature }
func (v *checker) BoolNode(*ast.BoolNode) Nature       { return boolNature }
func (v *checker) StringNode(*ast.StringNode) Nature   { return stringNature }
`;

const EXPR_CHECKER_SCOPES = `
func (v *checker) PointerNode(node *ast.PointerNode) Nature {
	if len(v.predicateScopes) == 0 {
		return v.error(node, "cannot use pointer accessor outside predicate")
	}
	scope := v.predicateScopes[len(v.predicateScopes)-1]
	if node.Name == "" {
		if isUnknown(scope.collection) {
			return unknown
		}
		switch scope.collection.Kind() {
		case reflect.Array, reflect.Slice:
			return scope.collection.Elem()
		}
		return v.error(node, "cannot use %v as array", scope.collection)
	}
	if scope.vars != nil {
		if t, ok := scope.vars[node.Name]; ok {
			return t
		}
	}
	return v.error(node, "unknown pointer #%v", node.Name)
}

func (v *checker) VariableDeclaratorNode(node *ast.VariableDeclaratorNode) Nature {
	if _, ok := v.config.Env.Get(node.Name); ok {
		return v.error(node, "cannot redeclare %v", node.Name)
	}
	if _, ok := v.lookupVariable(node.Name); ok {
		return v.error(node, "cannot redeclare variable %v", node.Name)
	}
	varNature := v.visit(node.Value)
	v.varScopes = append(v.varScopes, varScope{node.Name, varNature})
	exprNature := v.visit(node.Expr)
	v.varScopes = v.varScopes[:len(v.varScopes)-1]
	return exprNature
}

func (v *checker) lookupVariable(name string) (varScope, bool) {
	for i := len(v.varScopes) - 1; i >= 0; i-- {
		if v.varScopes[i].name == name {
			return v.varScopes[i], true
		}
	}
	return varScope{}, false
}

func (v *checker) begin(collectionNature Nature, vars ...varScope) {
	scope := predicateScope{collection: collectionNature, vars: make(map[string]Nature)}
	for _, v := range vars {
		scope.vars[v.name] = v.nature
	}
	v.predicateScopes = append(v.predicateScopes, scope)
}

func (v *checker) end() {
	v.predicateScopes = v.predicateScopes[:len(v.predicateScopes)-1]
}

func (v *checker) BuiltinNode(node *ast.BuiltinNode) Nature {
	switch node.Name {
	case "all", "none", "any", "one", "filter", "map":
		collection := v.visit(node.Arguments[0])
		if !isArray(collection) && !isUnknown(collection) {
			return v.error(node.Arguments[0], "builtin %v takes only array (got %v)", node.Name, collection)
		}

		v.begin(collection, varScope{"index", integerNature})
		closure := v.visit(node.Arguments[1])
		v.end()

		if node.Name == "map" {
			return arrayOf(closure)
		}
		return boolNature
	}
	return v.error(node, "unknown builtin %v", node.Name)
}
`;

const EXPR_ASSERTIONS = `package assert

import (
	"bufio"
	"bytes"
	"fmt"
	"runtime"
	"strings"
)

// TestingT is an interface wrapper around *testing.T.
type TestingT interface {
	Errorf(format string, args ...interface{})
}

type tHelper interface{ Helper() }

// NoError asserts that a function returned no error (i.e. \`nil\`).
//
//	  actualObj, err := SomeFunction()
//	  if assert.NoError(t, err) {
//		   assert.Equal(t, expectedObj, actualObj)
//	  }
func NoError(t TestingT, err error, msgAndArgs ...interface{}) bool {
	if err != nil {
		if h, ok := t.(tHelper); ok {
			h.Helper()
		}
		return Fail(t, fmt.Sprintf("Received unexpected error:\\n%+v", err), msgAndArgs...)
	}

	return true
}

// Equal asserts that two objects are equal.
//
//	assert.Equal(t, 123, 123)
func Equal(t TestingT, expected, actual interface{}, msgAndArgs ...interface{}) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	if !ObjectsAreEqual(expected, actual) {
		return Fail(t, fmt.Sprintf("Not equal: \\n"+
			"expected: %#v\\n"+
			"actual  : %#v", expected, actual), msgAndArgs...)
	}

	return true
}

// ObjectsAreEqual determines if two objects are considered equal.
func ObjectsAreEqual(expected, actual interface{}) bool {
	if expected == nil || actual == nil {
		return expected == actual
	}
	return fmt.Sprint(expected) == fmt.Sprint(actual)
}

// Fail reports a failure through
func Fail(t TestingT, failureMessage string, msgAndArgs ...interface{}) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	content := []labeledContent{
		{"Error Trace", strings.Join(CallerInfo(), "\\n\\t\\t\\t")},
		{"Error", failureMessage},
	}

	// Add test name if the Go version supports it
	if n, ok := t.(interface {
		Name() string
	}); ok {
		content = append(content, labeledContent{"Test", n.Name()})
	}

	message := messageFromMsgAndArgs(msgAndArgs...)
	if len(message) > 0 {
		content = append(content, labeledContent{"Messages", message})
	}

	t.Errorf("\\n%s", ""+labeledOutput(content...))

	return false
}

type labeledContent struct {
	label   string
	content string
}

// labeledOutput returns a string consisting of the provided labeledContent. Each labeled output is appended in the following manner:
//
//	\\t{{label}}:{{align_spaces}}\\t{{content}}\\n
//
// If the content of the labeledOutput contains line breaks, the subsequent lines are aligned so that they start at the same location as the first line.
func labeledOutput(content ...labeledContent) string {
	longestLabel := 0
	for _, v := range content {
		if len(v.label) > longestLabel {
			longestLabel = len(v.label)
		}
	}

	// Create padding for labels
	var output string
	for _, v := range content {
		output += "\\t" + v.label + ":" + strings.Repeat(" ", longestLabel-len(v.label)) + "\\t" + indentMessageLines(v.content, longestLabel) + "\\n"
	}
	return output
}

// indentMessageLines indents all lines after the first line of the message.
func indentMessageLines(message string, longestLabelLen int) string {
	outBuf := new(bytes.Buffer)

	for i, scanner := 0, bufio.NewScanner(strings.NewReader(message)); scanner.Scan(); i++ {
		// no need to align first line because it starts at the correct location (after the label)
		if i != 0 {
			// append alignLen+1 spaces to align with "{{longestLabel}}:" before adding tab
			outBuf.WriteString("\\n\\t" + strings.Repeat(" ", longestLabelLen+1) + "\\t")
		}
		outBuf.WriteString(scanner.Text())
	}

	return outBuf.String()
}

func messageFromMsgAndArgs(msgAndArgs ...interface{}) string {
	if len(msgAndArgs) == 0 || msgAndArgs == nil {
		return ""
	}
	if len(msgAndArgs) == 1 {
		msg := msgAndArgs[0]
		if msgAsStr, ok := msg.(string); ok {
			return msgAsStr
		}
		return fmt.Sprintf("%+v", msg)
	}
	if len(msgAndArgs) > 1 {
		return fmt.Sprintf(msgAndArgs[0].(string), msgAndArgs[1:]...)
	}
	return ""
}

// CallerInfo returns an array of strings containing the file and line number
// of each stack frame leading from the current test to the assert call that
// failed.
func CallerInfo() []string {
	var pc uintptr
	var ok bool
	var file string
	var line int
	var name string

	callers := []string{}
	for i := 0; ; i++ {
		pc, file, line, ok = runtime.Caller(i)
		if !ok {
			// The breaks below failed to terminate the loop, and we ran off the
			// end of the call stack.
			break
		}

		// This is a huge edge case, but it will panic if this is the case, see #180
		if file == "<autogenerated>" {
			break
		}

		f := runtime.FuncForPC(pc)
		if f == nil {
			break
		}
		name = f.Name()

		// testing.tRunner is the standard library function that calls
		// tests. Subtests are called directly by tRunner, without going through
		// the Test/Benchmark/Example function that contains the t.Run calls, so
		// with subtests we should break when we hit tRunner, without adding it
		// to the list of callers.
		if name == "testing.tRunner" {
			break
		}

		parts := strings.Split(file, "/")
		if len(parts) > 1 {
			filename := parts[len(parts)-1]
			dir := parts[len(parts)-2]
			if (dir != "assert" && dir != "mock" && dir != "require") || filename == "mock_test.go" {
				callers = append(callers, fmt.Sprintf("%s:%d", file, line))
			}
		}
	}

	return callers
}

${goFuncs(150, '', 5700)}`;

/** A compiler or vm file: an entry point, a dispatch over node kinds, one method per kind (`n` of them). */
function goDispatch(pkg: string, recv: string, entry: string, kinds: readonly string[], from: number): string {
  const [r, type] = recv.split(' ');
  return `${entry}
func (${recv}) dispatch(node ast.Node) {
	switch n := node.(type) {
${kinds.map((k) => `	case *ast.${k}:\n\t\t${r}.${k}(n)`).join('\n')}
	default:
		panic(fmt.Sprintf("undefined node type (%T)", node))
	}
}

${kinds
  .map(
    (k, i) => `func (${r} ${type}) ${k}(node *ast.${k}) {
	${r}.emit(Op${k}, ${i})
	for i := 0; i < ${2 + (i % 4)}; i++ {
		${r}.emitLocation(node.Location(), Op${k}, i)
	}
	if ${r}.config != nil && ${r}.config.Optimize {
		${r}.patchJump(${r}.emit(OpJumpIfFalse, 0))
	}
${['Left', 'Right', 'Node', 'Callee', 'Property', 'Value']
  .map(
    (f, j) => `	// ${f.toLowerCase()}: ${k} ${j}
	if ${r}.has${f}(node) {
		end := ${r}.emit(OpJumpIfNil, ${j})
		${r}.emitPush(${r}.constant${f}(node, ${i + j}))
		${r}.patchJump(end)
	}`,
  )
  .join('\n')}
}
`,
  )
  .join('\n')}
${goFuncs(60, recv, from)}`.replace(/^/, `package ${pkg}\n\n`);
}

const EXPR_KINDS = ['NilNode', 'IdentifierNode', 'IntegerNode', 'FloatNode', 'BoolNode', 'StringNode', 'UnaryNode', 'BinaryNode', 'MemberNode', 'CallNode', 'BuiltinNode', 'PointerNode', 'VariableDeclaratorNode', 'ArrayNode']; // prettier-ignore

function exprFiles(): Record<string, string> {
  return {
    ...GO_NOISE,
    'go.mod': 'module github.com/expr-lang/expr\n\ngo 1.18\n',
    'expr.go': EXPR_ROOT,
    'expr_test.go': `package expr_test\n\nimport (\n\t"testing"\n\n\t"github.com/expr-lang/expr"\n\t"github.com/expr-lang/expr/internal/testify/require"\n)\n\nfunc TestEval(t *testing.T) {\n\tout, err := expr.Eval("1 + 2", nil)\n\trequire.NoError(t, err)\n\trequire.Equal(t, 3, out)\n}\n`,
    'checker/checker.go': `${EXPR_CHECKER_HEAD}\n${goFuncs(40, 'v *checker', 4700)}${EXPR_CHECKER_SCOPES}\n${goFuncs(50, 'v *checker', 4740)}`,
    'checker/nature.go': `package checker\n\nimport (\n\t"fmt"\n\t"reflect"\n)\n\n// Nature is the type of a node.\ntype Nature struct {\n\tType reflect.Type\n\tFunc any\n}\n\nvar (\n\tunknown       = Nature{}\n\tnilNature     = Nature{}\n\tintegerNature = Nature{Type: reflect.TypeOf(0)}\n\tfloatNature   = Nature{Type: reflect.TypeOf(0.0)}\n\tboolNature    = Nature{Type: reflect.TypeOf(true)}\n\tstringNature  = Nature{Type: reflect.TypeOf("")}\n)\n\nfunc isUnknown(n Nature) bool { return n.Type == nil }\nfunc isArray(n Nature) bool   { return n.Type != nil && n.Type.Kind() == reflect.Slice }\nfunc arrayOf(n Nature) Nature { return Nature{Type: reflect.SliceOf(n.Type)} }\n\n// Kind of the nature.\nfunc (n Nature) Kind() reflect.Kind { return n.Type.Kind() }\n\n// Elem of an array nature.\nfunc (n Nature) Elem() Nature { return Nature{Type: n.Type.Elem()} }\n\n${goFuncs(20, '', 4800)}`,
    'compiler/compiler.go': goDispatch(
      'compiler',
      'c *compiler',
      `import (\n\t"fmt"\n\n\t"github.com/expr-lang/expr/ast"\n\t"github.com/expr-lang/expr/conf"\n\t"github.com/expr-lang/expr/parser"\n\t"github.com/expr-lang/expr/vm"\n)\n\n// Compile compiles a checked tree to a program.\nfunc Compile(tree *parser.Tree, config *conf.Config) (program *vm.Program, err error) {\n\tc := &compiler{config: config}\n\tc.dispatch(tree.Node)\n\treturn vm.NewProgram(c.bytecode), nil\n}\n\ntype compiler struct {\n\tconfig   *conf.Config\n\tbytecode []byte\n}\n`,
      EXPR_KINDS,
      4900,
    ),
    'conf/config.go': `package conf\n\nimport (\n\t"fmt"\n\n\t"github.com/expr-lang/expr/builtin"\n)\n\n// Config is the configuration of a compilation.\ntype Config struct {\n\tEnv       Env\n\tStrict    bool\n\tOptimize  bool\n\tVisitors  []any\n\tFunctions map[string]Function\n\tBuiltins  map[string]Function\n\tDisabled  map[string]bool\n}\n\n// CreateNew creates a new config with default values.\nfunc CreateNew() *Config {\n\treturn &Config{Optimize: true, Strict: true, Functions: map[string]Function{}, Builtins: builtin.Index()}\n}\n\n// WithEnv sets the env.\nfunc (c *Config) WithEnv(env any) { c.Strict = true }\n\n// Check checks the config.\nfunc (c *Config) Check() {}\n\n${goFuncs(15, '', 5000)}`,
    'builtin/builtin.go': `package builtin\n\nimport "fmt"\n\n// Function is a builtin function.\ntype Function struct {\n\tName string\n\tFunc func(args ...any) (any, error)\n}\n\n// Index returns the builtins by name.\nfunc Index() map[string]Function {\n\tout := map[string]Function{}\n\tfor _, f := range Builtins {\n\t\tout[f.Name] = f\n\t}\n\treturn out\n}\n\n// Builtins are the builtin functions.\nvar Builtins = []Function{\n${Array.from({ length: 60 }, (_, k) => `\t{Name: "${snakeName(k)}", Func: func(args ...any) (any, error) { return len(args) + ${k}, nil }},`).join('\n')}\n}\n\n${goFuncs(40, '', 5500)}`,
    'conf/file_error.go': `package conf\n\nimport "fmt"\n\n// FileError is an error at a place of the source.\ntype FileError struct {\n\tMessage string\n\tLine    int\n\tColumn  int\n\tSnippet string\n}\n\n// Bind attaches the source.\nfunc (e *FileError) Bind(source string) *FileError { return e }\n\nfunc (e *FileError) Error() string {\n\treturn fmt.Sprintf("%s (%d:%d)%s", e.Message, e.Line, e.Column+1, e.Snippet)\n}\n`,
    'optimizer/optimizer.go': `package optimizer\n\nimport (\n\t"fmt"\n\n\t"github.com/expr-lang/expr/conf"\n)\n\n// Optimize optimizes a tree in place.\nfunc Optimize(node any, config *conf.Config) error { return nil }\n\n${goFuncs(30, '', 5100)}`,
    'parser/parser.go': `package parser\n\nimport (\n\t"fmt"\n\n\t"github.com/expr-lang/expr/ast"\n\t"github.com/expr-lang/expr/conf"\n)\n\n// Tree is a parsed expression.\ntype Tree struct {\n\tNode   ast.Node\n\tSource string\n}\n\n// Parse parses input.\nfunc Parse(input string) (*Tree, error) { return ParseWithConfig(input, nil) }\n\n// ParseWithConfig parses input with a config.\nfunc ParseWithConfig(input string, config *conf.Config) (*Tree, error) {\n\tp := &parser{input: input, config: config}\n\treturn &Tree{Node: p.parseSequenceExpression(), Source: input}, nil\n}\n\ntype parser struct {\n\tinput  string\n\tconfig *conf.Config\n}\n\nfunc (p *parser) parseSequenceExpression() ast.Node { return nil }\n\n${goFuncs(90, 'p *parser', 5200)}`,
    'ast/node.go': `package ast\n\n// Node is a node of the tree.\ntype Node interface {\n\tLocation() Location\n\tSetNature(any)\n}\n\n// Location in the source.\ntype Location struct{ Line, Column int }\n\n// Visitor visits nodes.\ntype Visitor interface{ Visit(node *Node) }\n\n// Walk walks the tree.\nfunc Walk(node *Node, v Visitor) { v.Visit(node) }\n\ntype base struct{ loc Location }\n\nfunc (b *base) Location() Location { return b.loc }\nfunc (b *base) SetNature(any)      {}\n\ntype (\n\tNilNode                struct{ base }\n\tIdentifierNode         struct{ base; Value string }\n\tIntegerNode            struct{ base; Value int }\n\tFloatNode              struct{ base; Value float64 }\n\tBoolNode               struct{ base; Value bool }\n\tStringNode             struct{ base; Value string }\n\tUnaryNode              struct{ base; Operator string; Node Node }\n\tBinaryNode             struct{ base; Operator string; Left, Right Node }\n\tMemberNode             struct{ base; Node, Property Node }\n\tCallNode               struct{ base; Callee Node; Arguments []Node }\n\tBuiltinNode            struct{ base; Name string; Arguments []Node }\n\tPointerNode            struct{ base; Name string }\n\tVariableDeclaratorNode struct{ base; Name string; Value, Expr Node }\n\tArrayNode              struct{ base; Nodes []Node }\n)\n\n${goFuncs(22, '', 5480)}`,
    'vm/vm.go': goDispatch(
      'vm',
      'vm *VM',
      `import (\n\t"fmt"\n\n\t"github.com/expr-lang/expr/ast"\n)\n\n// Run runs a program against env.\nfunc Run(program *Program, env any) (any, error) {\n\tvm := VM{}\n\treturn vm.Run(program, env)\n}\n\n// VM runs programs.\ntype VM struct {\n\tstack  []any\n\tconfig *struct{ Optimize bool }\n}\n\n// Run runs a program.\nfunc (vm *VM) Run(program *Program, env any) (out any, err error) {\n\tfor range program.Bytecode {\n\t\tvm.dispatch(nil)\n\t}\n\treturn nil, nil\n}\n`,
      EXPR_KINDS,
      5400,
    ),
    'vm/program.go': `package vm\n\nimport "fmt"\n\n// Program is compiled bytecode.\ntype Program struct {\n\tBytecode []byte\n}\n\n// NewProgram makes a program.\nfunc NewProgram(b []byte) *Program { return &Program{Bytecode: b} }\n\n${goFuncs(28, 'program *Program', 5450)}`,
    'internal/testify/require/require.go': `// Code generated with github.com/stretchr/testify/_codegen; DO NOT EDIT.\n\npackage require\n\nimport (\n\tassert "github.com/expr-lang/expr/internal/testify/assert"\n)\n\n// NoError asserts that a function returned no error (i.e. \`nil\`).\nfunc NoError(t TestingT, err error, msgAndArgs ...interface{}) {\n\tif h, ok := t.(tHelper); ok {\n\t\th.Helper()\n\t}\n\tif assert.NoError(t, err, msgAndArgs...) {\n\t\treturn\n\t}\n\tt.FailNow()\n}\n\n// Equal asserts that two objects are equal.\nfunc Equal(t TestingT, expected interface{}, actual interface{}, msgAndArgs ...interface{}) {\n\tif h, ok := t.(tHelper); ok {\n\t\th.Helper()\n\t}\n\tif assert.Equal(t, expected, actual, msgAndArgs...) {\n\t\treturn\n\t}\n\tt.FailNow()\n}\n\n// TestingT is an interface wrapper around *testing.T.\ntype TestingT interface {\n\tErrorf(format string, args ...interface{})\n\tFailNow()\n}\n\ntype tHelper interface{ Helper() }\n\n${goFuncs(150, '', 5600)}`,
    'internal/testify/assert/assertions.go': EXPR_ASSERTIONS,
    'test/issues/688/issue_test.go': `package issue688_test\n\nimport (\n\t"testing"\n\n\t"github.com/expr-lang/expr"\n\t"github.com/expr-lang/expr/internal/testify/require"\n)\n\nfunc TestIssue688(t *testing.T) {\n\t_, err := expr.Compile("1 + 1")\n\trequire.NoError(t, err)\n}\n`,
    'test/issues/819/issue_test.go': `package issue_test\n\nimport (\n\t"testing"\n\n\t"github.com/expr-lang/expr"\n\t"github.com/expr-lang/expr/internal/testify/require"\n)\n\nfunc TestIssue819(t *testing.T) {\n\tprogram, err := expr.Compile(\`let a = [1, 2]; map(a, index)\`)\n\trequire.NoError(t, err)\n\n\tout, err := expr.Run(program, nil)\n\trequire.NoError(t, err)\n\trequire.Equal(t, []any{0, 1}, out)\n}\n`,
  };
}

const EXPR_OUTPUT = `--- FAIL: TestIssue819 (0.00s)
    issue_test.go:16: 
        	Error Trace:	/workspace/test/issues/819/issue_test.go:16
        	Error:      	Not equal: 
        	            	expected: []interface {}{0, 1}
        	            	actual  : []interface {}{interface {}(nil), interface {}(nil)}
        	            	
        	            	Diff:
        	            	--- Expected
        	            	+++ Actual
        	            	@@ -1,4 +1,4 @@
        	            	 ([]interface {}) (len=2) {
        	            	- (int) 0,
        	            	- (int) 1
        	            	+ (interface {}) <nil>,
        	            	+ (interface {}) <nil>
        	            	 }
        	Test:       	TestIssue819
FAIL
FAIL	github.com/expr-lang/expr/test/issues/819	0.004s
FAIL
`;

// ---------------------------------------------------------------------------------------------------
// Rust: a serialisation crate and its derive sub-crate. The test derives DeJson; the runtime crate's
// src/serde_json.rs defines the DeJson trait and holds the error message the failure prints, while the
// fix is in the derive crate's derive/src/serde_json.rs, two calls below the derive macro.

const NANO_LIB = `//! nanoserde: serialisation with no dependencies.
#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

#[cfg(any(feature = "binary", feature = "json", feature = "ron"))]
pub use nanoserde_derive::*;

#[cfg(feature = "binary")]
mod serde_bin;
#[cfg(feature = "binary")]
pub use crate::serde_bin::*;

#[cfg(feature = "json")]
mod serde_json;
#[cfg(feature = "json")]
pub use crate::serde_json::*;

#[cfg(feature = "ron")]
mod serde_ron;
#[cfg(feature = "ron")]
pub use crate::serde_ron::*;

mod toml;
pub use crate::toml::*;
`;

/** The runtime's JSON module: the traits, the parser state and impls for many types (about 1,300 lines). */
function nanoRuntimeJson(): string {
  const impls = ['u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'u64', 'i64', 'usize', 'f32', 'f64']
    .map(
      (t) => `impl SerJson for ${t} {
    fn ser_json(&self, _d: usize, s: &mut SerJsonState) {
        s.out.push_str(&self.to_string());
    }
}

impl DeJson for ${t} {
    fn de_json(s: &mut DeJsonState, i: &mut Chars) -> Result<${t}, DeJsonErr> {
        let val = s.as_${t.startsWith('f') ? 'f64' : 'i64'}()?;
        s.next_tok(i)?;
        Ok(val as ${t})
    }
}
`,
    )
    .join('\n');
  return `use core::str::Chars;

use alloc::boxed::Box;
use alloc::collections::{BTreeMap, BTreeSet, LinkedList};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// The internal state of a JSON serialization.
pub struct SerJsonState {
    pub out: String,
}

impl SerJsonState {
    pub fn indent(&mut self, _d: usize) {}

    pub fn field(&mut self, d: usize, field: &str) {
        self.indent(d);
        self.out.push('"');
        self.out.push_str(field);
        self.out.push('"');
        self.out.push(':');
    }

    pub fn label(&mut self, label: &str) {
        self.out.push('"');
        self.out.push_str(label);
        self.out.push('"');
    }
}

/// A trait for objects that can be serialized to JSON.
pub trait SerJson {
    /// Serialize Self to a JSON string.
    fn serialize_json(&self) -> String {
        let mut s = SerJsonState { out: String::new() };
        self.ser_json(0, &mut s);
        s.out
    }

    /// Serialize Self to a JSON string.
    fn ser_json(&self, d: usize, s: &mut SerJsonState);
}

/// A trait for objects that can be deserialized from JSON.
pub trait DeJson: Sized {
    /// Parse Self from the input string.
    fn deserialize_json(input: &str) -> Result<Self, DeJsonErr> {
        let mut state = DeJsonState::default();
        let mut chars = input.chars();
        state.next(&mut chars);
        state.next_tok(&mut chars)?;
        DeJson::de_json(&mut state, &mut chars)
    }

    /// Parse Self from the input string.
    fn de_json(state: &mut DeJsonState, input: &mut Chars) -> Result<Self, DeJsonErr>;
}

/// A JSON parsed token.
#[derive(PartialEq, Debug, Default, Clone)]
pub enum DeJsonTok {
    Str,
    Char(char),
    U64(u64),
    I64(i64),
    F64(f64),
    Bool(bool),
    BareIdent,
    Null,
    Colon,
    CurlyOpen,
    CurlyClose,
    BlockOpen,
    BlockClose,
    Comma,
    #[default]
    Bof,
    Eof,
}

/// The internal state of a JSON deserialization.
#[derive(Default)]
pub struct DeJsonState {
    pub cur: char,
    pub tok: DeJsonTok,
    pub strbuf: String,
    pub numbuf: String,
    pub identbuf: String,
    pub line: usize,
    pub col: usize,
}

/// The error message when failing to deserialize a JSON string.
#[derive(Clone)]
pub struct DeJsonErr {
    pub msg: String,
    pub line: usize,
    pub col: usize,
}

impl core::fmt::Debug for DeJsonErr {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "Json Deserialize error: {}, line:{} col:{}", self.msg, self.line + 1, self.col + 1)
    }
}

impl DeJsonState {
    pub fn next(&mut self, i: &mut Chars) {
        if let Some(c) = i.next() {
            self.cur = c;
            if self.cur == '\\n' {
                self.line += 1;
                self.col = 0;
            } else {
                self.col += 1;
            }
        } else {
            self.cur = '\\0';
        }
    }

    pub fn err_exp(&self, name: &str) -> DeJsonErr {
        DeJsonErr {
            msg: format!("Unexpected key {}", name),
            line: self.line,
            col: self.col,
        }
    }

    pub fn err_nf(&self, name: &str) -> DeJsonErr {
        DeJsonErr {
            msg: format!("Key not found {}", name),
            line: self.line,
            col: self.col,
        }
    }

    pub fn err_enum(&self, name: &str) -> DeJsonErr {
        DeJsonErr {
            msg: format!("Enum not defined {}", name),
            line: self.line,
            col: self.col,
        }
    }

    pub fn next_tok(&mut self, i: &mut Chars) -> Result<(), DeJsonErr> {
        while self.cur == '\\n' || self.cur == '\\r' || self.cur == '\\t' || self.cur == ' ' {
            self.next(i);
        }
        Ok(())
    }

    pub fn as_i64(&mut self) -> Result<i64, DeJsonErr> {
        self.numbuf.parse::<i64>().map_err(|_| self.err_exp("number"))
    }

    pub fn as_f64(&mut self) -> Result<f64, DeJsonErr> {
        self.numbuf.parse::<f64>().map_err(|_| self.err_exp("number"))
    }
}

${impls}
${rustFns(55, 5800)}
impl<T> DeJson for Vec<T>
where
    T: DeJson,
{
    fn de_json(s: &mut DeJsonState, i: &mut Chars) -> Result<Vec<T>, DeJsonErr> {
        let mut out = Vec::new();
        s.next_tok(i)?;
        while s.tok != DeJsonTok::BlockClose {
            out.push(DeJson::de_json(s, i)?);
            s.next_tok(i)?;
        }
        Ok(out)
    }
}

impl<T> DeJson for Option<T>
where
    T: DeJson,
{
    fn de_json(s: &mut DeJsonState, i: &mut Chars) -> Result<Self, DeJsonErr> {
        if let DeJsonTok::Null = s.tok {
            s.next_tok(i)?;
            return Ok(None);
        }
        Ok(Some(DeJson::de_json(s, i)?))
    }
}

pub fn unused_containers(_a: BTreeMap<u8, u8>, _b: BTreeSet<u8>, _c: LinkedList<u8>, _d: Box<u8>) {}
`;
}

const NANO_DERIVE_LIB = `extern crate proc_macro;

#[macro_use]
mod shared;

mod parse;

#[cfg(feature = "binary")]
mod serde_bin;
#[cfg(feature = "binary")]
use crate::serde_bin::*;

#[cfg(feature = "ron")]
mod serde_ron;
#[cfg(feature = "ron")]
use crate::serde_ron::*;

#[cfg(feature = "json")]
mod serde_json;
#[cfg(feature = "json")]
use crate::serde_json::*;

#[cfg(feature = "binary")]
#[proc_macro_derive(SerBin, attributes(nserde))]
pub fn derive_ser_bin(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let input = parse::parse_data(input);

    if let Some(proxy) = shared::attrs_proxy(&input.attributes()) {
        return derive_ser_bin_proxy(&proxy, input.name());
    }

    // ok we have an ident, its either a struct or a enum
    match &input {
        parse::Data::Struct(struct_) => derive_ser_bin_struct(struct_),
        parse::Data::Enum(enum_) => derive_ser_bin_enum(enum_),
        parse::Data::Union(_) => unimplemented!("Unions are not supported"),
    }
}

#[cfg(feature = "binary")]
#[proc_macro_derive(DeBin, attributes(nserde))]
pub fn derive_de_bin(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let input = parse::parse_data(input);

    if let Some(proxy) = shared::attrs_proxy(&input.attributes()) {
        return derive_de_bin_proxy(&proxy, input.name());
    }

    match &input {
        parse::Data::Struct(struct_) => derive_de_bin_struct(struct_),
        parse::Data::Enum(enum_) => derive_de_bin_enum(enum_),
        parse::Data::Union(_) => unimplemented!("Unions are not supported"),
    }
}

#[cfg(feature = "json")]
#[proc_macro_derive(SerJson, attributes(nserde))]
pub fn derive_ser_json(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let input = parse::parse_data(input);

    if let Some(proxy) = shared::attrs_proxy(&input.attributes()) {
        return derive_ser_json_proxy(&proxy, input.name());
    }

    match &input {
        parse::Data::Struct(struct_) if struct_.named => derive_ser_json_struct(struct_),
        parse::Data::Struct(struct_) => derive_ser_json_struct_unnamed(struct_),
        parse::Data::Enum(enum_) => derive_ser_json_enum(enum_),
        parse::Data::Union(_) => unimplemented!("Unions are not supported"),
    }
}

#[cfg(feature = "json")]
#[proc_macro_derive(DeJson, attributes(nserde))]
pub fn derive_de_json(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let input = parse::parse_data(input);

    if let Some(proxy) = shared::attrs_proxy(&input.attributes()) {
        return derive_de_json_proxy(&proxy, input.name());
    }

    match &input {
        parse::Data::Struct(struct_) if struct_.named => derive_de_json_struct(struct_),
        parse::Data::Struct(struct_) => derive_de_json_struct_unnamed(struct_),
        parse::Data::Enum(enum_) => derive_de_json_enum(enum_),
        parse::Data::Union(_) => unimplemented!("Unions are not supported"),
    }
}
`;

/** A code-generating function of `n` `l!` lines, as nanoserde's derive functions are. */
function codegen(name: string, args: string, trait: string, n: number): string {
  const lines = Array.from(
    { length: n },
    (_, k) =>
      `    l!(r, "{} s.${['st_pre', 'field', 'conl', 'indent', 'st_post', 'label'][k % 6]}(d + ${k % 3}, \\"{}\\");", ${['json_fieldname', 'struct_fieldname', 'variant_name', 'type_'][k % 4]});`,
  ).join('\n');
  return `pub fn ${name}(${args}) -> TokenStream {
    let mut r = String::new();
    l!(r, "impl ${trait} for {} {{", type_);
${lines}
    l!(r, "}}");
    r.parse().unwrap()
}
`;
}

/** The derive crate's JSON module: code generation for each shape (about 900 lines). */
function nanoDeriveJson(): string {
  return `use alloc::format;
use alloc::string::String;

use crate::parse::{Enum, Field, Struct};
use crate::shared;

use proc_macro::TokenStream;

pub fn derive_ser_json_proxy(proxy_type: &str, type_: &str) -> TokenStream {
    format!(
        "impl SerJson for {} {{
            fn ser_json(&self, d: usize, s: &mut nanoserde::SerJsonState) {{
                let proxy: {} = self.into();
                proxy.ser_json(d, s);
            }}
        }}",
        type_, proxy_type
    )
    .parse()
    .unwrap()
}

pub fn derive_ser_json_struct(struct_: &Struct) -> TokenStream {
    let mut s = String::new();
    let mut field_names = vec![];
    for field in &struct_.fields {
        let struct_fieldname = field.field_name.clone().unwrap();
        let json_fieldname = shared::attrs_rename(&field.attributes).unwrap_or_else(|| struct_fieldname.clone());
        field_names.push(json_fieldname.clone());
        s.push_str(&format!("s.field(d+1, \\"{}\\"); self.{}.ser_json(d+1, s);", json_fieldname, struct_fieldname));
    }
    format!(
        "impl SerJson for {} {{ fn ser_json(&self, d: usize, s: &mut nanoserde::SerJsonState) {{ s.st_pre(); {} s.st_post(d); }} }}",
        struct_.name, s
    )
    .parse()
    .unwrap()
}

${codegen('derive_ser_json_enum_variants', 'enum_: &Enum, type_: &str', 'SerJson', 90)}
${codegen('derive_ser_json_struct_fields', 'struct_: &Struct, type_: &str', 'SerJson', 70)}
${rustFns(25, 6000)}
pub fn derive_de_json_named(name: &str, defaults: bool, fields: &[Field]) -> TokenStream {
    let mut local_vars = Vec::new();
    let mut struct_field_names = Vec::new();
    let mut json_field_names = Vec::new();
    let mut unwraps = Vec::new();

    let container_attr_default = defaults;

    for field in fields {
        let struct_fieldname = field.field_name.clone().unwrap();
        let localvar = format!("_{}", struct_fieldname);
        let field_attr_default = shared::attrs_default(&field.attributes);
        let field_attr_default_with = shared::attrs_default_with(&field.attributes);
        let default_val = if let Some(v) = field_attr_default {
            if let Some(mut val) = v {
                if field.ty.path == "String" {
                    val = format!("\\"{}\\".to_string()", val)
                }
                Some(val)
            } else {
                Some(String::from("Default::default()"))
            }
        } else if let Some(mut v) = field_attr_default_with {
            v.push_str("()");
            Some(v)
        } else {
            None
        };
        let json_fieldname = shared::attrs_rename(&field.attributes).unwrap_or(struct_fieldname.clone());

        if field.ty.is_option {
            unwraps.push(format!(
                "{{ if let Some(t) = {} {{ t }} else {{ None }} }}",
                localvar
            ));
        } else if container_attr_default {
            unwraps.push(format!(
                "{{ if let Some(t) = {} {{ t }} else {{ {} }} }}",
                localvar,
                default_val.unwrap_or_else(|| String::from("Default::default()"))
            ));
        } else {
            unwraps.push(format!(
                "{{ if let Some(t) = {} {{ t }} else {{ return Err(s.err_nf(\\"{}\\")) }} }}",
                localvar, struct_fieldname
            ));
        }

        struct_field_names.push(struct_fieldname);
        json_field_names.push(json_fieldname);
        local_vars.push(localvar);
    }

    let mut r = String::new();
    for (json_field_name, local_var) in json_field_names.iter().zip(local_vars.iter()) {
        r.push_str(&format!(
            "\\"{}\\" => {{ s.next_colon(i)?; {} = Some(DeJson::de_json(s, i)?) }},",
            json_field_name, local_var
        ));
    }

    let mut body = String::new();
    for (struct_field_name, unwrap) in struct_field_names.iter().zip(unwraps.iter()) {
        body.push_str(&format!("{}: {},", struct_field_name, unwrap));
    }

    format!(
        "{{ {} s.curly_open(i)?; while let Some(_) = s.next_str() {{ match AsRef::<str>::as_ref(&s.strbuf) {{ {} _ => {{ s.next_colon(i)?; s.whole_field(i)?; }} }} s.eat_comma_curly(i)? }} s.curly_close(i)?; {} {{ {} }} }}",
        local_vars.iter().map(|v| format!("let mut {} = None;", v)).collect::<String>(),
        r,
        name,
        body
    )
    .parse()
    .unwrap()
}

pub fn derive_de_json_proxy(proxy_type: &str, type_: &str) -> TokenStream {
    format!(
        "impl DeJson for {} {{
            #[allow(clippy::ignored_unit_patterns)]
            fn de_json(_s: &mut nanoserde::DeJsonState, i: &mut core::str::Chars) -> ::core::result::Result<Self, nanoserde::DeJsonErr> {{
                let proxy: {} = DeJson::deserialize_json(i)?;
                ::core::result::Result::Ok(Into::into(&proxy))
            }}
        }}",
        type_, proxy_type
    )
    .parse()
    .unwrap()
}

pub fn derive_de_json_struct(struct_: &Struct) -> TokenStream {
    let body = derive_de_json_named(
        &struct_.name,
        shared::attrs_default(&struct_.attributes).is_some()
            || shared::attrs_default_with(&struct_.attributes).is_some(),
        &struct_.fields[..],
    );

    format!(
        "impl DeJson for {} {{
            fn de_json(s: &mut nanoserde::DeJsonState, i: &mut core::str::Chars) -> ::core::result::Result<Self, nanoserde::DeJsonErr> {{
                ::core::result::Result::Ok({})
            }}
        }}",
        struct_.name, body
    )
    .parse()
    .unwrap()
}

pub fn derive_de_json_struct_unnamed(struct_: &Struct) -> TokenStream {
    format!("impl DeJson for {} {{ fn de_json(s: &mut nanoserde::DeJsonState, i: &mut core::str::Chars) -> ::core::result::Result<Self, nanoserde::DeJsonErr> {{ ::core::result::Result::Ok(Self(DeJson::de_json(s, i)?)) }} }}", struct_.name)
        .parse()
        .unwrap()
}

pub fn derive_ser_json_struct_unnamed(struct_: &Struct) -> TokenStream {
    format!("impl SerJson for {} {{ fn ser_json(&self, d: usize, s: &mut nanoserde::SerJsonState) {{ self.0.ser_json(d, s); }} }}", struct_.name)
        .parse()
        .unwrap()
}

pub fn derive_ser_json_enum(enum_: &Enum) -> TokenStream {
    let type_ = &enum_.name;
    derive_ser_json_enum_variants(enum_, type_)
}

${codegen('derive_de_json_enum', 'enum_: &Enum', 'DeJson', 110).replace('let mut r', 'let type_ = &enum_.name;\n    let mut r')}

${rustFns(30, 6100)}`;
}

const NANO_DERIVE_SHARED = `use alloc::string::String;

use crate::parse::Attribute;

macro_rules! l {
    ($target:ident, $line:expr) => {
        $target.push_str($line)
    };
}

pub fn attrs_proxy(attributes: &[Attribute]) -> Option<String> {
    attributes.iter().find_map(|attr| {
        if attr.tokens.len() == 2 && attr.tokens[0] == "proxy" {
            Some(attr.tokens[1].clone())
        } else {
            None
        }
    })
}

pub fn attrs_rename(attributes: &[Attribute]) -> Option<String> {
    attributes.iter().find_map(|attr| {
        if attr.tokens.len() == 2 && attr.tokens[0] == "rename" {
            Some(attr.tokens[1].clone())
        } else {
            None
        }
    })
}

pub fn attrs_default(attributes: &[Attribute]) -> Option<Option<String>> {
    attributes.iter().find_map(|attr| {
        if attr.tokens.len() == 1 && attr.tokens[0] == "default" {
            Some(None)
        } else if attr.tokens.len() == 2 && attr.tokens[0] == "default" {
            Some(Some(attr.tokens[1].clone()))
        } else {
            None
        }
    })
}

pub fn attrs_default_with(attributes: &[Attribute]) -> Option<String> {
    attributes.iter().find_map(|attr| {
        if attr.tokens.len() == 2 && attr.tokens[0] == "default_with" {
            Some(attr.tokens[1].clone())
        } else {
            None
        }
    })
}
`;

/** nanoserde's JSON tests: many derives and round trips, the failing one in the middle. */
function nanoJsonTests(): string {
  const before = Array.from(
    { length: 90 },
    (_, k) => `#[test]
fn de_case_${k}() {
    #[derive(DeJson, SerJson, PartialEq, Debug)]
    pub struct Test${k} {
        pub a: i32,
        pub b: Option<String>,
    }

    let json = r#"{ "a": ${k}, "b": "x" }"#;
    let test: Test${k} = DeJson::deserialize_json(json).unwrap();
    assert_eq!(test.a, ${k});
}
`,
  ).join('\n');
  return `#![cfg(feature = "json")]
use nanoserde::{DeJson, DeJsonErr, DeJsonTok, SerJson};

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, LinkedList};

${before}
#[test]
fn de_field_default() {
    #[derive(DeJson)]
    struct Foo {
        x: i32,
    }
    impl Default for Foo {
        fn default() -> Foo {
            Foo { x: 23 }
        }
    }

    #[derive(DeJson)]
    pub struct Test {
        a: i32,
        #[nserde(default)]
        foo: Foo,
        foo2: Foo,
        b: f32,
    }

    let json = r#"{
        "a": 1,
        "b": 2.,
        "foo2": { "x": 3 }
    }"#;

    let test: Test = DeJson::deserialize_json(json).unwrap();
    assert_eq!(test.a, 1);
    assert_eq!(test.b, 2.);
    assert_eq!(test.foo.x, 23);
    assert_eq!(test.foo2.x, 3);
}

#[test]
fn doctests() {
    /// This is test
    /// second doc comment
    #[derive(DeJson)]
    pub struct Test {
        /// with documented field
        pub a: i32,
    }
    let json = r#"{ "a": 1 }"#;
    let doc: Test = DeJson::deserialize_json(json).unwrap();
    assert_eq!(doc.a, 1);
}
`;
}

function nanoserdeFiles(): Record<string, string> {
  return {
    ...RS_NOISE,
    'Cargo.toml':
      '[package]\nname = "nanoserde"\nversion = "0.1.37"\nedition = "2018"\n\n[features]\ndefault = ["json", "binary", "ron", "toml", "std"]\njson = ["dep:nanoserde-derive", "nanoserde-derive/json"]\nbinary = ["dep:nanoserde-derive", "nanoserde-derive/binary"]\nron = ["dep:nanoserde-derive", "nanoserde-derive/ron"]\ntoml = []\nstd = []\n\n[dependencies]\nnanoserde-derive = { path = "derive", version = "=0.1.22", optional = true }\n',
    'src/lib.rs': NANO_LIB,
    'src/serde_json.rs': nanoRuntimeJson(),
    'src/serde_bin.rs': `use alloc::string::String;\n\n/// A trait for objects that can be serialized to binary.\npub trait SerBin {\n    fn ser_bin(&self, output: &mut Vec<u8>);\n}\n\n/// A trait for objects that can be deserialized from binary.\npub trait DeBin: Sized {\n    fn de_bin(offset: &mut usize, bytes: &[u8]) -> Result<Self, DeBinErr>;\n}\n\n/// A binary error.\npub struct DeBinErr {\n    pub msg: String,\n}\n\n${rustFns(60, 6200)}`,
    'src/serde_ron.rs': `use alloc::string::String;\n\n/// A trait for objects that can be serialized to RON.\npub trait SerRon {\n    fn ser_ron(&self, d: usize, s: &mut String);\n}\n\n/// A trait for objects that can be deserialized from RON.\npub trait DeRon: Sized {\n    fn de_ron(s: &str) -> Result<Self, String>;\n}\n\n${rustFns(60, 6300)}`,
    'src/toml.rs': `use alloc::string::String;\n\n/// A TOML parser.\npub struct TomlParser;\n\n${rustFns(45, 6400)}`,
    'derive/Cargo.toml':
      '[package]\nname = "nanoserde-derive"\nversion = "0.1.22"\nedition = "2018"\n\n[lib]\nproc-macro = true\n\n[features]\ndefault = []\njson = []\nbinary = []\nron = []\n',
    'derive/src/lib.rs': NANO_DERIVE_LIB,
    'derive/src/serde_json.rs': nanoDeriveJson(),
    'derive/src/serde_bin.rs': `use alloc::format;\nuse alloc::string::String;\n\nuse crate::parse::{Enum, Struct};\n\nuse proc_macro::TokenStream;\n\npub fn derive_ser_bin_proxy(proxy_type: &str, type_: &str) -> TokenStream {\n    format!("impl SerBin for {} {{}} // {}", type_, proxy_type).parse().unwrap()\n}\n\npub fn derive_ser_bin_struct(struct_: &Struct) -> TokenStream {\n    format!("impl SerBin for {} {{}}", struct_.name).parse().unwrap()\n}\n\npub fn derive_ser_bin_enum(enum_: &Enum) -> TokenStream {\n    format!("impl SerBin for {} {{}}", enum_.name).parse().unwrap()\n}\n\npub fn derive_de_bin_proxy(proxy_type: &str, type_: &str) -> TokenStream {\n    format!("impl DeBin for {} {{}} // {}", type_, proxy_type).parse().unwrap()\n}\n\npub fn derive_de_bin_struct(struct_: &Struct) -> TokenStream {\n    format!("impl DeBin for {} {{}}", struct_.name).parse().unwrap()\n}\n\npub fn derive_de_bin_enum(enum_: &Enum) -> TokenStream {\n    format!("impl DeBin for {} {{}}", enum_.name).parse().unwrap()\n}\n\n${rustFns(40, 6500)}`,
    'derive/src/serde_ron.rs': `use alloc::string::String;\n\nuse proc_macro::TokenStream;\n\n${rustFns(50, 6600)}`,
    'derive/src/shared.rs': NANO_DERIVE_SHARED,
    'derive/src/parse.rs': `//! Very limited rust parser\n\nuse alloc::string::String;\nuse alloc::vec::Vec;\n\nuse proc_macro::{Delimiter, Group, TokenStream, TokenTree};\n\n#[derive(Debug, Clone)]\npub struct Attribute {\n    pub name: String,\n    pub tokens: Vec<String>,\n}\n\n#[derive(Debug)]\npub struct Type {\n    pub path: String,\n    pub is_option: bool,\n}\n\n#[derive(Debug)]\npub struct Field {\n    pub attributes: Vec<Attribute>,\n    pub field_name: Option<String>,\n    pub ty: Type,\n}\n\n#[derive(Debug)]\npub struct Struct {\n    pub name: String,\n    pub named: bool,\n    pub fields: Vec<Field>,\n    pub attributes: Vec<Attribute>,\n}\n\n#[derive(Debug)]\npub struct Enum {\n    pub name: String,\n    pub variants: Vec<Field>,\n    pub attributes: Vec<Attribute>,\n}\n\n#[allow(clippy::large_enum_variant)]\n#[derive(Debug)]\npub enum Data {\n    Struct(Struct),\n    Enum(Enum),\n    Union(Struct),\n}\n\nimpl Data {\n    pub fn attributes(&self) -> &[Attribute] {\n        match self {\n            Data::Struct(s) | Data::Union(s) => &s.attributes,\n            Data::Enum(e) => &e.attributes,\n        }\n    }\n\n    pub fn name(&self) -> &str {\n        match self {\n            Data::Struct(s) | Data::Union(s) => &s.name,\n            Data::Enum(e) => &e.name,\n        }\n    }\n}\n\npub fn parse_data(input: TokenStream) -> Data {\n    let mut source = input.into_iter().peekable();\n    let attributes = get_attributes(&mut source);\n    let _ = Group::new(Delimiter::Brace, TokenStream::new());\n    let _: Option<TokenTree> = None;\n    Data::Struct(Struct { name: String::new(), named: true, fields: Vec::new(), attributes })\n}\n\nfn get_attributes(_source: &mut impl Iterator<Item = TokenTree>) -> Vec<Attribute> {\n    Vec::new()\n}\n\n${rustFns(90, 6700)}`,
    'tests/json.rs': nanoJsonTests(),
    'tests/bin.rs': `#![cfg(feature = "binary")]\nuse nanoserde::{DeBin, SerBin};\n\n#[test]\nfn binary() {\n    #[derive(DeBin, SerBin, PartialEq)]\n    pub struct Test {\n        pub a: i32,\n    }\n}\n`,
  };
}

const NANOSERDE_OUTPUT = `   Compiling nanoserde-derive v0.1.22 (/workspace/derive)
   Compiling nanoserde v0.1.37 (/workspace)
    Finished \`test\` profile [unoptimized + debuginfo] target(s) in 4.02s
     Running unittests src/lib.rs (target/debug/deps/nanoserde-3c1a4b6e)

running 0 tests

test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

     Running tests/json.rs (target/debug/deps/json-8f9e2d7a)

running 92 tests
${Array.from({ length: 90 }, (_, k) => `test de_case_${k} ... ok`).join('\n')}
test de_field_default ... FAILED
test doctests ... ok

failures:

---- de_field_default stdout ----
thread 'de_field_default' panicked at tests/json.rs:{{tests/json.rs#let test: Test = DeJson::deserialize_json(json).unwrap();}}:62:
called \`Result::unwrap()\` on an \`Err\` value: Json Deserialize error: Key not found foo, line:5 col:6
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace


failures:
    de_field_default

test result: FAILED. 91 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s

error: test failed, to rerun pass \`--test json\`
`;

/** The cases of this file. */
export const CHAIN_CASES: ContextCase[] = [
  {
    name: 'py test calls sqlparse.split; the fix three calls down, in the statement splitter',
    shape: 'package call into a deep function',
    language: 'python',
    files: sqlparseFiles(),
    directive: 'A transaction started with BEGIN TRANSACTION is not split from the statements after it.',
    output: SQLPARSE_OUTPUT,
    fix: [{ path: 'sqlparse/engine/statement_splitter.py', line: "if unified == 'BEGIN':" }],
  },
  {
    name: "go test calls toml.Decode; the fix in the lexer's number scanner, in a 1,200-line file",
    shape: 'package call into a deep function',
    language: 'go',
    files: tomlFiles(),
    directive: 'Integers with underscores (1_000_000) cannot be decoded.',
    output: `--- FAIL: TestDecodeIntegerWithUnderscores (0.00s)
    decode_test.go:{{decode_test.go#if _, err := toml.Decode("N = 1_000_000", &v); err != nil}}: toml: line 1: unexpected type at top level: item(19)
FAIL
FAIL\tgithub.com/BurntSushi/toml\t0.005s
FAIL
`,
    fix: [{ path: 'lex.go', line: '\t\tcase isDigit(r):' }],
  },
  {
    name: 'go test under test/issues/819 calls expr.Compile of the root package; the fix in checker/checker.go',
    shape: 'cross-package Go test',
    language: 'go',
    files: exprFiles(),
    directive: 'Fix issue #819: the predicate variable index cannot be used in map().',
    output: EXPR_OUTPUT,
    fix: [{ path: 'checker/checker.go', line: 'if variable, ok := v.lookupVariable(node.Value); ok {' }],
  },
  {
    name: "rust test derives DeJson; the fix in the derive crate's serde_json.rs, the runtime's holds the message",
    shape: 'derive sub-crate',
    language: 'rust',
    files: nanoserdeFiles(),
    directive: '#[nserde(default)] on a field is ignored unless the struct has it too.',
    output: NANOSERDE_OUTPUT,
    fix: [{ path: 'derive/src/serde_json.rs', line: '} else if container_attr_default {' }],
  },
];
