import { describe, expect, it } from 'vitest';
import { analyzeSource, enclosingDefinitions, findDefinitions, parseProblems } from '../../../src/syntax/index.js';

const RUST = `//! Temperatures.
extern crate serde;

mod convert;
pub mod units {
    pub mod si;
    pub const ZERO_C: f64 = 273.15;
}

use std::collections::{HashMap, hash_map::Entry as MapEntry, self};
use std::fmt;
use crate::convert::*;
use super::config::Settings as Cfg;

pub static SCALE: &str = "celsius";

#[derive(Debug, Clone, PartialEq)]
pub struct Celsius(pub f64);

pub enum Unit {
    Celsius,
    Fahrenheit,
}

pub trait Temperature {
    fn kelvin(&self) -> f64;

    fn describe(&self) -> String {
        format!("{} K", self.kelvin())
    }
}

impl Celsius {
    pub fn new(value: f64) -> Self {
        Celsius(value)
    }

    #[inline]
    pub fn to_fahrenheit(&self) -> f64 {
        self.0 * 9.0 / 5.0 + 32.0
    }
}

impl<T: Into<f64> + Copy> Temperature for Wrapper<T> {
    fn kelvin(&self) -> f64 {
        self.0.into() + units::ZERO_C
    }
}

impl fmt::Display for Celsius {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}°C", self.0)
    }
}

pub type Table = HashMap<String, Celsius>;

macro_rules! celsius {
    ($v:expr) => {
        Celsius::new($v)
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freezing() {
        assert_eq!(Celsius::new(0.0).to_fahrenheit(), 32.0);
    }
}
`;

describe('rust definitions', () => {
  it('finds structs, enums, traits, impl blocks with their methods, consts, modules and macros', async () => {
    const defs = await findDefinitions('rust', RUST);
    expect(defs.map((d) => [d.kind, d.qualifiedName, d.startLine, d.endLine])).toEqual([
      ['module', 'units', 5, 8],
      ['const', 'units::ZERO_C', 7, 7],
      ['const', 'SCALE', 15, 15],
      ['struct', 'Celsius', 17, 18],
      ['enum', 'Unit', 20, 23],
      ['trait', 'Temperature', 25, 31],
      ['method', 'Temperature::kelvin', 26, 26],
      ['method', 'Temperature::describe', 28, 30],
      ['impl', 'Celsius', 33, 42],
      ['method', 'Celsius::new', 34, 36],
      ['method', 'Celsius::to_fahrenheit', 38, 41],
      ['impl', 'Wrapper', 44, 48],
      ['method', 'Wrapper::kelvin', 45, 47],
      ['impl', 'Celsius', 50, 54],
      ['method', 'Celsius::fmt', 51, 53],
      ['type', 'Table', 56, 56],
      ['macro', 'celsius', 58, 62],
      ['module', 'tests', 64, 72],
      ['function', 'tests::freezing', 68, 71],
    ]);
  });

  it('gives impl signatures with their trait and generics', async () => {
    const defs = await findDefinitions('rust', RUST);
    const sigs = defs.filter((d) => d.kind === 'impl').map((d) => d.signature);
    expect(sigs).toEqual([
      'impl Celsius',
      'impl<T: Into<f64> + Copy> Temperature for Wrapper<T>',
      'impl fmt::Display for Celsius',
    ]);
    const sig = (q: string): string | undefined => defs.find((d) => d.qualifiedName === q)?.signature;
    expect(sig('Celsius::fmt')).toBe("fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result");
    expect(sig('Temperature::kelvin')).toBe('fn kelvin(&self) -> f64');
    expect(sig('Celsius')).toBe('pub struct Celsius(pub f64)');
    expect(enclosingDefinitions(defs, 40).map((d) => d.qualifiedName)).toEqual(['Celsius', 'Celsius::to_fahrenheit']);
  });

  it('reads use trees leaf by leaf, mod declarations (inside inline modules too) and extern crates', async () => {
    const { imports, problems } = await analyzeSource('rust', RUST);
    expect(problems).toEqual([]);
    expect(imports.map((i) => [i.kind, i.source, i.names, i.line])).toEqual([
      ['extern-crate', 'serde', [], 2],
      ['mod', 'convert', [], 4],
      ['mod', 'units::si', [], 6],
      ['use', 'std::collections::HashMap', [], 10],
      ['use', 'std::collections::hash_map::Entry', [], 10],
      ['use', 'std::collections', [], 10],
      ['use', 'std::fmt', [], 11],
      ['use', 'crate::convert', ['*'], 12],
      ['use', 'super::config::Settings', [], 13],
      ['use', 'super', ['*'], 66],
    ]);
  });
});

describe('rust parse problems', () => {
  it('reports a use line cut off inside its braces', async () => {
    const problems = await parseProblems('rust', 'use std::{\n\nfn main() {}\n');
    expect(problems.length).toBeGreaterThan(0);
  });

  it('reports a missing semicolon between statements', async () => {
    const problems = await parseProblems('rust', 'fn main() {\n    let x = 1\n    println!("{}", x);\n}\n');
    expect(problems[0]).toMatchObject({ kind: 'error', line: 2, excerpt: '    let x = 1' });
  });

  it('reports a duplicated parameter in a function and a closure', async () => {
    const text = 'fn f(a: i32, a: i32) {}\nfn g() { let h = |x, x| x; }\n';
    expect((await parseProblems('rust', text)).map((p) => `${p.line}:${p.message}`)).toEqual([
      '1:duplicate parameter "a"',
      '2:duplicate parameter "x"',
    ]);
  });
});
