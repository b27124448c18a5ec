// Cases shaped after real fixes in big files and data-driven suites: the failing test names a method
// deep inside a 2,000-line class, a lexer's and a type checker's error messages name the construct,
// a traceback runs through a checker's methods, and data files name the language or message the code
// to fix handles.
import { goFuncs, jsMethods, pyHelpers, pyMethods } from './code.js';
import { noise, type ContextCase } from './shapes.js';

const JS_NOISE = noise('javascript', 'examples', 24);
const GO_NOISE = noise('go', 'internal/legacy', 24);
const PY_NOISE = noise('python', 'legacy', 24);

// ---------------------------------------------------------------------------------------------------
// JavaScript: a command-line library's 2,500-line class; the failing test calls configureOutput.

const COMMAND_HEAD = `const EventEmitter = require('node:events').EventEmitter;
const childProcess = require('node:child_process');
const path = require('node:path');
const fs = require('node:fs');
const process = require('node:process');

const { Argument, humanReadableArgName } = require('./argument.js');
const { CommanderError } = require('./error.js');
const { Help } = require('./help.js');
const { Option, DualOptions } = require('./option.js');
const { suggestSimilar } = require('./suggestSimilar');

class Command extends EventEmitter {
  /**
   * Initialize a new \`Command\`.
   *
   * @param {string} [name]
   */
  constructor(name) {
    super();
    /** @type {Command[]} */
    this.commands = [];
    /** @type {Option[]} */
    this.options = [];
    this.parent = null;
    this._allowUnknownOption = false;
    this._allowExcessArguments = true;
    /** @type {Argument[]} */
    this.registeredArguments = [];
    this._args = this.registeredArguments;
    this.args = [];
    this.rawArgs = [];
    this.processedArgs = [];
    this._scriptPath = null;
    this._name = name || '';
    this._optionValues = {};
    this._optionValueSources = {};
    this._storeOptionsAsProperties = false;
    this._actionHandler = null;
    this._executableHandler = false;
    this._executableFile = null;
    this._executableDir = null;
    this._defaultCommandName = null;
    this._exitCallback = null;
    this._aliases = [];
    this._combineFlagAndOptionalValue = true;
    this._description = '';
    this._summary = '';
    this._argsDescription = undefined;
    this._enablePositionalOptions = false;
    this._passThroughOptions = false;
    this._lifeCycleHooks = {};
    this._showHelpAfterError = false;
    this._showSuggestionAfterError = true;

    // see configureOutput() for docs
    this._outputConfiguration = {
      writeOut: (str) => process.stdout.write(str),
      writeErr: (str) => process.stderr.write(str),
      getOutHelpWidth: () => (process.stdout.isTTY ? process.stdout.columns : undefined),
      getErrHelpWidth: () => (process.stderr.isTTY ? process.stderr.columns : undefined),
      outputError: (str, write) => write(str),
    };

    this._hidden = false;
    this._helpOption = undefined;
    this._addImplicitHelpCommand = undefined;
    this._helpCommand = undefined;
    this._helpConfiguration = {};
  }

  /**
   * Copy settings that are useful to have in common across root command and subcommands.
   *
   * @param {Command} sourceCommand
   * @return {Command} \`this\` command for chaining
   */
  copyInheritedSettings(sourceCommand) {
    this._outputConfiguration = sourceCommand._outputConfiguration;
    this._helpOption = sourceCommand._helpOption;
    this._helpCommand = sourceCommand._helpCommand;
    this._helpConfiguration = sourceCommand._helpConfiguration;
    this._exitCallback = sourceCommand._exitCallback;
    this._storeOptionsAsProperties = sourceCommand._storeOptionsAsProperties;
    this._combineFlagAndOptionalValue = sourceCommand._combineFlagAndOptionalValue;
    this._allowExcessArguments = sourceCommand._allowExcessArguments;
    this._enablePositionalOptions = sourceCommand._enablePositionalOptions;
    this._showHelpAfterError = sourceCommand._showHelpAfterError;
    this._showSuggestionAfterError = sourceCommand._showSuggestionAfterError;
    return this;
  }

  /**
   * Define a command.
   *
   * @param {string} nameAndArgs - command name and arguments, args are \`<required>\` or \`[optional]\`
   * @param {(object | string)} [actionOptsOrExecDesc] - configuration options (for action), or description (for executable)
   * @param {object} [execOpts] - configuration options (for executable)
   * @return {Command} returns new command for action handler, or \`this\` for executable command
   */
  command(nameAndArgs, actionOptsOrExecDesc, execOpts) {
    let desc = actionOptsOrExecDesc;
    let opts = execOpts;
    if (typeof desc === 'object' && desc !== null) {
      opts = desc;
      desc = null;
    }
    opts = opts || {};
    const [, name, args] = nameAndArgs.match(/([^ ]+) *(.*)/);

    const cmd = this.createCommand(name);
    if (desc) {
      cmd.description(desc);
      cmd._executableHandler = true;
    }
    if (opts.isDefault) this._defaultCommandName = cmd._name;
    cmd._hidden = !!(opts.noHelp || opts.hidden);
    cmd._executableFile = opts.executableFile || null;
    if (args) cmd.arguments(args);
    this._registerCommand(cmd);
    cmd.parent = this;
    cmd.copyInheritedSettings(this);

    if (desc) return this;
    return cmd;
  }

  /**
   * Factory routine to create a new unattached command.
   *
   * @param {string} [name]
   * @return {Command} new command
   */
  createCommand(name) {
    return new Command(name);
  }
`;

const CONFIGURE_OUTPUT = `
  /**
   * You can customise the help with a subclass of Help by overriding createHelp,
   * or by overriding Help properties using configureHelp().
   *
   * @param {object} [configuration] - configuration options
   * @return {(Command | object)} \`this\` command for chaining, or stored configuration
   */
  configureHelp(configuration) {
    if (configuration === undefined) return this._helpConfiguration;

    this._helpConfiguration = configuration;
    return this;
  }

  /**
   * The default output goes to stdout and stderr. You can customise this for special
   * applications. You can also customise the display of errors by overriding outputError.
   *
   * The configuration properties are all functions:
   *
   *     // functions to change where being written, stdout and stderr
   *     writeOut(str)
   *     writeErr(str)
   *     // matching functions to specify width for wrapping help
   *     getOutHelpWidth()
   *     getErrHelpWidth()
   *     // functions based on what is being written out
   *     outputError(str, write) // used for displaying errors, and not used for displaying help
   *
   * @param {object} [configuration] - configuration options
   * @return {(Command | object)} \`this\` command for chaining, or stored configuration
   */
  configureOutput(configuration) {
    if (configuration === undefined) return this._outputConfiguration;

    Object.assign(this._outputConfiguration, configuration);
    return this;
  }
`;

const COMMAND_TAIL = `
  /**
   * Register callback to use as replacement for calling process.exit.
   *
   * @param {Function} [fn] optional callback which will be passed a CommanderError, defaults to throwing
   * @return {Command} \`this\` command for chaining
   */
  exitOverride(fn) {
    if (fn) {
      this._exitCallback = fn;
    } else {
      this._exitCallback = (err) => {
        if (err.code !== 'commander.executeSubCommandAsync') {
          throw err;
        }
      };
    }
    return this;
  }

  /**
   * Call process.exit, and _exitCallback if defined.
   *
   * @param {number} exitCode exit code for using with process.exit
   * @param {string} code an id string representing the error
   * @param {string} message human-readable description of the error
   * @private
   */
  _exit(exitCode, code, message) {
    if (this._exitCallback) {
      this._exitCallback(new CommanderError(exitCode, code, message));
    }
    process.exit(exitCode);
  }

  /**
   * Parse \`argv\`, setting options and invoking commands when defined.
   *
   * @param {string[]} [argv] - optional, defaults to process.argv
   * @param {object} [parseOptions] - optionally specify style of options with from: node/user/electron
   * @return {Command} \`this\` command for chaining
   */
  parse(argv, parseOptions) {
    const userArgs = this._prepareUserArgs(argv, parseOptions);
    this._parseCommand([], userArgs);
    return this;
  }

  /**
   * Unknown option \`flag\`.
   *
   * @param {string} flag
   * @private
   */
  unknownOption(flag) {
    if (this._allowUnknownOption) return;
    let suggestion = '';
    if (flag.startsWith('--') && this._showSuggestionAfterError) {
      const candidateFlags = this.options.map((option) => option.long).filter(Boolean);
      suggestion = suggestSimilar(flag, candidateFlags);
    }
    const message = \`error: unknown option '\${flag}'\${suggestion}\`;
    this.error(message, { code: 'commander.unknownOption' });
  }

  /**
   * Display error message and exit (or call exitOverride).
   *
   * @param {string} message
   * @param {object} [errorOptions]
   */
  error(message, errorOptions) {
    this._outputConfiguration.outputError(\`\${message}\\n\`, this._outputConfiguration.writeErr);
    const config = errorOptions || {};
    const exitCode = config.exitCode || 1;
    const code = config.code || 'commander.error';
    this._exit(exitCode, code, message);
  }
}

exports.Command = Command;
`;

const COMMAND_JS = `${COMMAND_HEAD}\n${jsMethods(55)}${CONFIGURE_OUTPUT}\n${jsMethods(60, 55)}${COMMAND_TAIL}`;

const COMMANDER_TEST = `const commander = require('../');

test('when default writeErr() then error on stderr', () => {
  const writeSpy = jest.spyOn(process.stderr, 'write').mockImplementation(() => {});
  const program = new commander.Command();
  program.exitOverride();
  expect(() => {
    program.parse(['--unknown'], { from: 'user' });
  }).toThrow();
  expect(writeSpy).toHaveBeenCalledTimes(1);
  writeSpy.mockClear();
});

test('when custom writeErr() then error on writeErr() only', () => {
  const writeErr = jest.fn();
  const program = new commander.Command();
  program.exitOverride().configureOutput({ writeErr });
  expect(() => {
    program.parse(['--unknown'], { from: 'user' });
  }).toThrow();
  expect(writeErr).toHaveBeenCalledTimes(1);
});

test('when configureOutput on a sub-command then the parent keeps its writeErr', () => {
  const parentWriteErr = jest.fn();
  const subWriteErr = jest.fn();
  const program = new commander.Command();
  program.exitOverride().configureOutput({ writeErr: parentWriteErr });
  const sub = program.command('sub');
  sub.configureOutput({ writeErr: subWriteErr });
  expect(() => {
    program.parse(['--unknown'], { from: 'user' });
  }).toThrow();
  expect(parentWriteErr).toHaveBeenCalledTimes(1);
  expect(subWriteErr).not.toHaveBeenCalled();
});
`;

const COMMANDER_INDEX = `const { Argument } = require('./lib/argument.js');
const { Command } = require('./lib/command.js');
const { CommanderError, InvalidArgumentError } = require('./lib/error.js');
const { Help } = require('./lib/help.js');
const { Option } = require('./lib/option.js');

exports.program = new Command();

exports.createCommand = (name) => new Command(name);
exports.createOption = (flags, description) => new Option(flags, description);
exports.createArgument = (name, description) => new Argument(name, description);

/**
 * Expose classes
 */

exports.Command = Command;
exports.Option = Option;
exports.Argument = Argument;
exports.Help = Help;

exports.CommanderError = CommanderError;
exports.InvalidArgumentError = InvalidArgumentError;
exports.InvalidOptionArgumentError = InvalidArgumentError; // Deprecated
`;

function jsLibClass(name: string, n: number, from: number): string {
  return `/**\n * ${name}.\n */\nclass ${name} {\n  constructor(name) {\n    this._name = name;\n    this.commands = [];\n  }\n\n${jsMethods(n, from)}}\n\nexports.${name} = ${name};\n`;
}

// ---------------------------------------------------------------------------------------------------
// Go: a lexer of state functions; a table-driven test's subtest fails with the wrong error message.

const LEXER_HEAD = `package lexer

import (
	"fmt"
	"strings"
	"unicode"
)

// TokenKind says what a token is.
type TokenKind int

// The kinds of tokens.
const (
	TokEOF TokenKind = iota
	TokIdent
	TokNumber
	TokString
	TokRawString
	TokPunct
	TokComment
)

const eof = -1

// Token is one token of the input.
type Token struct {
	Kind TokenKind
	Text string
	Pos  int
}

type stateFn func(*lexer) stateFn

type lexer struct {
	input  string
	start  int
	pos    int
	width  int
	tokens []Token
	err    error
}

// Lex splits input into tokens.
func Lex(input string) ([]Token, error) {
	l := &lexer{input: input}
	for state := lexText; state != nil; {
		state = state(l)
	}
	return l.tokens, l.err
}

func (l *lexer) next() rune {
	if l.pos >= len(l.input) {
		l.width = 0
		return eof
	}
	r := rune(l.input[l.pos])
	l.width = 1
	l.pos += l.width
	return r
}

func (l *lexer) backup() { l.pos -= l.width }

func (l *lexer) emit(k TokenKind) {
	l.tokens = append(l.tokens, Token{Kind: k, Text: l.input[l.start:l.pos], Pos: l.start})
	l.start = l.pos
}

func (l *lexer) errorf(format string, args ...any) stateFn {
	l.err = fmt.Errorf(format, args...)
	return nil
}

func lexText(l *lexer) stateFn {
	switch r := l.next(); {
	case r == eof:
		l.emit(TokEOF)
		return nil
	case r == '"':
		return lexString
	case r == '\`':
		return lexRawString
	case r == '/' && strings.HasPrefix(l.input[l.pos:], "*"):
		return lexBlockComment
	case unicode.IsDigit(r):
		return lexNumber
	case unicode.IsLetter(r) || r == '_':
		return lexIdent
	case unicode.IsSpace(r):
		l.start = l.pos
		return lexText
	default:
		l.emit(TokPunct)
		return lexText
	}
}
`;

const LEXER_STRINGS = `
func lexString(l *lexer) stateFn {
	for {
		switch l.next() {
		case '\\\\':
			if r := l.next(); r != eof && r != '\\n' {
				break
			}
			fallthrough
		case eof, '\\n':
			return l.errorf("unterminated string literal")
		case '"':
			l.emit(TokString)
			return lexText
		}
	}
}

func lexNumber(l *lexer) stateFn {
	for unicode.IsDigit(l.next()) {
	}
	l.backup()
	l.emit(TokNumber)
	return lexText
}

func lexIdent(l *lexer) stateFn {
	for r := l.next(); unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'; r = l.next() {
	}
	l.backup()
	l.emit(TokIdent)
	return lexText
}
`;

const LEXER_RAW = `
func lexRawString(l *lexer) stateFn {
	for {
		switch l.next() {
		case eof:
			return l.errorf("unexpected EOF")
		case '\`':
			l.emit(TokRawString)
			return lexText
		}
	}
}

func lexBlockComment(l *lexer) stateFn {
	i := strings.Index(l.input[l.pos:], "*/")
	if i < 0 {
		return l.errorf("unexpected EOF in comment")
	}
	l.pos += i + 2
	l.emit(TokComment)
	return lexText
}
`;

const LEXER_TEST = `package lexer

import "testing"

func TestLexTokens(t *testing.T) {
	toks, err := Lex("a = 1")
	if err != nil || len(toks) != 4 {
		t.Fatalf("Lex = %v, %v", toks, err)
	}
}

func TestLexErrors(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  string
	}{
		{"unterminated string", \`"abc\`, "unterminated string literal"},
		{"unterminated raw string", "\`abc", "unterminated raw string literal"},
		{"unterminated comment", "/* abc", "unterminated comment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Lex(tt.input)
			if err == nil || err.Error() != tt.want {
				t.Errorf("Lex(%q) error = %v, want %q", tt.input, err, tt.want)
			}
		})
	}
}
`;

// ---------------------------------------------------------------------------------------------------
// Go: a type checker 1,300 lines long; the wrong (missing) error is for a binary operator.

const CHECKER_HEAD = `package checker

import (
	"fmt"

	"example.com/expr/ast"
	"example.com/expr/conf"
)

// Type is the type of an expression.
type Type interface{ String() string }

type basic string

func (b basic) String() string { return string(b) }

var (
	unknownType Type = basic("unknown")
	intType     Type = basic("int")
	floatType   Type = basic("float")
	stringType  Type = basic("string")
	boolType    Type = basic("bool")
	nilType     Type = basic("nil")
)

type checker struct {
	config *conf.Config
	errs   []error
}

// Check checks the types of the tree and returns the type of its root.
func Check(tree *ast.Tree, config *conf.Config) (Type, error) {
	if config == nil {
		config = conf.New()
	}
	v := &checker{config: config}
	t := v.visit(tree.Node)
	if len(v.errs) > 0 {
		return nil, v.errs[0]
	}
	return t, nil
}

func (v *checker) visit(node ast.Node) Type {
	switch n := node.(type) {
	case *ast.NilNode:
		return nilType
	case *ast.IntegerNode:
		return intType
	case *ast.FloatNode:
		return floatType
	case *ast.StringNode:
		return stringType
	case *ast.UnaryNode:
		return v.UnaryNode(n)
	case *ast.BinaryNode:
		return v.BinaryNode(n)
	default:
		return v.error(node, "unexpected node %T", node)
	}
}

func (v *checker) error(node ast.Node, format string, args ...any) Type {
	v.errs = append(v.errs, fmt.Errorf(format+" (%v)", append(args, node.Location())...))
	return unknownType
}

func isNumber(t Type) bool { return t == intType || t == floatType }

func isString(t Type) bool { return t == stringType }

func combined(l, r Type) Type {
	if l == floatType || r == floatType {
		return floatType
	}
	return intType
}
`;

const CHECKER_OPERATORS = `
// UnaryNode checks -x, +x and !x.
func (v *checker) UnaryNode(node *ast.UnaryNode) Type {
	t := v.visit(node.Node)
	switch node.Operator {
	case "!", "not":
		if t == boolType {
			return boolType
		}
	case "+", "-":
		if isNumber(t) {
			return t
		}
	}
	return v.error(node, \`invalid operation: %v (mismatched type %v)\`, node.Operator, t)
}

// BinaryNode checks x op y.
func (v *checker) BinaryNode(node *ast.BinaryNode) Type {
	l := v.visit(node.Left)
	r := v.visit(node.Right)
	switch node.Operator {
	case "==", "!=":
		return boolType
	case "+":
		if isNumber(l) && isNumber(r) {
			return combined(l, r)
		}
		if isString(l) || isString(r) {
			return stringType
		}
	case "-", "*", "/", "%":
		if isNumber(l) && isNumber(r) {
			return combined(l, r)
		}
	case "<", ">", "<=", ">=":
		if isNumber(l) && isNumber(r) || isString(l) && isString(r) {
			return boolType
		}
	case "and", "or", "&&", "||":
		if l == boolType && r == boolType {
			return boolType
		}
	}
	return v.error(node, \`invalid operation: %v (mismatched types %v and %v)\`, node.Operator, l, r)
}
`;

const CHECKER_TEST = `package checker_test

import (
	"testing"

	"example.com/expr/checker"
	"example.com/expr/parser"
)

func TestCheck(t *testing.T) {
	for _, input := range []string{"1 + 2", "1.5 * 2", "'a' + 'b'"} {
		tree, err := parser.Parse(input)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := checker.Check(tree, nil); err != nil {
			t.Errorf("Check(%q): %v", input, err)
		}
	}
}

func TestCheck_error(t *testing.T) {
	tests := []struct{ input, err string }{
		{\`-"a"\`, "invalid operation: - (mismatched type string) (1:1)"},
		{\`1 + "a"\`, "invalid operation: + (mismatched types int and string) (1:3)"},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			tree, err := parser.Parse(tt.input)
			if err != nil {
				t.Fatal(err)
			}
			_, err = checker.Check(tree, nil)
			if err == nil || err.Error() != tt.err {
				t.Errorf("Check(%q) = %v, want error %q", tt.input, err, tt.err)
			}
		})
	}
}
`;

// ---------------------------------------------------------------------------------------------------
// Python: a checker class of 3,000 lines; the traceback runs through four of its methods.

const VARIABLES_HEAD = `"""Variables checkers for Python code."""
from __future__ import annotations

import collections
import itertools

from astroid import nodes

from pylint.checkers import BaseChecker, utils
from pylint.checkers.utils import in_type_checking_block, overridden_method
from pylint.interfaces import HIGH, INFERENCE, INFERENCE_FAILURE

PYMETHODS = {"__init__", "__new__", "__call__", "__getattr__", "__setattr__", "__repr__"}

MSGS = {
    "W0612": (
        "Unused variable %r",
        "unused-variable",
        "Used when a variable is defined but not used.",
    ),
    "W0613": (
        "Unused argument %r",
        "unused-argument",
        "Used when a function or method argument is not used.",
    ),
}


class VariablesChecker(BaseChecker):
    """Checks for unused variables and arguments, undefined names, redefinitions."""

    name = "variables"
    msgs = MSGS

    def __init__(self, linter=None):
        super().__init__(linter)
        self._to_consume = []
        self._seen = {}
        self.stats = {}

`;

const VARIABLES_LEAVE = `
    def leave_functiondef(self, node: nodes.FunctionDef) -> None:
        """Leave function: check function's locals are consumed."""
        self._check_metaclasses(node)
        if node.type_comment_returns:
            self._store_type_annotation_names(node)
        not_consumed = self._to_consume.pop().to_consume
        if not (self.linter.is_message_enabled("unused-variable")
                or self.linter.is_message_enabled("unused-argument")):
            return
        if utils.is_error(node):
            return
        is_method = node.is_method()
        if is_method and node.is_abstract():
            return
        global_names = _flattened_scope_names(node.nodes_of_class(nodes.Global))
        nonlocal_names = _flattened_scope_names(node.nodes_of_class(nodes.Nonlocal))
        comprehension_target_names = set()
        for name, stmts in not_consumed.items():
            self._check_is_unused(name, node, stmts[0], global_names, nonlocal_names, comprehension_target_names)
`;

const VARIABLES_UNUSED = `
    def _check_is_unused(self, name, node, stmt, global_names, nonlocal_names, comprehension_target_names):
        if name in global_names:
            return
        if name in nonlocal_names:
            return
        if name in comprehension_target_names:
            return
        argnames = node.argnames()
        if name in argnames:
            self._check_unused_arguments(name, node, stmt, argnames, nonlocal_names)
        else:
            if stmt.parent and isinstance(stmt.parent, (nodes.Assign, nodes.AnnAssign)):
                if name in nonlocal_names:
                    return
            self.add_message("unused-variable", args=name, node=stmt)

    def _check_unused_arguments(self, name, node, stmt, argnames, nonlocal_names):
        is_method = node.is_method()
        klass = node.parent.frame()
        if is_method and isinstance(klass, nodes.ClassDef):
            confidence = INFERENCE if utils.has_known_bases(klass) else INFERENCE_FAILURE
        else:
            confidence = HIGH
        if is_method:
            if node.name in PYMETHODS and node.name not in ("__init__", "__new__"):
                return
            overridden = overridden_method(klass, node.name)
            if overridden is not None and name in overridden.argnames():
                return
        self.add_message("unused-argument", args=name, node=stmt, confidence=confidence)
`;

const CHECKER_UTILS = `"""Helpers of the checkers."""
from astroid import nodes


def has_known_bases(klass, context=None):
    """Whether every base class of klass is known."""
    try:
        return klass._all_bases_known
    except AttributeError:
        pass
    for base in klass.bases:
        result = base.inferred()
        if not result:
            klass._all_bases_known = False
            return False
    klass._all_bases_known = True
    return True


def overridden_method(klass, name):
    """Get overridden method if any."""
    try:
        parent = next(klass.local_attr_ancestors(name))
    except (StopIteration, KeyError):
        return None
    try:
        meth_node = parent[name]
    except KeyError:
        return None
    if isinstance(meth_node, nodes.FunctionDef):
        return meth_node
    return None


def in_type_checking_block(node):
    """Whether node is guarded by an \`if TYPE_CHECKING\` block."""
    return any(getattr(a, "is_typing_guard", lambda: False)() for a in node.node_ancestors())


def is_error(node):
    """Whether the function does nothing but raise an exception."""
    return len(node.body) == 1 and isinstance(node.body[0], nodes.Raise)


${pyHelpers(40, 1100)}`;

const VARIABLES_PY = `${VARIABLES_HEAD}${pyMethods(120, 1200)}${VARIABLES_LEAVE}\n${pyMethods(60, 1320)}${VARIABLES_UNUSED}\n${pyMethods(40, 1400)}\n\ndef _flattened_scope_names(iterator):\n    values = (set(stmt.names) for stmt in iterator)\n    return set(itertools.chain.from_iterable(values))\n\n\ndef register(linter):\n    linter.register_checker(VariablesChecker(linter))\n`;

const VARIABLES_TEST = `import astroid

from pylint.checkers import variables
from pylint.testutils import CheckerTestCase


class TestVariablesChecker(CheckerTestCase):
    CHECKER_CLASS = variables.VariablesChecker

    def test_all_elements_without_parent(self) -> None:
        node = astroid.extract_node("__all__ = []")
        node.value.elts.append(astroid.Const("test"))
        root = node.root()
        with self.assertNoMessages():
            self.checker.visit_module(root)
            self.checker.leave_module(root)

    def test_unused_argument_of_a_method_in_a_function(self) -> None:
        node = astroid.extract_node(
            """
def outer():
    class Inner:
        def method(self, value):  #@
            return 1
"""
        )
        self.checker.visit_functiondef(node)
        with self.assertAddsMessages():
            self.checker.leave_functiondef(node)
`;

// ---------------------------------------------------------------------------------------------------
// JavaScript: a syntax highlighter whose tests are data files, one directory per language.

const PRISM_LANGS = [
  'javascript', 'java', 'javadoc', 'javastacktrace', 'json', 'jsonp', 'kotlin', 'python', 'ruby', 'rust', 'go', 'c',
  'cpp', 'csharp', 'scala', 'swift', 'typescript', 'markup', 'css', 'clike', 'abap', 'abnf', 'actionscript', 'ada',
  'agda', 'antlr4', 'apacheconf', 'apex', 'apl', 'applescript', 'aql', 'arduino', 'arff', 'asciidoc', 'aspnet',
  'asm6502', 'autohotkey', 'autoit', 'bash', 'basic', 'batch', 'bbcode', 'bicep', 'bison', 'bnf', 'brainfuck',
  'bsl', 'cfscript', 'cil', 'clojure', 'cmake', 'cobol', 'coffeescript', 'coq', 'crystal', 'csp', 'csv', 'cypher',
  'dart', 'dax', 'dhall', 'diff', 'django', 'docker', 'dot', 'ebnf', 'editorconfig', 'eiffel', 'ejs', 'elixir',
  'elm', 'erb', 'erlang', 'factor', 'flow', 'fortran', 'fsharp', 'ftl', 'gap', 'gcode', 'gdscript', 'gherkin', 'git',
  'glsl', 'gml', 'graphql', 'groovy', 'haml', 'handlebars', 'haskell', 'haxe', 'hcl', 'hlsl', 'http', 'icon',
  'idris', 'ignore', 'ini', 'jexl', 'jolie', 'jq', 'jsdoc', 'json5', 'jsx', 'julia', 'kusto', 'latex', 'less',
  'lilypond', 'liquid', 'lisp', 'livescript', 'llvm', 'log', 'lua', 'makefile', 'markdown', 'matlab', 'mermaid',
  'mongodb', 'nasm', 'nginx', 'nim', 'nix', 'nsis', 'objectivec', 'ocaml', 'opencl', 'pascal', 'perl', 'php',
  'plsql', 'powershell', 'prolog', 'promql', 'properties', 'protobuf', 'pug', 'puppet', 'purescript', 'qml', 'r',
  'racket', 'reason', 'regex', 'rego', 'rest', 'sas', 'sass', 'scheme', 'scss', 'smalltalk', 'solidity', 'sparql',
  'sql', 'stylus', 'tcl', 'textile', 'toml', 'tsx', 'twig', 'vala', 'vbnet', 'verilog', 'vhdl', 'vim', 'wasm',
  'wiki', 'xquery', 'yaml', 'zig',
]; // prettier-ignore

function prismComponent(lang: string, k: number): string {
  return `Prism.languages.${lang.replace(/[^a-z]/g, '')} = Prism.languages.extend('clike', {
	'keyword': /\\b(?:${['if', 'else', 'for', 'while', 'return', 'fn', 'func', 'def', 'class'].slice(0, 3 + (k % 6)).join('|')})\\b/,
	'number': /\\b0x[\\da-f]+\\b|(?:\\b\\d+(?:\\.\\d*)?|\\B\\.\\d+)(?:e[+-]?\\d+)?/i,
	'operator': /[-+*\\/%=!<>&|^~?:]+/,
	'comment': {
		pattern: /(^|[^\\\\])\\/\\*[\\s\\S]*?(?:\\*\\/|$)/,
		lookbehind: true,
		greedy: true
	}
});
`;
}

const PRISM_JAVA = `(function (Prism) {

	var keywords = /\\b(?:abstract|assert|boolean|break|byte|case|catch|char|class|const|continue|default|do|double|else|enum|exports|extends|final|finally|float|for|goto|if|implements|import|instanceof|int|interface|long|module|native|new|non-sealed|null|open|opens|package|permits|private|protected|provides|public|record(?!\\s*[(){}[\\]<>=%~.:,;?+\\-*/&|^])|requires|return|sealed|short|static|strictfp|super|switch|synchronized|this|throw|throws|to|transient|transitive|try|uses|var|void|volatile|while|with|yield)\\b/;

	// full package (optional) + parent classes (optional)
	var classNamePrefix = /(?:[a-z]\\w*\\s*\\.\\s*)*(?:[A-Z]\\w*\\s*\\.\\s*)*/.source;

	// based on the java naming conventions
	var className = {
		pattern: RegExp(/(^|[^\\w.])/.source + classNamePrefix + /[A-Z](?:[\\d_A-Z]*[a-z]\\w*)?\\b/.source),
		lookbehind: true,
		inside: {
			'namespace': {
				pattern: /^[a-z]\\w*(?:\\s*\\.\\s*[a-z]\\w*)*(?:\\s*\\.)?/,
				inside: {
					'punctuation': /\\./
				}
			},
			'punctuation': /\\./
		}
	};

	Prism.languages.java = Prism.languages.extend('clike', {
		'string': {
			pattern: /(^|[^\\\\])"(?:\\\\.|[^"\\\\\\r\\n])*"/,
			lookbehind: true,
			greedy: true
		},
		'class-name': [
			className,
			{
				pattern: RegExp(/(^|[^\\w.])/.source + classNamePrefix + /[A-Z]\\w*(?=\\s+\\w+\\s*[;,=()]|\\s*(?:\\[[\\s,]*\\]\\s*)?::\\s*new\\b)/.source),
				lookbehind: true,
				inside: className.inside
			}
		],
		'keyword': keywords,
		'function': [
			Prism.languages.clike.function,
			{
				pattern: /(::\\s*)[a-z_]\\w*/,
				lookbehind: true
			}
		],
		'number': /\\b0b[01][01_]*L?\\b|\\b0x(?:\\.[\\da-f_p+-]+|[\\da-f_]+(?:\\.[\\da-f_p+-]+)?)\\b|(?:\\b\\d[\\d_]*(?:\\.[\\d_]*)?|\\B\\.\\d[\\d_]*)(?:e[+-]?\\d[\\d_]*)?[dfl]?/i,
		'operator': {
			pattern: /(^|[^.])(?:<<=?|>>>?=?|->|--|\\+\\+|&&|\\|\\||::|[?:~]|[-+*/%&|^!=<>]=?)/m,
			lookbehind: true
		}
	});

	Prism.languages.insertBefore('java', 'string', {
		'triple-quoted-string': {
			// http://openjdk.java.net/jeps/355#Description
			pattern: /"""[ \\t]*[\\r\\n](?:(?:"|"")?(?:\\\\.|[^"\\\\]))*"""/,
			greedy: true,
			alias: 'string'
		},
		'char': {
			pattern: /'(?:\\\\.|[^'\\\\\\r\\n]){1,6}'/,
			greedy: true
		}
	});

}(Prism));
`;

const PRISM_RUN = `'use strict';

const TestDiscovery = require('./helper/test-discovery');
const TestCase = require('./helper/test-case');
const path = require('path');
const { argv } = require('yargs');

const testSuite = argv.language
	? TestDiscovery.loadSomeTests(path.join(__dirname, 'languages'), argv.language)
	: TestDiscovery.loadAllTests(path.join(__dirname, 'languages'));

for (const [languageIdentifier, files] of testSuite) {
	describe("Testing language '" + languageIdentifier + "'", function () {
		this.timeout(10000);

		for (const filePath of files) {
			const fileName = path.basename(filePath, path.extname(filePath));

			it("– should pass test case '" + fileName + "'", function () {
				TestCase.runTestCase(languageIdentifier, filePath, argv.update ? 'update' : 'insert');
			});
		}
	});
}
`;

const PRISM_TEST_CASE = `'use strict';

const fs = require('fs');
const { assert } = require('chai');
const PrismLoader = require('./prism-loader');
const TokenStreamTransformer = require('./token-stream-transformer');

module.exports = {
	runTestCase(languageIdentifier, filePath, updateMode) {
		const testCase = this.parseTestCaseFile(filePath);
		const usedLanguages = this.parseLanguageNames(languageIdentifier);
		const Prism = PrismLoader.createInstance(usedLanguages.languages);
		const env = { code: testCase.code, grammar: Prism.languages[usedLanguages.mainLanguage] };
		const compiledTokenStream = Prism.tokenize(env.code, env.grammar);
		const simplifiedTokenStream = TokenStreamTransformer.simplify(compiledTokenStream);
		const actual = JSON.stringify(simplifiedTokenStream);
		const expected = JSON.stringify(testCase.expectedTokenStream);
		if (actual === expected) {
			return;
		}
		const message = '\\nThe expected token stream of ' + filePath + ' differs from the actual token stream.';
		assert.deepEqual(simplifiedTokenStream, testCase.expectedTokenStream, message);
	},

	parseLanguageNames(languageIdentifier) {
		const languages = languageIdentifier.split('+');
		return { languages, mainLanguage: languages[languages.length - 1] };
	},

	parseTestCaseFile(filePath) {
		const testCaseSource = fs.readFileSync(filePath, 'utf8');
		const [code, expected] = testCaseSource.split(/^-{10,}[ \\t]*$/m);
		return { code: code.trim(), expectedTokenStream: expected ? JSON.parse(expected) : null };
	},
};
`;

/** A highlighter's tree: a component per language, a data-file test suite per language, its runner. */
export function prismFiles(): Record<string, string> {
  const files: Record<string, string> = {
    'package.json': '{ "name": "prismjs", "scripts": { "test": "mocha tests/run.js" } }\n',
    'components.json': `{ "languages": { ${PRISM_LANGS.map((l) => `"${l}": { "title": "${l}" }`).join(', ')} } }\n`,
    'prism-core.js': `var Prism = (function () {\n${jsMethods(30, 2000).replace(/^ {2}(\w+)\(name\) \{/gm, '  function $1(name) {')}\n  return { languages: {}, tokenize: function () { return []; } };\n}());\n`,
    'tests/run.js': PRISM_RUN,
    'tests/helper/test-case.js': PRISM_TEST_CASE,
    'tests/helper/test-discovery.js':
      "'use strict';\n\nconst fs = require('fs');\nconst path = require('path');\n\nmodule.exports = {\n  loadAllTests(root) {\n    return new Map(fs.readdirSync(root).map((l) => [l, fs.readdirSync(path.join(root, l)).map((f) => path.join(root, l, f))]));\n  },\n};\n",
    'tests/helper/prism-loader.js':
      "'use strict';\n\nmodule.exports = {\n  createInstance(languages) {\n    return require('../../prism-core.js');\n  },\n};\n",
    'tests/helper/token-stream-transformer.js':
      "'use strict';\n\nmodule.exports = {\n  simplify(tokens) {\n    return tokens;\n  },\n};\n",
  };
  PRISM_LANGS.forEach((l, k) => {
    if (l !== 'java') files[`components/prism-${l}.js`] = prismComponent(l, k);
    files[`components/prism-${l}.min.js`] =
      `Prism.languages.${l.replace(/[^a-z]/g, '')}=Prism.languages.extend("clike",{});`;
    for (const t of ['comment_feature', 'string_feature', 'keyword_feature']) {
      files[`tests/languages/${l}/${t}.test`] =
        `"a" /* b */ 1\n\n----------------------------------------------------\n\n[\n\t["string", "\\"a\\""],\n\t["comment", "/* b */"],\n\t["number", "1"]\n]\n`;
    }
  });
  files['components/prism-java.js'] = PRISM_JAVA;
  files['tests/languages/java/text_block_feature.test'] =
    'String s = """\n  hello\n  """;\n\n----------------------------------------------------\n\n[\n\t["class-name", "String"],\n\t" s ",\n\t["operator", "="],\n\t["triple-quoted-string", "\\"\\"\\"\\n  hello\\n  \\"\\"\\""],\n\t["punctuation", ";"]\n]\n';
  return files;
}

const PRISM_OUTPUT = `

  Testing language 'java'
    ✓ – should pass test case 'comment_feature'
    1) – should pass test case 'text_block_feature'
    ✓ – should pass test case 'keyword_feature'
    ✓ – should pass test case 'string_feature'


  3 passing (412ms)
  1 failing

  1) Testing language 'java'
       – should pass test case 'text_block_feature':

      AssertionError: 
The expected token stream of /workspace/tests/languages/java/text_block_feature.test differs from the actual token stream.: expected [ Array(5) ] to deeply equal [ Array(5) ]
      + expected - actual

         " s "
         [
           "operator"
           "="
         ]
         [
      -    "string"
      -    "\\"\\"\\"\\n  hello\\n  \\"\\"\\""
      +    "triple-quoted-string"
      +    "\\"\\"\\"\\n  hello\\n  \\"\\"\\""
         ]
      
      at Object.runTestCase (tests/helper/test-case.js:22:10)
      at Context.<anonymous> (tests/run.js:20:14)
      at process.processImmediate (node:internal/timers:476:21)
`;

// ---------------------------------------------------------------------------------------------------
// Python: a linter's functional tests: a data file per message, and the failure names the message id.

const FUNCTIONAL_TEST = `"""Functional full-module tests for pylint."""
from __future__ import annotations

from pathlib import Path

import pytest

from pylint.testutils import LintModuleTest, get_functional_test_files_from_directory

FUNCTIONAL_DIR = Path(__file__).parent.resolve() / "functional"

TESTS = get_functional_test_files_from_directory(FUNCTIONAL_DIR)
TESTS_NAMES = [t.base for t in TESTS]


@pytest.mark.parametrize("test_file", TESTS, ids=TESTS_NAMES)
def test_functional(test_file, pytestconfig) -> None:
    lint_test = LintModuleTest(test_file, pytestconfig)
    lint_test.setUp()
    lint_test.runTest()
`;

const LINT_MODULE_TEST = `"""Running a functional test file through the linter and comparing messages."""
from __future__ import annotations

from collections import Counter


class LintModuleTest:
    """One functional test: a Python file and the messages expected on it."""

    def __init__(self, test_file, config=None):
        self._test_file = test_file
        self._config = config

    def setUp(self):
        self._linter = None

    def runTest(self):
        self._runTest()

    def _get_expected(self):
        return Counter(), []

    def _get_actual(self):
        return Counter(), []

    def _runTest(self):
        expected_messages, expected_output = self._get_expected()
        actual_messages, actual_output = self._get_actual()
        assert expected_messages == actual_messages, self.error_msg_for_unequal_messages(
            actual_messages, expected_messages, actual_output
        )

    def error_msg_for_unequal_messages(self, actual_messages, expected_messages, actual_output):
        msg = [f'Wrong message(s) raised for "{self._test_file.base}.py":']
        missing, unexpected = self.multiset_difference(expected_messages, actual_messages)
        if missing:
            msg.append("\\nExpected in testdata:")
            msg.extend(f"  {msg[0]:3}: {msg[1]}" for msg in sorted(missing))
        if unexpected:
            msg.append("\\nUnexpected in testdata:")
            msg.extend(f"  {msg[0]:3}: {msg[1]}" for msg in sorted(unexpected))
        return "\\n".join(msg)

    @staticmethod
    def multiset_difference(expected, actual):
        missing = expected.copy()
        missing.subtract(actual)
        unexpected = actual.copy()
        unexpected.subtract(expected)
        return +missing, +unexpected
`;

const FUNCTIONAL_OUTPUT = `============================= test session starts ==============================
collected 3 items

tests/test_functional.py .F.                                             [100%]

=================================== FAILURES ===================================
______________ test_functional[unused_argument_in_nested_class] _______________

self = <pylint.testutils.lint_module_test.LintModuleTest object at 0x7f3e2c1d5a90>

    def _runTest(self):
        expected_messages, expected_output = self._get_expected()
        actual_messages, actual_output = self._get_actual()
>       assert expected_messages == actual_messages, self.error_msg_for_unequal_messages(
            actual_messages, expected_messages, actual_output
        )
E       AssertionError: Wrong message(s) raised for "unused_argument_in_nested_class.py":
E         
E         Expected in testdata:
E            4: unused-argument
E       assert Counter({(4, 'unused-argument'): 1}) == Counter()

pylint/testutils/lint_module_test.py:{{pylint/testutils/lint_module_test.py#assert expected_messages == actual_messages}}: AssertionError
=========================== short test summary info ============================
FAILED tests/test_functional.py::test_functional[unused_argument_in_nested_class] - AssertionError: Wrong message(s) raised for "unused_argument_in_nested_class.py":
========================= 1 failed, 2 passed in 1.31s ==========================
`;

/** The cases of this file. */
export const PINPOINT_CASES: ContextCase[] = [
  {
    name: 'js 2,500-line class, the failing test calls configureOutput defined deep inside',
    shape: 'big file, named function deep inside',
    language: 'javascript',
    files: {
      ...JS_NOISE,
      'package.json': '{ "name": "commander", "main": "./index.js", "scripts": { "test": "jest" } }\n',
      'index.js': COMMANDER_INDEX,
      'lib/command.js': COMMAND_JS,
      'lib/help.js': jsLibClass('Help', 30, 300),
      'lib/option.js': jsLibClass('Option', 20, 340),
      'lib/argument.js': jsLibClass('Argument', 10, 370),
      'lib/error.js':
        'class CommanderError extends Error {\n  constructor(exitCode, code, message) {\n    super(message);\n    this.code = code;\n    this.exitCode = exitCode;\n  }\n}\n\nclass InvalidArgumentError extends CommanderError {}\n\nexports.CommanderError = CommanderError;\nexports.InvalidArgumentError = InvalidArgumentError;\n',
      'lib/suggestSimilar.js':
        "function suggestSimilar(word, candidates) {\n  const similar = candidates.filter((c) => c.startsWith(word.slice(0, 3)));\n  return similar.length ? `\\n(Did you mean ${similar[0]}?)` : '';\n}\n\nexports.suggestSimilar = suggestSimilar;\n",
      'tests/command.configureOutput.test.js': COMMANDER_TEST,
      'tests/command.help.test.js': `const commander = require('../');\n\ntest('help', () => {\n  const program = new commander.Command();\n  expect(program.helpInformation()).toContain('Usage');\n});\n`,
    },
    directive: 'configureOutput on a sub-command changes the output of its parent too.',
    output: ` FAIL  tests/command.configureOutput.test.js
  ● when configureOutput on a sub-command then the parent keeps its writeErr

    expect(jest.fn()).toHaveBeenCalledTimes(expected)

    Expected number of calls: 1
    Received number of calls: 0

      32 |     program.parse(['--unknown'], { from: 'user' });
      33 |   }).toThrow();
    > 34 |   expect(parentWriteErr).toHaveBeenCalledTimes(1);
         |                          ^
      35 |   expect(subWriteErr).not.toHaveBeenCalled();
      36 | });
      37 |

      at Object.toHaveBeenCalledTimes (tests/command.configureOutput.test.js:{{tests/command.configureOutput.test.js#expect(parentWriteErr).toHaveBeenCalledTimes(1)}}:26)

Test Suites: 1 failed, 1 passed, 2 total
Tests:       1 failed, 3 passed, 4 total
`,
    fix: [{ path: 'lib/command.js', line: 'Object.assign(this._outputConfiguration, configuration);' }],
  },
  {
    name: "go lexer's table test fails on one construct, its state function deep in a big file",
    shape: 'big file, named function deep inside',
    language: 'go',
    files: {
      ...GO_NOISE,
      'go.mod': 'module example.com/cfg\n\ngo 1.22\n',
      'lexer/lexer.go': `${LEXER_HEAD}\n${goFuncs(45, 'l *lexer', 2100)}${LEXER_STRINGS}\n${goFuncs(45, 'l *lexer', 2150)}${LEXER_RAW}\n${goFuncs(20, 'l *lexer', 2200)}`,
      'lexer/token.go':
        'package lexer\n\n// String names a token kind.\nfunc (k TokenKind) String() string {\n\treturn [...]string{"EOF", "Ident", "Number", "String", "RawString", "Punct", "Comment"}[k]\n}\n',
      'lexer/lexer_test.go': LEXER_TEST,
      'parser/parser.go': `package parser\n\nimport (\n\t"fmt"\n\n\t"example.com/cfg/lexer"\n)\n\nvar _ = lexer.Lex\n\n${goFuncs(40, '', 2300)}`,
    },
    directive: 'An unterminated raw string must be reported as such.',
    output: `--- FAIL: TestLexErrors (0.00s)
    --- FAIL: TestLexErrors/unterminated_raw_string (0.00s)
        lexer_test.go:{{lexer/lexer_test.go#t.Errorf("Lex(%q) error}}: Lex("\`abc") error = unexpected EOF, want "unterminated raw string literal"
FAIL
FAIL	example.com/cfg/lexer	0.004s
FAIL
`,
    fix: [{ path: 'lexer/lexer.go', line: 'return l.errorf("unexpected EOF")' }],
  },
  {
    name: "go type checker 1,300 lines long, the failing case's message names the operator check",
    shape: 'big file, named function deep inside',
    language: 'go',
    files: {
      ...GO_NOISE,
      'go.mod': 'module example.com/expr\n\ngo 1.22\n',
      'checker/checker.go': `${CHECKER_HEAD}\n${goFuncs(85, 'v *checker', 2400)}${CHECKER_OPERATORS}\n${goFuncs(12, 'v *checker', 2500)}`,
      'checker/checker_test.go': CHECKER_TEST,
      'checker/types.go': `package checker\n\nimport "fmt"\n\n${goFuncs(20, '', 2520)}`,
      'ast/node.go':
        'package ast\n\n// Node is a node of the tree.\ntype Node interface{ Location() string }\n\n// Tree is a parsed expression.\ntype Tree struct{ Node Node }\n\n// UnaryNode is op x.\ntype UnaryNode struct {\n\tOperator string\n\tNode     Node\n}\n\n// BinaryNode is x op y.\ntype BinaryNode struct {\n\tOperator    string\n\tLeft, Right Node\n}\n',
      'conf/conf.go':
        'package conf\n\n// Config configures the checker.\ntype Config struct{ Strict bool }\n\n// New is the default config.\nfunc New() *Config { return &Config{} }\n',
      'parser/parser.go': `package parser\n\nimport (\n\t"fmt"\n\n\t"example.com/expr/ast"\n)\n\n// Parse parses an expression.\nfunc Parse(input string) (*ast.Tree, error) {\n\treturn &ast.Tree{}, nil\n}\n\n${goFuncs(60, '', 2550)}`,
    },
    directive: 'Adding a string to a number must be a type error.',
    output: `--- FAIL: TestCheck_error (0.00s)
    --- FAIL: TestCheck_error/1_+_"a" (0.00s)
        checker_test.go:{{checker/checker_test.go#t.Errorf("Check(%q) = %v}}: Check("1 + \\"a\\"") = <nil>, want error "invalid operation: + (mismatched types int and string) (1:3)"
FAIL
FAIL	example.com/expr/checker	0.006s
FAIL
`,
    fix: [{ path: 'checker/checker.go', line: 'if isString(l) || isString(r) {' }],
  },
  {
    name: "py checker's 3,000-line module, the traceback runs through four of its methods",
    shape: 'big file, named function deep inside',
    language: 'python',
    files: {
      ...PY_NOISE,
      'pyproject.toml': '[project]\nname = "pylint"\n',
      'pylint/__init__.py': '',
      'pylint/interfaces.py': 'HIGH = "HIGH"\nINFERENCE = "INFERENCE"\nINFERENCE_FAILURE = "INFERENCE_FAILURE"\n',
      'pylint/checkers/__init__.py':
        '"""Checkers."""\nfrom pylint.checkers.base_checker import BaseChecker\n\n__all__ = ["BaseChecker"]\n',
      'pylint/checkers/base_checker.py': `class BaseChecker:\n    def __init__(self, linter=None):\n        self.linter = linter\n\n    def add_message(self, msgid, args=None, node=None, confidence=None):\n        self.linter.add_message(msgid, args=args, node=node, confidence=confidence)\n`,
      'pylint/checkers/utils.py': CHECKER_UTILS,
      'pylint/checkers/variables.py': VARIABLES_PY,
      'pylint/testutils/__init__.py':
        'from pylint.testutils.checker_test_case import CheckerTestCase\nfrom pylint.testutils.lint_module_test import LintModuleTest\n',
      'pylint/testutils/checker_test_case.py':
        'import contextlib\n\n\nclass CheckerTestCase:\n    CHECKER_CLASS = None\n\n    def setup_method(self):\n        self.checker = self.CHECKER_CLASS(None)\n\n    @contextlib.contextmanager\n    def assertAddsMessages(self, *messages):\n        yield\n\n    @contextlib.contextmanager\n    def assertNoMessages(self):\n        yield\n',
      'pylint/testutils/lint_module_test.py': LINT_MODULE_TEST,
      'tests/checkers/unittest_variables.py': VARIABLES_TEST,
    },
    directive: 'The variables checker crashes on a method of a class defined in a function.',
    output: `============================= test session starts ==============================
collected 2 items

tests/checkers/unittest_variables.py .F                                  [100%]

=================================== FAILURES ===================================
_____ TestVariablesChecker.test_unused_argument_of_a_method_in_a_function ______

self = <checkers.unittest_variables.TestVariablesChecker object at 0x7f31b2a4c9d0>

    def test_unused_argument_of_a_method_in_a_function(self) -> None:
        node = astroid.extract_node(
            """
    def outer():
        class Inner:
            def method(self, value):  #@
                return 1
    """
        )
        self.checker.visit_functiondef(node)
        with self.assertAddsMessages():
>           self.checker.leave_functiondef(node)

tests/checkers/unittest_variables.py:{{tests/checkers/unittest_variables.py#self.checker.leave_functiondef(node)}}: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
pylint/checkers/variables.py:{{pylint/checkers/variables.py#self._check_is_unused(name, node, stmts[0]}}: in leave_functiondef
    self._check_is_unused(name, node, stmts[0], global_names, nonlocal_names, comprehension_target_names)
pylint/checkers/variables.py:{{pylint/checkers/variables.py#self._check_unused_arguments(name, node, stmt, argnames, nonlocal_names)}}: in _check_is_unused
    self._check_unused_arguments(name, node, stmt, argnames, nonlocal_names)
pylint/checkers/variables.py:{{pylint/checkers/variables.py#overridden = overridden_method(klass, node.name)}}: in _check_unused_arguments
    overridden = overridden_method(klass, node.name)
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

klass = <FunctionDef.outer l.2 at 0x7f31b29e1f90>, name = 'method'

    def overridden_method(klass, name):
        """Get overridden method if any."""
        try:
>           parent = next(klass.local_attr_ancestors(name))
E           AttributeError: 'FunctionDef' object has no attribute 'local_attr_ancestors'

pylint/checkers/utils.py:{{pylint/checkers/utils.py#parent = next(klass.local_attr_ancestors(name))}}: AttributeError
=========================== short test summary info ============================
FAILED tests/checkers/unittest_variables.py::TestVariablesChecker::test_unused_argument_of_a_method_in_a_function - AttributeError: 'FunctionDef' object has no attribute 'local_attr_ancestors'
========================= 1 failed, 1 passed in 0.42s ==========================
`,
    fix: [
      { path: 'pylint/checkers/variables.py', line: 'if is_method:' },
      { path: 'pylint/checkers/variables.py', line: 'overridden = overridden_method(klass, node.name)' },
    ],
  },
  {
    name: "js highlighter's data-file test for one language, the component named after it",
    shape: 'data-driven test',
    language: 'javascript',
    files: { ...prismFiles() },
    directive: 'Java text blocks are not highlighted as strings.',
    output: PRISM_OUTPUT,
    fix: [{ path: 'components/prism-java.js', line: 'pattern: /"""[' }],
  },
  {
    name: "py linter's functional test data file, the failure names the message id the checker emits",
    shape: 'data-driven test',
    language: 'python',
    files: {
      ...PY_NOISE,
      'pyproject.toml': '[project]\nname = "pylint"\n',
      'pylint/__init__.py': '',
      'pylint/interfaces.py': 'HIGH = "HIGH"\nINFERENCE = "INFERENCE"\nINFERENCE_FAILURE = "INFERENCE_FAILURE"\n',
      'pylint/checkers/__init__.py':
        '"""Checkers."""\nfrom pylint.checkers.base_checker import BaseChecker\n\n__all__ = ["BaseChecker"]\n',
      'pylint/checkers/base_checker.py': `class BaseChecker:\n    def __init__(self, linter=None):\n        self.linter = linter\n`,
      'pylint/checkers/utils.py': CHECKER_UTILS,
      'pylint/checkers/variables.py': VARIABLES_PY.replace(
        '            overridden = overridden_method(klass, node.name)\n            if overridden is not None and name in overridden.argnames():\n                return\n',
        '            overridden = overridden_method(klass, node.name)\n            if overridden is not None and name in overridden.argnames():\n                return\n            if isinstance(klass, nodes.FunctionDef):\n                return\n',
      ),
      ...Object.fromEntries(
        ['classes', 'imports', 'format', 'typecheck', 'exceptions'].map((n, k) => [
          `pylint/checkers/${n}.py`,
          `"""${n} checker."""\nfrom pylint.checkers import BaseChecker\n\nMSGS = {\n    "W0${k}01": ("${n} problem", "${n}-problem", "Used when ${n} goes wrong."),\n}\n\n\nclass ${n[0]!.toUpperCase()}${n.slice(1)}Checker(BaseChecker):\n    name = "${n}"\n    msgs = MSGS\n\n${pyMethods(40, 1500 + 40 * k)}`,
        ]),
      ),
      'pylint/testutils/__init__.py':
        'from pylint.testutils.functional import get_functional_test_files_from_directory\nfrom pylint.testutils.lint_module_test import LintModuleTest\n',
      'pylint/testutils/functional.py':
        'def get_functional_test_files_from_directory(directory):\n    return sorted(p for p in directory.rglob("*.py"))\n',
      'pylint/testutils/lint_module_test.py': LINT_MODULE_TEST,
      'tests/test_functional.py': FUNCTIONAL_TEST,
      'tests/functional/u/unused/unused_argument_in_nested_class.py':
        '# pylint: disable=missing-docstring\ndef outer():\n    class Inner:\n        def method(self, value):  # [unused-argument]\n            return 1\n    return Inner\n',
      'tests/functional/u/unused/unused_argument_in_nested_class.txt':
        "unused-argument:4:25:4:30:outer.Inner.method:Unused argument 'value':INFERENCE\n",
      'tests/functional/u/unused/unused_variable.py':
        '# pylint: disable=missing-docstring\ndef f():\n    x = 1  # [unused-variable]\n',
      'tests/functional/u/unused/unused_variable.txt': "unused-variable:3:4:3:5:f:Unused variable 'x':UNDEFINED\n",
      'doc/data/messages/u/unused-argument/bad.py': 'def print_point(x, y):  # [unused-argument]\n    print(x)\n',
    },
    directive: 'unused-argument is not raised for a method of a class defined in a function.',
    output: FUNCTIONAL_OUTPUT,
    fix: [{ path: 'pylint/checkers/variables.py', line: 'if isinstance(klass, nodes.FunctionDef):' }],
  },
];
