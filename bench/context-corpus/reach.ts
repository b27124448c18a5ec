// Cases shaped after real fixes whose code is several steps from the failing test: a package reached
// through a test package's __init__ and re-exports, a Go test exercising another package of its module,
// a Rust derive macro in a path-dependency crate and a trait in a workspace crate, and JS/TS monorepos
// whose packages re-export through barrel files.
import { goFuncs, pyHelpers, pyMethods, rustFns, tsFuncs } from './code.js';
import { cargoOutput, goTestOutput, noise, pytestOutput, type ContextCase } from './shapes.js';

const PY_NOISE = noise('python', 'legacy', 24);
const GO_NOISE = noise('go', 'internal/legacy', 24);
const RS_NOISE = noise('rust', 'crates/legacy/src', 24);
const TS_NOISE = noise('typescript', 'packages/legacy/src', 24);

// ---------------------------------------------------------------------------------------------------
// Python: tests/__init__.py imports the package as `lib`; the package's __init__ re-exports from the
// module holding the bug, which is long enough to be shown as regions.

const TEXTKIT_MODULES = ['align', 'case', 'escape', 'tokens', 'numbers', 'markup', 'lines', 'unicode', 'paths'];

const WRAPPING = `"""Wrapping and filling text."""
import re

__all__ = ["TextWrapper", "wrap", "fill", "shorten", "dedent", "indent"]

_whitespace = "\\t\\n\\x0b\\x0c\\r "


class TextWrapper:
    """Wrap paragraphs of text to a width, breaking on whitespace and hyphens."""

    unicode_whitespace_trans = dict.fromkeys(map(ord, _whitespace), ord(" "))
    word_punct = r"[\\w!\\"'&.,?]"
    letter = r"[^\\d\\W]"
    wordsep_re = re.compile(r"(\\s+|(?<=%s)-{2,}(?=\\w)|%s+)" % (word_punct, letter))

    def __init__(self, width=70, initial_indent="", subsequent_indent="", break_long_words=True,
                 break_on_hyphens=True, drop_whitespace=True, max_lines=None, placeholder=" [...]"):
        self.width = width
        self.initial_indent = initial_indent
        self.subsequent_indent = subsequent_indent
        self.break_long_words = break_long_words
        self.break_on_hyphens = break_on_hyphens
        self.drop_whitespace = drop_whitespace
        self.max_lines = max_lines
        self.placeholder = placeholder
        self._seen = {}
        self.stats = {}

    def _munge_whitespace(self, text):
        """Expand tabs and turn every whitespace character into a space."""
        text = text.expandtabs(8)
        return text.translate(self.unicode_whitespace_trans)

    def _split(self, text):
        """Split text into chunks: words, whitespace runs, hyphenated parts."""
        if self.break_on_hyphens:
            chunks = self.wordsep_re.split(text)
        else:
            chunks = re.split(r"(\\s+)", text)
        return [c for c in chunks if c]

    def _handle_long_word(self, reversed_chunks, cur_line, cur_len, width):
        """Break the chunk at the end of reversed_chunks that is longer than a line."""
        if width < 1:
            space_left = 1
        else:
            space_left = width - cur_len
        if self.break_long_words:
            end = space_left - 1
            chunk = reversed_chunks[-1]
            cur_line.append(chunk[:end])
            reversed_chunks[-1] = chunk[end:]
        elif not cur_line:
            cur_line.append(reversed_chunks.pop())

    def _wrap_chunks(self, chunks):
        """Lay the chunks out in lines of at most self.width columns."""
        lines = []
        if self.width <= 0:
            raise ValueError("invalid width %r (must be > 0)" % self.width)
        chunks.reverse()
        while chunks:
            cur_line = []
            cur_len = 0
            indent = self.subsequent_indent if lines else self.initial_indent
            width = self.width - len(indent)
            if self.drop_whitespace and chunks[-1].strip() == "" and lines:
                del chunks[-1]
            while chunks:
                size = len(chunks[-1])
                if cur_len + size <= width:
                    cur_line.append(chunks.pop())
                    cur_len += size
                else:
                    break
            if chunks and len(chunks[-1]) > width:
                self._handle_long_word(chunks, cur_line, cur_len, width)
                cur_len = sum(map(len, cur_line))
            if self.drop_whitespace and cur_line and cur_line[-1].strip() == "":
                cur_len -= len(cur_line[-1])
                del cur_line[-1]
            if cur_line:
                lines.append(indent + "".join(cur_line))
        return lines

    def wrap(self, text):
        """Wrap one paragraph; returns its lines without final newlines."""
        chunks = self._split(self._munge_whitespace(text))
        return self._wrap_chunks(chunks)

    def fill(self, text):
        """Wrap one paragraph and join its lines."""
        return "\\n".join(self.wrap(text))

${pyMethods(40)}

def wrap(text, width=70, **kwargs):
    """Wrap a paragraph of text to width columns; returns a list of lines."""
    w = TextWrapper(width=width, **kwargs)
    return w.wrap(text)


def fill(text, width=70, **kwargs):
    """Fill a paragraph of text to width columns; returns one string."""
    w = TextWrapper(width=width, **kwargs)
    return w.fill(text)


def shorten(text, width, **kwargs):
    """Collapse whitespace and cut text to fit width, marking the cut."""
    w = TextWrapper(width=width, max_lines=1, **kwargs)
    return w.fill(" ".join(text.strip().split()))


_whitespace_only_re = re.compile("^[ \\t]+$", re.MULTILINE)
_leading_whitespace_re = re.compile("(^[ \\t]*)(?:[^ \\t\\n])", re.MULTILINE)


def dedent(text):
    """Remove the whitespace every line of text starts with."""
    margin = None
    text = _whitespace_only_re.sub("", text)
    for indent in _leading_whitespace_re.findall(text):
        if margin is None or indent.startswith(margin):
            margin = margin if margin is not None else indent
        elif margin.startswith(indent):
            margin = indent
        else:
            margin = ""
            break
    if margin:
        text = re.sub(r"(?m)^" + margin, "", text)
    return text


def indent(text, prefix, predicate=None):
    """Add prefix to the lines of text that predicate accepts (non-blank ones by default)."""
    if predicate is None:
        predicate = str.strip
    return "".join(prefix + line if predicate(line) else line for line in text.splitlines(True))


${pyHelpers(30, 100)}`;

function textkitModule(name: string, k: number): string {
  const own = [0, 1, 2]
    .map((j) => `def ${name}_${j}(text, width=${j + 1}):\n    """${name} step ${j}."""\n    return text[:width]\n`)
    .join('\n\n');
  return `"""${name[0]!.toUpperCase()}${name.slice(1)} helpers."""\n\n\n${own}\n\n${pyHelpers(14, 200 + 20 * k)}`;
}

const TEXTKIT_INIT = `"""textkit: small text utilities."""
${TEXTKIT_MODULES.map((m, k) => `from .${m} import ${[0, 1, 2].map((j) => `${m}_${j}`).join(', ')}  # noqa: F401 (${k})`).join('\n')}
from .wrapping import TextWrapper, dedent, fill, indent, shorten, wrap

__version__ = "2.4.1"
`;

// ---------------------------------------------------------------------------------------------------
// Python: `import dateparse` in the test; the package's __init__ star-imports its api module, which
// imports from a private subpackage; the bug is in a helper of the method raising the asserted error.

const DATE_PARSER = `"""The parser behind dateparse.parse."""
import re
from datetime import date

from .tables import MONTH_NAMES

_ISO = re.compile(r"^(\\d{4})-(\\d{2})-(\\d{2})$")


def _is_leap(year):
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _days_in_month(year, month):
    if month == 2:
        return 29 if year % 4 == 0 else 28
    if month in (4, 6, 9, 11):
        return 30
    return 31


class DateParser:
    """Parses ISO dates and a few spelled-out forms."""

    def __init__(self, strict=True):
        self.strict = strict
        self._seen = {}
        self.stats = {}

    def _validate(self, year, month, day):
        if not 1 <= month <= 12:
            raise ValueError(f"month must be in 1..12, not {month}")
        if not 1 <= day <= _days_in_month(year, month):
            raise ValueError(f"day is out of range for month: {year}-{month:02d}-{day:02d}")

    def parse(self, text):
        """Parse text as a date."""
        m = _ISO.match(text.strip())
        if m is None:
            return self._parse_words(text)
        year, month, day = (int(g) for g in m.groups())
        self._validate(year, month, day)
        return date(year, month, day)

    def _parse_words(self, text):
        parts = text.replace(",", " ").split()
        if len(parts) != 3 or parts[0].lower() not in MONTH_NAMES:
            raise ValueError(f"not a date: {text!r}")
        month = MONTH_NAMES.index(parts[0].lower()) + 1
        self._validate(int(parts[2]), month, int(parts[1]))
        return date(int(parts[2]), month, int(parts[1]))

${pyMethods(60, 300)}
${pyHelpers(30, 400)}`;

// ---------------------------------------------------------------------------------------------------
// Go: a test of the module's root package calls the parser package; the parser's big file holds the
// construct the failing test is named after, deep inside.

const GO_PARSER_HEAD = `package parser

import (
	"fmt"
	"strings"
)

// Document is a parsed file: its tables in order.
type Document struct {
	Tables []*Table
}

// Table is one [table] or inline table.
type Table struct {
	Name   string
	Keys   []string
	Values map[string]any
}

type parser struct {
	input string
	pos   int
	line  int
}

// Parse reads a whole document.
func Parse(input []byte) (*Document, error) {
	p := &parser{input: string(input), line: 1}
	return p.parseDocument()
}

func (p *parser) parseDocument() (*Document, error) {
	doc := &Document{}
	root := &Table{Values: map[string]any{}}
	doc.Tables = append(doc.Tables, root)
	for p.pos < len(p.input) {
		p.skipSpace()
		if p.pos >= len(p.input) {
			break
		}
		if err := p.parseKeyValue(root); err != nil {
			return nil, err
		}
	}
	return doc, nil
}

func (p *parser) skipSpace() {
	for p.pos < len(p.input) && strings.ContainsRune(" \\t\\r\\n", rune(p.input[p.pos])) {
		if p.input[p.pos] == '\\n' {
			p.line++
		}
		p.pos++
	}
}

func (p *parser) parseKeyValue(t *Table) error {
	start := p.pos
	for p.pos < len(p.input) && p.input[p.pos] != '=' {
		p.pos++
	}
	key := strings.TrimSpace(p.input[start:p.pos])
	p.pos++
	p.skipSpace()
	v, err := p.parseValue()
	if err != nil {
		return err
	}
	t.Keys = append(t.Keys, key)
	t.Values[key] = v
	return nil
}

func (p *parser) parseValue() (any, error) {
	switch {
	case p.pos >= len(p.input):
		return nil, fmt.Errorf("line %d: expected a value", p.line)
	case p.input[p.pos] == '{':
		return p.parseInlineTable()
	case p.input[p.pos] == '[':
		return p.parseArray()
	default:
		return p.parseScalar()
	}
}
`;

const GO_PARSER_DEEP = `
func (p *parser) parseArray() ([]any, error) {
	var out []any
	p.pos++
	for {
		p.skipSpace()
		if p.pos < len(p.input) && p.input[p.pos] == ']' {
			p.pos++
			return out, nil
		}
		v, err := p.parseValue()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		p.skipSpace()
		if p.pos < len(p.input) && p.input[p.pos] == ',' {
			p.pos++
		}
	}
}

func (p *parser) parseInlineTable() (*Table, error) {
	t := &Table{Values: map[string]any{}}
	p.pos++
	for {
		p.skipSpace()
		if p.pos >= len(p.input) {
			return nil, fmt.Errorf("line %d: unterminated inline table", p.line)
		}
		if p.input[p.pos] == '}' {
			p.pos++
			return t, nil
		}
		if err := p.parseKeyValue(t); err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.pos < len(p.input) && p.input[p.pos] == ',' {
			p.pos++
			p.skipSpace()
		}
	}
}

func (p *parser) parseScalar() (any, error) {
	start := p.pos
	for p.pos < len(p.input) && !strings.ContainsRune(",}]\\n", rune(p.input[p.pos])) {
		p.pos++
	}
	return strings.TrimSpace(p.input[start:p.pos]), nil
}
`;

const GO_ROOT_TEST = `package toml_test

import (
	"testing"

	"example.com/toml"
	"example.com/toml/parser"
)

func TestDecodeSimple(t *testing.T) {
	var v struct{ A int }
	if err := toml.Unmarshal([]byte("A = 1"), &v); err != nil {
		t.Fatal(err)
	}
}

func TestParseInlineTableTrailingComma(t *testing.T) {
	doc, err := parser.Parse([]byte("point = { x = 1, y = 2, }"))
	if err == nil {
		t.Fatalf("want an error for the trailing comma, got %d tables", len(doc.Tables))
	}
}
`;

// Go: a command's test calls config.Load; Load (one file of a package of many) calls a helper
// defined in another file of that package, where the bug is.

const GO_CONFIG_LOAD = `package config

import (
	"fmt"
	"os"
)

// Config is the application's configuration.
type Config struct {
	Listen  string
	DataDir string
	Debug   bool
}

// Load reads the configuration file at path and expands environment variables in its values.
func Load(path string) (*Config, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	values, err := parseLines(string(raw))
	if err != nil {
		return nil, err
	}
	c := &Config{}
	c.Listen = expandEnv(values["listen"], os.Getenv)
	c.DataDir = expandEnv(values["data_dir"], os.Getenv)
	c.Debug = values["debug"] == "true"
	return c, nil
}
`;

const GO_CONFIG_ENV = `package config

import "strings"

// expandEnv replaces \${NAME} and $NAME in s with the value lookup gives.
func expandEnv(s string, lookup func(string) string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		if s[i+1] == '{' {
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				b.WriteString(s[i:])
				break
			}
			b.WriteString(lookup(s[i+2 : i+end]))
			i += end - 1
			continue
		}
		j := i + 1
		for j < len(s) && (s[j] == '_' || s[j] >= 'A' && s[j] <= 'Z') {
			j++
		}
		b.WriteString(lookup(s[i+1 : j]))
		i = j - 1
	}
	return b.String()
}
`;

// ---------------------------------------------------------------------------------------------------
// Rust: a derive macro in a proc-macro crate the library depends on by path, and a trait of a
// workspace crate re-exported by its lib.rs.

const DERIVE_LIB = `//! Derives for minijson.
extern crate proc_macro;

#[macro_use]
mod shared;

mod parse;

mod serde_json;
use crate::serde_json::*;

#[proc_macro_derive(SerJson, attributes(mj))]
pub fn derive_ser_json(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let input = parse::parse_data(input);
    match &input {
        parse::Data::Struct(s) if s.named => derive_ser_json_struct(s),
        parse::Data::Struct(s) => derive_ser_json_struct_unnamed(s),
        parse::Data::Enum(e) => derive_ser_json_enum(e),
        parse::Data::Union(_) => unimplemented!("unions are not supported"),
    }
}

#[proc_macro_derive(DeJson, attributes(mj))]
pub fn derive_de_json(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let input = parse::parse_data(input);
    match &input {
        parse::Data::Struct(s) if s.named => derive_de_json_struct(s),
        parse::Data::Struct(s) => derive_de_json_struct_unnamed(s),
        parse::Data::Enum(e) => derive_de_json_enum(e),
        parse::Data::Union(_) => unimplemented!("unions are not supported"),
    }
}
`;

const DERIVE_SERDE_JSON = `use alloc::format;
use alloc::string::String;

use crate::parse::{Enum, Field, Struct};
use crate::shared;

use proc_macro::TokenStream;

${rustFns(50, 500)}
pub fn derive_ser_json_struct(struct_: &Struct) -> TokenStream {
    let mut s = String::new();
    for field in &struct_.fields {
        let name = shared::json_name(field);
        s.push_str(&format!("s.field(d + 1, \\"{}\\");self.{}.ser_json(d + 1, s);", name, field.ident()));
    }
    format!("impl SerJson for {} {{ fn ser_json(&self, d: usize, s: &mut SerJsonState) {{ s.st_pre(); {} s.st_post(d); }} }}", struct_.name, s)
        .parse()
        .unwrap()
}

pub fn derive_ser_json_struct_unnamed(struct_: &Struct) -> TokenStream {
    format!("impl SerJson for {} {{ fn ser_json(&self, d: usize, s: &mut SerJsonState) {{ self.0.ser_json(d, s); }} }}", struct_.name)
        .parse()
        .unwrap()
}

pub fn derive_ser_json_enum(enum_: &Enum) -> TokenStream {
    let names: Vec<String> = enum_.variants.iter().map(|v| v.name.clone()).collect();
    format!("impl SerJson for {} {{ fn ser_json(&self, _d: usize, s: &mut SerJsonState) {{ s.label(match self {{ {} }}); }} }}", enum_.name, names.join(","))
        .parse()
        .unwrap()
}

fn de_json_field_default(field: &Field) -> String {
    match shared::attrs_default(&field.attributes) {
        Some(Some(expr)) => format!("Some({})", expr),
        Some(None) => String::from("Some(Default::default())"),
        None => String::from("None"),
    }
}

pub fn derive_de_json_named(name: &str, fields: &[Field]) -> String {
    let mut locals = String::new();
    let mut matches = String::new();
    let mut unwraps = String::new();
    for (k, field) in fields.iter().enumerate() {
        let json = shared::json_name(field);
        let default = de_json_field_default(field);
        locals.push_str(&format!("let mut _{}: Option<_> = None;", k));
        matches.push_str(&format!("\\"{}\\" => {{ s.next_colon(i)?; _{} = Some(DeJson::de_json(s, i)?); }},", json, k));
        unwraps.push_str(&format!("{}: _{}.ok_or_else(|| s.err_nf(\\"{}\\"))?,", field.ident(), k, json));
        let _ = default;
    }
    format!("{} {{ {} s.curly_open(i)?; while let Some(_) = s.as_key() {{ match AsRef::<str>::as_ref(&s.strbuf) {{ {} _ => s.whole_field(i)? }} s.eat_comma_curly(i)?; }} s.curly_close(i)?; {} {{ {} }} }}", name, locals, matches, name, unwraps)
}

pub fn derive_de_json_struct(struct_: &Struct) -> TokenStream {
    let body = derive_de_json_named(&struct_.name, &struct_.fields);
    format!("impl DeJson for {} {{ fn de_json(s: &mut DeJsonState, i: &mut core::str::Chars) -> Result<Self, DeJsonErr> {{ core::result::Result::Ok({}) }} }}", struct_.name, body)
        .parse()
        .unwrap()
}

pub fn derive_de_json_struct_unnamed(struct_: &Struct) -> TokenStream {
    format!("impl DeJson for {} {{ fn de_json(s: &mut DeJsonState, i: &mut core::str::Chars) -> Result<Self, DeJsonErr> {{ Ok(Self(DeJson::de_json(s, i)?)) }} }}", struct_.name)
        .parse()
        .unwrap()
}

pub fn derive_de_json_enum(enum_: &Enum) -> TokenStream {
    let names: Vec<String> = enum_.variants.iter().map(|v| format!("\\"{0}\\" => Self::{0},", v.name)).collect();
    format!("impl DeJson for {} {{ fn de_json(s: &mut DeJsonState, i: &mut core::str::Chars) -> Result<Self, DeJsonErr> {{ s.next_tok(i)?; Ok(match s.as_string()?.as_ref() {{ {} _ => return Err(s.err_enum(\\"{}\\")) }}) }} }}", enum_.name, names.join(""), enum_.name)
        .parse()
        .unwrap()
}

${rustFns(30, 600)}`;

const DERIVE_SHARED = `use alloc::string::String;

use crate::parse::{Attribute, Field};

/// The name a field has in JSON: its rename attribute, or its identifier.
pub fn json_name(field: &Field) -> String {
    attrs_rename(&field.attributes).unwrap_or_else(|| field.ident())
}

/// \`#[mj(rename = "x")]\`
pub fn attrs_rename(attributes: &[Attribute]) -> Option<String> {
    attributes.iter().find(|a| a.name == "rename").and_then(|a| a.value.clone())
}

/// \`#[mj(default)]\` or \`#[mj(default = "expr")]\`
pub fn attrs_default(attributes: &[Attribute]) -> Option<Option<String>> {
    attributes.iter().find(|a| a.name == "default").map(|a| a.value.clone())
}
`;

const MINIJSON_LIB = `//! minijson: JSON without dependencies.
#![no_std]
extern crate alloc;

mod serde_json;
pub use crate::serde_json::*;

#[cfg(feature = "derive")]
pub use minijson_derive::*;
`;

const MINIJSON_SERDE = `use alloc::string::String;
use core::str::Chars;

/// A JSON error with where it happened.
#[derive(Debug)]
pub struct DeJsonErr {
    pub msg: String,
    pub line: usize,
    pub col: usize,
}

/// The state of a deserialiser.
#[derive(Default)]
pub struct DeJsonState {
    pub cur: char,
    pub line: usize,
    pub col: usize,
    pub strbuf: String,
}

/// A type that can be read from JSON.
pub trait DeJson: Sized {
    fn de_json(state: &mut DeJsonState, input: &mut Chars) -> Result<Self, DeJsonErr>;

    fn deserialize_json(input: &str) -> Result<Self, DeJsonErr> {
        let mut state = DeJsonState::default();
        let mut chars = input.chars();
        state.next(&mut chars);
        state.next_tok(&mut chars)?;
        DeJson::de_json(&mut state, &mut chars)
    }
}

/// A type that can be written as JSON.
pub trait SerJson {
    fn ser_json(&self, d: usize, s: &mut SerJsonState);
}

/// The state of a serialiser.
pub struct SerJsonState {
    pub out: String,
}

impl DeJsonState {
    pub fn next(&mut self, i: &mut Chars) {
        self.cur = i.next().unwrap_or('\\0');
        self.col += 1;
    }

    pub fn next_tok(&mut self, i: &mut Chars) -> Result<(), DeJsonErr> {
        while self.cur == ' ' || self.cur == '\\n' {
            self.next(i);
        }
        Ok(())
    }

    pub fn err_nf(&self, name: &str) -> DeJsonErr {
        DeJsonErr { msg: alloc::format!("Key not found {}", name), line: self.line, col: self.col }
    }
}
`;

const HECK_LIB = `//! Case conversion: turn identifiers into snake_case, kebab-case, CamelCase.
#![deny(missing_docs)]

mod kebab;
mod snake;
mod upper_camel;

pub use kebab::{AsKebabCase, ToKebabCase};
pub use snake::{AsSnakeCase, ToSnakeCase};
pub use upper_camel::{AsUpperCamelCase, ToUpperCamelCase};

use core::fmt;

fn transform<F, G>(s: &str, mut with_word: F, mut boundary: G, f: &mut fmt::Formatter) -> fmt::Result
where
    F: FnMut(&str, &mut fmt::Formatter) -> fmt::Result,
    G: FnMut(&mut fmt::Formatter) -> fmt::Result,
{
    let mut first_word = true;
    for word in s.split(|c: char| !c.is_alphanumeric()) {
        let mut char_indices = word.char_indices().peekable();
        let mut init = 0;
        let mut mode = WordMode::Boundary;
        while let Some((i, c)) = char_indices.next() {
            if let Some(&(next_i, next)) = char_indices.peek() {
                let next_mode = if c.is_lowercase() { WordMode::Lowercase } else { WordMode::Uppercase };
                if next_mode == WordMode::Lowercase && next.is_uppercase() {
                    if !first_word {
                        boundary(f)?;
                    }
                    with_word(&word[init..next_i], f)?;
                    first_word = false;
                    init = next_i;
                    mode = WordMode::Boundary;
                } else {
                    mode = next_mode;
                }
                let _ = i;
            } else {
                if !first_word {
                    boundary(f)?;
                }
                with_word(&word[init..], f)?;
                first_word = false;
                break;
            }
        }
        let _ = mode;
    }
    Ok(())
}

#[derive(Clone, Copy, PartialEq)]
enum WordMode {
    Boundary,
    Lowercase,
    Uppercase,
}

fn lowercase(s: &str, f: &mut fmt::Formatter) -> fmt::Result {
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        write!(f, "{}", c)?;
    }
    Ok(())
}

fn uppercase(s: &str, f: &mut fmt::Formatter) -> fmt::Result {
    for c in s.chars() {
        write!(f, "{}", c.to_uppercase())?;
    }
    Ok(())
}

fn capitalize(s: &str, f: &mut fmt::Formatter) -> fmt::Result {
    let mut chars = s.char_indices();
    if let Some((_, c)) = chars.next() {
        write!(f, "{}", c.to_uppercase())?;
        if let Some((i, _)) = chars.next() {
            lowercase(&s[i..], f)?;
        }
    }
    Ok(())
}

${rustFns(40, 700)}`;

const HECK_KEBAB = `use core::fmt;

use alloc::string::{String, ToString};

use crate::{lowercase, transform};

/// This trait defines a kebab case conversion.
///
/// In kebab-case, word boundaries are indicated by hyphens.
pub trait ToKebabCase: ToOwned {
    /// Convert this type to kebab case.
    fn to_kebab_case(&self) -> Self::Owned;
}

impl ToKebabCase for str {
    fn to_kebab_case(&self) -> Self::Owned {
        AsKebabCase(self).to_string()
    }
}

/// This wrapper performs a kebab case conversion in [\`fmt::Display\`].
pub struct AsKebabCase<T: AsRef<str>>(pub T);

impl<T: AsRef<str>> fmt::Display for AsKebabCase<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        transform(self.0.as_ref(), lowercase, |f| write!(f, "-"), f)
    }
}
`;

function heckCase(name: string, trait: string, wrapper: string, join: string, word: string): string {
  return `use core::fmt;\n\nuse alloc::string::{String, ToString};\n\nuse crate::{${word}, transform};\n\n/// ${name} conversion.\npub trait ${trait}: ToOwned {\n    /// Convert this type to ${name}.\n    fn ${trait.replace(/^To/, 'to').replace(/([A-Z])/g, (c) => `_${c.toLowerCase()}`)}(&self) -> Self::Owned;\n}\n\n/// This wrapper performs a ${name} conversion in [\`fmt::Display\`].\npub struct ${wrapper}<T: AsRef<str>>(pub T);\n\nimpl<T: AsRef<str>> fmt::Display for ${wrapper}<T> {\n    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n        transform(self.0.as_ref(), ${word}, |f| write!(f, "${join}"), f)\n    }\n}\n`;
}

// ---------------------------------------------------------------------------------------------------
// TypeScript monorepos: a workspace package whose directory is not its name, reached from another
// package's test through barrel files three deep; and a test beside its action importing the barrel.

const ACTIONS = ['brand', 'check', 'email', 'endsWith', 'includes', 'length', 'maxLength', 'minLength', 'partialCheck', 'regex', 'startsWith', 'transform', 'trim', 'url', 'value']; // prettier-ignore

function actionFile(name: string, async: boolean): string {
  const fn = async ? `${name}Async` : name;
  return `import type { BaseIssue, BaseValidation, Dataset, ErrorMessage } from '../../types/index.ts';
import { _addIssue } from '../../utils/index.ts';

/**
 * ${fn} issue type.
 */
export interface ${fn[0]!.toUpperCase()}${fn.slice(1)}Issue<TInput> extends BaseIssue<TInput> {
  readonly kind: 'validation';
  readonly type: '${name.toLowerCase()}';
}

/**
 * Creates a ${fn} validation action.
 *
 * @param requirement The requirement.
 * @param message The error message.
 *
 * @returns A ${fn} action.
 */
export function ${fn}<TInput>(
  requirement: (input: TInput) => ${async ? 'Promise<boolean>' : 'boolean'},
  message?: ErrorMessage,
): BaseValidation<TInput> {
  return {
    kind: 'validation',
    type: '${name.toLowerCase()}',
    reference: ${fn},
    async: ${async},
    expects: null,
    requirement,
    message,
    ${async ? 'async ' : ''}_run(dataset: Dataset<TInput>, config) {
      if (dataset.typed && !(${async ? 'await ' : ''}this.requirement(dataset.value))) {
        _addIssue(this, 'input', dataset, config);
      }
      return dataset;
    },
  };
}
`;
}

const PARTIAL_CHECK_ASYNC = `import type { BaseIssue, BaseValidation, Dataset, ErrorMessage, PathKeys } from '../../types/index.ts';
import { _addIssue } from '../../utils/index.ts';
import { _isPartiallyTyped } from './utils/index.ts';

/**
 * Partial check async issue type.
 */
export interface PartialCheckAsyncIssue<TInput> extends BaseIssue<TInput> {
  readonly kind: 'validation';
  readonly type: 'partial_check';
}

/**
 * Creates a partial check validation action that runs once the selected paths are typed.
 *
 * @param paths The selected paths.
 * @param requirement The validation function.
 * @param message The error message.
 *
 * @returns A partial check action.
 */
export function partialCheckAsync<TInput>(
  paths: PathKeys<TInput>,
  requirement: (input: TInput) => Promise<boolean>,
  message?: ErrorMessage,
): BaseValidation<TInput> {
  return {
    kind: 'validation',
    type: 'partial_check',
    reference: partialCheckAsync,
    async: true,
    expects: null,
    paths,
    requirement,
    message,
    async _run(dataset: Dataset<TInput>, config) {
      if (RUN_WHEN) {
        if (!(await this.requirement(dataset.value))) {
          _addIssue(this, 'input', dataset, config);
        }
      }
      return dataset;
    },
  };
}
`;

const PARTIAL_CHECK_UTILS = `import type { Dataset, PathKeys } from '../../../types/index.ts';

/**
 * Whether every selected path of the dataset's value is typed (no issue under it).
 */
export function _isPartiallyTyped<TInput>(dataset: Dataset<TInput>, paths: PathKeys<TInput>): boolean {
  if (dataset.issues) {
    for (const path of paths) {
      for (const issue of dataset.issues) {
        let typed = false;
        const bound = Math.min(path.length, issue.path?.length ?? 0);
        for (let index = 0; index < bound; index++) {
          if (path[index] !== issue.path![index]!.key) {
            typed = true;
            break;
          }
        }
        if (UNTYPED) {
          return false;
        }
      }
    }
  }
  return true;
}
`;

/** The library package of the monorepo cases, with the bug in the action or in its helper. */
function monorepoLibrary(bug: 'action' | 'helper'): Record<string, string> {
  const files: Record<string, string> = {
    'package.json': '{ "private": true, "packageManager": "pnpm@9.1.0" }\n',
    'pnpm-workspace.yaml': 'packages:\n  - library\n  - packages/*\n',
    'library/package.json':
      '{\n  "name": "valikit",\n  "version": "1.2.0",\n  "type": "module",\n  "exports": { ".": { "import": "./dist/index.js", "types": "./dist/index.d.ts" } }\n}\n',
    'library/src/index.ts':
      "export * from './actions/index.ts';\nexport * from './methods/index.ts';\nexport * from './schemas/index.ts';\nexport * from './types/index.ts';\nexport * from './utils/index.ts';\n",
    'library/src/actions/index.ts': ACTIONS.map((a) => `export * from './${a}/index.ts';`).join('\n') + '\n',
    'library/src/methods/index.ts': "export * from './pipe/index.ts';\nexport * from './parse/index.ts';\n",
    'library/src/methods/pipe/index.ts': "export * from './pipe.ts';\nexport * from './pipeAsync.ts';\n",
    'library/src/methods/pipe/pipe.ts': tsFuncs(12, 900),
    'library/src/methods/pipe/pipeAsync.ts': tsFuncs(12, 920),
    'library/src/methods/parse/index.ts': "export * from './parse.ts';\n",
    'library/src/methods/parse/parse.ts': tsFuncs(12, 940),
    'library/src/schemas/index.ts': "export * from './object/index.ts';\nexport * from './string/index.ts';\n",
    'library/src/schemas/object/index.ts': "export * from './object.ts';\n",
    'library/src/schemas/object/object.ts': tsFuncs(20, 960),
    'library/src/schemas/string/index.ts': "export * from './string.ts';\n",
    'library/src/schemas/string/string.ts': tsFuncs(12, 990),
    'library/src/types/index.ts':
      "export type * from './issues.ts';\nexport type * from './dataset.ts';\nexport type * from './validation.ts';\n",
    'library/src/types/issues.ts':
      'export interface BaseIssue<TInput> {\n  readonly kind: string;\n  readonly type: string;\n  readonly input: TInput;\n  readonly path?: { key: unknown }[];\n}\nexport type ErrorMessage = string;\n',
    'library/src/types/dataset.ts':
      'export interface Dataset<T> {\n  typed: boolean;\n  value: T;\n  issues?: { path?: { key: unknown }[] }[];\n}\nexport type PathKeys<T> = readonly (readonly (keyof T | number | string)[])[];\n',
    'library/src/types/validation.ts':
      'export interface BaseValidation<T> {\n  kind: string;\n  type: string;\n  async: boolean;\n  requirement: unknown;\n  _run(dataset: unknown, config: unknown): unknown;\n}\n',
    'library/src/utils/index.ts': "export * from './_addIssue/index.ts';\n",
    'library/src/utils/_addIssue/index.ts': "export * from './_addIssue.ts';\n",
    'library/src/utils/_addIssue/_addIssue.ts':
      'export function _addIssue(context: unknown, label: string, dataset: { issues?: unknown[] }, config: unknown): void {\n  (dataset.issues ??= []).push({ context, label, config });\n}\n',
  };
  for (const a of ACTIONS) {
    const dir = `library/src/actions/${a}`;
    files[`${dir}/index.ts`] = `export * from './${a}.ts';\nexport * from './${a}Async.ts';\n`;
    if (a !== 'partialCheck') {
      files[`${dir}/${a}.ts`] = actionFile(a, false);
      files[`${dir}/${a}Async.ts`] = actionFile(a, true);
      files[`${dir}/${a}.test.ts`] =
        `import { describe, expect, test } from 'vitest';\nimport { ${a} } from './${a}.ts';\n\ndescribe('${a}', () => {\n  test('should return action object', () => {\n    expect(${a}(() => true).kind).toBe('validation');\n  });\n});\n`;
    }
  }
  files['library/src/actions/partialCheck/partialCheck.ts'] = actionFile('partialCheck', false);
  files['library/src/actions/partialCheck/partialCheckAsync.ts'] = PARTIAL_CHECK_ASYNC.replace(
    'RUN_WHEN',
    bug === 'action' ? '!dataset.typed || _isPartiallyTyped(dataset, paths)' : '_isPartiallyTyped(dataset, paths)',
  );
  files['library/src/actions/partialCheck/utils/index.ts'] = "export * from './_isPartiallyTyped/index.ts';\n";
  files['library/src/actions/partialCheck/utils/_isPartiallyTyped/index.ts'] =
    "export * from './_isPartiallyTyped.ts';\n";
  files['library/src/actions/partialCheck/utils/_isPartiallyTyped/_isPartiallyTyped.ts'] = PARTIAL_CHECK_UTILS.replace(
    'UNTYPED',
    bug === 'helper' ? 'typed' : '!typed',
  );
  return files;
}

const TO_JSON_TEST = `import { describe, expect, test } from 'vitest';
import * as v from 'valikit';
import { convertAction } from './convertAction.ts';

describe('convertAction', () => {
  test('should convert check actions', () => {
    expect(convertAction({}, v.check(() => true), undefined)).toStrictEqual({});
  });

  test('should skip a partial check whose paths are not typed', async () => {
    const action = v.partialCheckAsync([['a']], async () => false);
    const dataset = { typed: false, value: { a: 1 }, issues: [{ path: [{ key: 'a' }] }] };
    await action._run(dataset, {});
    expect(dataset.issues).toHaveLength(1);
  });
});
`;

const VITEST_PARTIAL = (file: string, line: number): string => ` RUN  v1.6.0 /workspace

 ❯ ${file} (2 tests | 1 failed) 9ms
   × convertAction > should skip a partial check whose paths are not typed 5ms
     → expected [ { path: [ { key: 'a' } ] }, { context: {…}, label: 'input' } ] to have a length of 1 but got 2

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  ${file} > convertAction > should skip a partial check whose paths are not typed
AssertionError: expected [ { path: [ { key: 'a' } ] }, { context: {…}, label: 'input' } ] to have a length of 1 but got 2
 ❯ ${file}:${line}:27

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯

 Test Files  1 failed | 1 passed (2)
      Tests  1 failed | 3 passed (4)
`;

/** The cases of this file. */
export const REACH_CASES: ContextCase[] = [
  {
    name: 'py test package __init__ imports the library as lib, its __init__ re-exports the module',
    shape: 'two-hop re-export',
    language: 'python',
    files: {
      ...PY_NOISE,
      'pyproject.toml': '[project]\nname = "textkit"\nversion = "2.4.1"\n',
      'textkit/__init__.py': TEXTKIT_INIT,
      ...Object.fromEntries(TEXTKIT_MODULES.map((m, k) => [`textkit/${m}.py`, textkitModule(m, k)])),
      'textkit/wrapping.py': WRAPPING,
      'tests/__init__.py':
        '"""Shared helpers of the test suite."""\nimport os\n\nimport textkit as lib\n\nDATA = os.path.join(os.path.dirname(__file__), "data")\n\n\ndef sample(name):\n    with open(os.path.join(DATA, name)) as f:\n        return f.read()\n',
      'tests/test_wrap.py':
        'import pytest\n\nfrom . import lib\n\n\ndef test_wrap_keeps_short_words():\n    assert lib.wrap("a bb ccc", width=4) == ["a bb", "ccc"]\n\n\ndef test_wrap_breaks_long_words():\n    assert lib.wrap("abcdefgh", width=3) == ["abc", "def", "gh"]\n\n\ndef test_fill_joins_lines():\n    assert lib.fill("a b", width=1) == "a\\nb"\n',
    },
    directive: 'Long words are broken one character too early.',
    output: pytestOutput({
      test: 'tests/test_wrap.py',
      name: 'test_wrap_breaks_long_words',
      line: 11,
      message: 'assert lib.wrap("abcdefgh", width=3) == ["abc", "def", "gh"]',
      error: "AssertionError: assert ['ab', 'cd', 'ef', 'gh'] == ['abc', 'def', 'gh']",
    }),
    fix: [{ path: 'textkit/wrapping.py', line: '            end = space_left - 1' }],
  },
  {
    name: 'py package __init__ star-imports its api, which imports a private subpackage',
    shape: 'two-hop re-export',
    language: 'python',
    files: {
      ...PY_NOISE,
      'pyproject.toml': '[project]\nname = "dateparse"\n',
      'src/dateparse/__init__.py':
        '"""dateparse."""\nfrom .api import *  # noqa: F403\nfrom .version import __version__\n',
      'src/dateparse/version.py': '__version__ = "0.9.0"\n',
      'src/dateparse/api.py':
        '"""The public functions."""\nfrom ._core.parser import DateParser\nfrom ._core.tables import MONTH_NAMES\n\n__all__ = ["parse", "MONTH_NAMES"]\n\n_default = DateParser()\n\n\ndef parse(text, strict=True):\n    """Parse text as a date."""\n    parser = _default if strict else DateParser(strict=False)\n    return parser.parse(text)\n',
      'src/dateparse/_core/__init__.py': '',
      'src/dateparse/_core/tables.py':
        'MONTH_NAMES = [\n    "january", "february", "march", "april", "may", "june",\n    "july", "august", "september", "october", "november", "december",\n]\n',
      'src/dateparse/_core/parser.py': DATE_PARSER,
      'tests/test_api.py':
        'import datetime\n\nimport pytest\n\nimport dateparse\n\n\ndef test_parse_iso():\n    assert dateparse.parse("2024-01-31") == datetime.date(2024, 1, 31)\n\n\ndef test_leap_day_of_a_century_divisible_by_400():\n    assert dateparse.parse("2000-02-29") == datetime.date(2000, 2, 29)\n\n\ndef test_rejects_day_out_of_range():\n    with pytest.raises(ValueError, match="day is out of range"):\n        dateparse.parse("1900-02-29")\n',
    },
    directive: 'February 29th of 1900 is accepted.',
    output: `============================= test session starts ==============================
collected 3 items

tests/test_api.py ..F                                                    [100%]

=================================== FAILURES ===================================
_______________________ test_rejects_day_out_of_range ________________________

    def test_rejects_day_out_of_range():
        with pytest.raises(ValueError, match="day is out of range"):
>           dateparse.parse("1900-02-29")
E           Failed: DID NOT RAISE <class 'ValueError'>

tests/test_api.py:18: Failed
=========================== short test summary info ============================
FAILED tests/test_api.py::test_rejects_day_out_of_range - Failed: DID NOT RAISE <class 'ValueError'>
========================= 1 failed, 2 passed in 0.06s ==========================
`,
    fix: [{ path: 'src/dateparse/_core/parser.py', line: 'return 29 if year % 4 == 0 else 28' }],
  },
  {
    name: "go root package's test calls the parser package, the construct deep in its big file",
    shape: 'Go cross-package test',
    language: 'go',
    files: {
      ...GO_NOISE,
      'go.mod': 'module example.com/toml\n\ngo 1.22\n',
      ...Object.fromEntries(
        ['decode', 'encode', 'types', 'marshal', 'errors', 'meta'].map((n, k) => [
          `${n}.go`,
          `package toml\n\nimport "fmt"\n\n${goFuncs(30, '', 1000 + 40 * k)}`,
        ]),
      ),
      'toml.go':
        'package toml\n\nimport "example.com/toml/parser"\n\n// Unmarshal decodes a document into v.\nfunc Unmarshal(data []byte, v any) error {\n\t_, err := parser.Parse(data)\n\treturn err\n}\n',
      'toml_test.go': GO_ROOT_TEST,
      'parser/parser.go': `${GO_PARSER_HEAD}\n${goFuncs(70, 'p *parser', 1300)}${GO_PARSER_DEEP}\n${goFuncs(20, 'p *parser', 1400)}`,
      'parser/lexer.go': `package parser\n\nimport "fmt"\n\n${goFuncs(30, '', 1500)}`,
      'parser/parser_test.go':
        'package parser\n\nimport "testing"\n\nfunc TestParseEmpty(t *testing.T) {\n\tif _, err := Parse(nil); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n',
    },
    directive: 'A trailing comma in an inline table must be an error.',
    output: goTestOutput({
      pkg: 'example.com/toml',
      test: 'TestParseInlineTableTrailingComma',
      file: 'toml_test.go',
      line: 20,
      message: 'want an error for the trailing comma, got 1 tables',
    }),
    fix: [{ path: 'parser/parser.go', line: '\t\t\tp.skipSpace()' }],
  },
  {
    name: 'go command test calls config.Load, the bug in a helper in another file of that package',
    shape: 'Go cross-package test',
    language: 'go',
    files: {
      ...GO_NOISE,
      'go.mod': 'module example.com/app\n\ngo 1.22\n',
      'cmd/app/main.go':
        'package main\n\nimport (\n\t"log"\n\n\t"example.com/app/internal/config"\n)\n\nfunc main() {\n\tc, err := config.Load("app.conf")\n\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n\tlog.Println(c.Listen)\n}\n',
      'cmd/app/main_test.go':
        'package main\n\nimport (\n\t"os"\n\t"path/filepath"\n\t"testing"\n\n\t"example.com/app/internal/config"\n)\n\nfunc TestLoadExpandsBraces(t *testing.T) {\n\tdir := t.TempDir()\n\tpath := filepath.Join(dir, "app.conf")\n\tos.WriteFile(path, []byte("listen = ${HOST}:8080\\n"), 0o600)\n\tt.Setenv("HOST", "localhost")\n\tc, err := config.Load(path)\n\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n\tif c.Listen != "localhost:8080" {\n\t\tt.Errorf("Listen = %q", c.Listen)\n\t}\n}\n',
      'internal/config/load.go': GO_CONFIG_LOAD,
      'internal/config/env.go': GO_CONFIG_ENV,
      'internal/config/lines.go':
        'package config\n\nimport "strings"\n\nfunc parseLines(s string) (map[string]string, error) {\n\tout := map[string]string{}\n\tfor _, line := range strings.Split(s, "\\n") {\n\t\tk, v, ok := strings.Cut(line, "=")\n\t\tif ok {\n\t\t\tout[strings.TrimSpace(k)] = strings.TrimSpace(v)\n\t\t}\n\t}\n\treturn out, nil\n}\n',
      ...Object.fromEntries(
        Array.from({ length: 14 }, (_, k) => [
          `internal/config/part${k}.go`,
          `package config\n\nimport "fmt"\n\n${goFuncs(12, '', 1600 + 12 * k)}`,
        ]),
      ),
    },
    directive: '${NAME} in a config value is not expanded right.',
    output: goTestOutput({
      pkg: 'example.com/app/cmd/app',
      test: 'TestLoadExpandsBraces',
      file: 'main_test.go',
      line: 21,
      message: 'Listen = "localhost}:8080"',
    }),
    fix: [{ path: 'internal/config/env.go', line: 'i += end - 1' }],
  },
  {
    name: 'rust test derives DeJson, the derive macro in a path-dependency proc-macro crate',
    shape: 'Rust derive crate',
    language: 'rust',
    files: {
      ...RS_NOISE,
      'Cargo.toml':
        '[package]\nname = "minijson"\nversion = "0.3.0"\nedition = "2021"\n\n[dependencies]\nminijson-derive = { path = "derive", version = "=0.3.0", optional = true }\n\n[features]\ndefault = ["derive"]\nderive = ["dep:minijson-derive"]\n',
      'src/lib.rs': MINIJSON_LIB,
      'src/serde_json.rs': MINIJSON_SERDE,
      'derive/Cargo.toml':
        '[package]\nname = "minijson-derive"\nversion = "0.3.0"\nedition = "2021"\n\n[lib]\nproc-macro = true\n',
      'derive/src/lib.rs': DERIVE_LIB,
      'derive/src/serde_json.rs': DERIVE_SERDE_JSON,
      'derive/src/shared.rs': DERIVE_SHARED,
      'derive/src/parse.rs': `use alloc::string::String;\n\n${rustFns(60, 800)}`,
      'tests/json.rs':
        'use minijson::{DeJson, SerJson};\n\n#[derive(DeJson, SerJson, Debug, PartialEq)]\nstruct Plain {\n    a: i32,\n}\n\n#[derive(DeJson, Debug, PartialEq)]\nstruct WithDefault {\n    a: i32,\n    #[mj(default = "7")]\n    b: i32,\n}\n\n#[test]\nfn de_plain() {\n    let p: Plain = DeJson::deserialize_json(r#"{"a": 1}"#).unwrap();\n    assert_eq!(p, Plain { a: 1 });\n}\n\n#[test]\nfn de_field_default() {\n    let w: WithDefault = DeJson::deserialize_json(r#"{"a": 1}"#).unwrap();\n    assert_eq!(w, WithDefault { a: 1, b: 7 });\n}\n',
    },
    directive: '#[mj(default)] on a field is ignored when the key is missing.',
    output: `   Compiling minijson-derive v0.3.0 (/workspace/derive)
   Compiling minijson v0.3.0 (/workspace)
    Finished \`test\` profile [unoptimized + debuginfo] target(s) in 3.10s
     Running tests/json.rs (target/debug/deps/json-5f2c1a)

running 2 tests
test de_plain ... ok
test de_field_default ... FAILED

failures:

---- de_field_default stdout ----
thread 'de_field_default' panicked at tests/json.rs:{{tests/json.rs#let w: WithDefault}}:75:
called \`Result::unwrap()\` on an \`Err\` value: DeJsonErr { msg: "Key not found b", line: 0, col: 9 }
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace


failures:
    de_field_default

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
`,
    fix: [{ path: 'derive/src/serde_json.rs', line: 'unwraps.push_str(&format!("{}: _{}.ok_or_else(|| s.err_nf' }],
  },
  {
    name: 'rust workspace crate: a trait re-exported by lib.rs, the bug in the crate root it calls',
    shape: 'Rust derive crate',
    language: 'rust',
    files: {
      ...RS_NOISE,
      'Cargo.toml': '[workspace]\nmembers = ["crates/*"]\nresolver = "2"\n',
      'crates/casing/Cargo.toml': '[package]\nname = "casing"\nversion = "0.5.0"\nedition = "2021"\n',
      'crates/casing/src/lib.rs': HECK_LIB,
      'crates/casing/src/kebab.rs': HECK_KEBAB,
      'crates/casing/src/snake.rs': heckCase('snake case', 'ToSnakeCase', 'AsSnakeCase', '_', 'lowercase'),
      'crates/casing/src/upper_camel.rs': heckCase(
        'upper camel case',
        'ToUpperCamelCase',
        'AsUpperCamelCase',
        '',
        'capitalize',
      ),
      'crates/cli/Cargo.toml':
        '[package]\nname = "cli"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\ncasing = { path = "../casing" }\n',
      'crates/cli/src/main.rs':
        'use casing::ToKebabCase;\n\nfn main() {\n    for arg in std::env::args().skip(1) {\n        println!("{}", arg.to_kebab_case());\n    }\n}\n',
      'crates/cli/tests/kebab.rs':
        'use casing::ToKebabCase;\n\n#[test]\nfn kebab_of_camel() {\n    assert_eq!("fooBar".to_kebab_case(), "foo-bar");\n}\n\n#[test]\nfn kebab_of_upper_camel() {\n    assert_eq!("FooBar".to_kebab_case(), "foo-bar");\n}\n',
    },
    directive: 'to_kebab_case keeps upper-case letters.',
    output: cargoOutput({
      test: 'kebab_of_upper_camel',
      at: 'crates/cli/tests/kebab.rs:10:5',
      target: 'tests/kebab.rs',
    }).replace('left: 10\n right: 0', 'left: "Foo-Bar"\n right: "foo-bar"'),
    fix: [{ path: 'crates/casing/src/lib.rs', line: '        write!(f, "{}", c)?;' }],
  },
  {
    name: 'ts monorepo: a package test imports a workspace package named unlike its directory, barrels three deep',
    shape: 'monorepo package',
    language: 'typescript',
    files: {
      ...TS_NOISE,
      ...monorepoLibrary('helper'),
      'packages/to-json/package.json': '{ "name": "@valikit/to-json", "dependencies": { "valikit": "workspace:*" } }\n',
      'packages/to-json/src/index.ts': "export * from './convertAction.ts';\n",
      'packages/to-json/src/convertAction.ts':
        "import type * as v from 'valikit';\n\n/**\n * Converts a validation action to JSON Schema.\n */\nexport function convertAction(schema: object, action: v.BaseValidation<unknown>, config: unknown): object {\n  if (action.type === 'check' || action.type === 'partial_check') return schema;\n  return { ...schema, config };\n}\n",
      'packages/to-json/src/convertAction.test.ts': TO_JSON_TEST,
    },
    directive: 'partialCheckAsync runs its requirement although the selected paths have issues.',
    output: VITEST_PARTIAL('src/convertAction.test.ts', 14),
    fix: [
      { path: 'library/src/actions/partialCheck/utils/_isPartiallyTyped/_isPartiallyTyped.ts', line: 'if (typed) {' },
    ],
  },
  {
    name: 'ts monorepo: the failing test beside the action imports the package barrel',
    shape: 'monorepo package',
    language: 'typescript',
    files: {
      ...TS_NOISE,
      ...monorepoLibrary('action'),
      'library/src/actions/partialCheck/partialCheckAsync.test.ts':
        "import { describe, expect, test } from 'vitest';\nimport * as v from '../../index.ts';\n\ndescribe('partialCheckAsync', () => {\n  test('should return action object', () => {\n    expect(v.partialCheckAsync([['a']], async () => true).kind).toBe('validation');\n  });\n\n  test('should not run when a selected path has an issue', async () => {\n    const action = v.partialCheckAsync([['a']], async () => false);\n    const dataset = { typed: false, value: { a: 1 }, issues: [{ path: [{ key: 'a' }] }] };\n    await action._run(dataset, {});\n    expect(dataset.issues).toHaveLength(1);\n  });\n});\n",
    },
    directive: 'partialCheckAsync must not run while a selected path has an issue.',
    output: VITEST_PARTIAL('src/actions/partialCheck/partialCheckAsync.test.ts', 13).replace(
      /convertAction > should skip a partial check whose paths are not typed/g,
      'partialCheckAsync > should not run when a selected path has an issue',
    ),
    fix: [
      {
        path: 'library/src/actions/partialCheck/partialCheckAsync.ts',
        line: 'if (!dataset.typed || _isPartiallyTyped',
      },
    ],
  },
];
