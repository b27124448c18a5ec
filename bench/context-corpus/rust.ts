// Rust cases: tests/ against src/ through the crate name, unit tests in a module, nested modules,
// a big file, a workspace member, and crate:: paths between modules.
import { bigFile, cargoOutput, noise, type ContextCase } from './shapes.js';

const RS_NOISE = noise('rust', 'src/legacy', 24);
const LEGACY_MODS = Array.from({ length: 24 }, (_, k) => `mod part_${k};`).join('\n');

/** The Rust cases. */
export const RUST_CASES: ContextCase[] = [
  {
    name: 'rust tests/ against src/ through the crate name',
    language: 'rust',
    files: {
      ...RS_NOISE,
      'Cargo.toml': '[package]\nname = "temp-conv"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/lib.rs': `pub mod convert;\nmod legacy {\n${LEGACY_MODS}\n}\n`,
      'src/convert.rs': '/// Fahrenheit to Celsius.\npub fn celsius(f: f64) -> f64 {\n    (f - 32.0) * 9.0 / 5.0\n}\n',
      'tests/convert.rs':
        'use temp_conv::convert::celsius;\n\n#[test]\nfn freezing() {\n    assert_eq!(celsius(32.0), 0.0);\n}\n\n#[test]\nfn boiling() {\n    assert_eq!(celsius(212.0), 100.0);\n}\n',
    },
    directive: 'celsius() uses the wrong factor.',
    output: cargoOutput({ test: 'boiling', at: 'tests/convert.rs:10:5', target: 'tests/convert.rs' }),
    fix: [{ path: 'src/convert.rs', line: '(f - 32.0) * 9.0 / 5.0' }],
  },
  {
    name: 'rust unit test inside the module',
    language: 'rust',
    files: {
      ...RS_NOISE,
      'Cargo.toml': '[package]\nname = "stack"\nversion = "0.1.0"\n',
      'src/lib.rs': 'pub mod stack;\n',
      'src/stack.rs':
        '/// A stack.\npub struct Stack<T> {\n    items: Vec<T>,\n}\n\nimpl<T> Stack<T> {\n    pub fn new() -> Self {\n        Stack { items: Vec::new() }\n    }\n\n    pub fn push(&mut self, item: T) {\n        self.items.insert(0, item);\n    }\n\n    pub fn pop(&mut self) -> Option<T> {\n        self.items.pop()\n    }\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn pops_last_pushed() {\n        let mut s = Stack::new();\n        s.push(1);\n        s.push(2);\n        assert_eq!(s.pop(), Some(2));\n    }\n}\n',
    },
    directive: 'The stack pops in the wrong order.',
    output: cargoOutput({ test: 'stack::tests::pops_last_pushed', at: 'src/stack.rs:29:9' }),
    fix: [{ path: 'src/stack.rs', line: 'self.items.insert(0, item);' }],
  },
  {
    name: 'rust nested modules reached by a crate path from tests/',
    language: 'rust',
    files: {
      ...RS_NOISE,
      'Cargo.toml': '[package]\nname = "shapes"\nversion = "0.1.0"\n',
      'src/lib.rs': 'pub mod geometry;\n',
      'src/geometry/mod.rs': 'pub mod area;\npub mod length;\n',
      'src/geometry/area.rs': 'pub fn rect(w: u32, h: u32) -> u32 {\n    w + h\n}\n',
      'src/geometry/length.rs': 'pub fn perimeter(w: u32, h: u32) -> u32 {\n    2 * (w + h)\n}\n',
      'tests/area.rs':
        'use shapes::geometry::area::rect;\n\n#[test]\nfn rect_area() {\n    assert_eq!(rect(2, 3), 6);\n}\n',
    },
    directive: 'rect() computes the wrong area.',
    output: cargoOutput({ test: 'rect_area', at: 'tests/area.rs:5:5', target: 'tests/area.rs' }),
    fix: [{ path: 'src/geometry/area.rs', line: '    w + h' }],
  },
  {
    name: 'rust big file, the fault deep inside',
    language: 'rust',
    files: {
      ...RS_NOISE,
      'Cargo.toml': '[package]\nname = "mathlib"\nversion = "0.1.0"\n',
      'src/lib.rs': bigFile(
        'rust',
        1000,
        940,
        '/// Integer mean, rounded down.\npub fn mean(xs: &[i64]) -> i64 {\n    let sum: i64 = xs.iter().sum();\n    sum / (xs.len() as i64 + 1)\n}\n',
      ),
      'tests/mean.rs': 'use mathlib::mean;\n\n#[test]\nfn mean_of_three() {\n    assert_eq!(mean(&[1, 2, 3]), 2);\n}\n',
    },
    directive: 'mean() divides by the wrong count.',
    output: cargoOutput({ test: 'mean_of_three', at: 'tests/mean.rs:5:5', target: 'tests/mean.rs' }),
    fix: [{ path: 'src/lib.rs', line: 'sum / (xs.len() as i64 + 1)' }],
  },
  {
    name: 'rust workspace member used by another member',
    language: 'rust',
    files: {
      ...RS_NOISE,
      'Cargo.toml': '[workspace]\nmembers = ["crates/*"]\n',
      'crates/core/Cargo.toml': '[package]\nname = "core-lib"\nversion = "0.1.0"\n',
      'crates/core/src/lib.rs': 'pub mod ids;\n',
      'crates/core/src/ids.rs': 'pub fn next_id(last: u64) -> u64 {\n    last\n}\n',
      'crates/cli/Cargo.toml':
        '[package]\nname = "cli"\nversion = "0.1.0"\n\n[dependencies]\ncore-lib = { path = "../core" }\n',
      'crates/cli/src/lib.rs': 'pub fn banner() -> &\'static str {\n    "cli"\n}\n',
      'crates/cli/tests/ids.rs':
        'use core_lib::ids::next_id;\n\n#[test]\nfn ids_increase() {\n    assert_eq!(next_id(1), 2);\n}\n',
    },
    directive: 'next_id must increase.',
    output: cargoOutput({ test: 'ids_increase', at: 'crates/cli/tests/ids.rs:5:5', target: 'tests/ids.rs' }),
    fix: [{ path: 'crates/core/src/ids.rs', line: '    last' }],
  },
  {
    name: 'rust crate:: path between modules, unit test at the crate root',
    language: 'rust',
    files: {
      ...RS_NOISE,
      'Cargo.toml': '[package]\nname = "greet"\nversion = "0.1.0"\n',
      'src/lib.rs':
        'mod util;\n\nuse crate::util::capitalize;\n\npub fn greet(name: &str) -> String {\n    format!("Hello, {}!", capitalize(name))\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn greets() {\n        assert_eq!(super::greet("ann"), "Hello, Ann!");\n    }\n}\n',
      'src/util.rs':
        'pub fn capitalize(s: &str) -> String {\n    let mut c = s.chars();\n    match c.next() {\n        Some(f) => f.to_lowercase().collect::<String>() + c.as_str(),\n        None => String::new(),\n    }\n}\n',
    },
    directive: 'Names are not capitalised.',
    output: cargoOutput({ test: 'tests::greets', at: 'src/lib.rs:13:9' }),
    fix: [{ path: 'src/util.rs', line: 'Some(f) => f.to_lowercase().collect::<String>() + c.as_str(),' }],
  },
];
