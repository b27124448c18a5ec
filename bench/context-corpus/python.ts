// Python cases: flat modules, packages, the src layout, re-exports, big files, unittest, monorepos.
import { bigFile, noise, pytestOutput, type ContextCase } from './shapes.js';

const NOISE = noise('python', 'legacy', 24);

/** The Python cases. */
export const PYTHON_CASES: ContextCase[] = [
  {
    name: 'py flat module, small repository',
    language: 'python',
    files: {
      'calc.py': 'def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a + (-b)\n',
      'tests/test_calc.py':
        'from calc import add, sub\n\n\ndef test_sub():\n    assert sub(3, 2) == 1\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
    },
    directive: 'The tests fail. Fix the bug.',
    output: pytestOutput({
      test: 'tests/test_calc.py',
      name: 'test_add',
      line: 9,
      message: 'assert add(2, 3) == 5',
      error: 'assert -1 == 5',
    }),
    fix: [{ path: 'calc.py', line: '    return a - b' }],
  },
  {
    name: 'py package, absolute import of a submodule',
    language: 'python',
    files: {
      ...NOISE,
      'mathx/__init__.py': '"""Small math helpers."""\n',
      'mathx/ops.py':
        'def clamp(value, low, high):\n    if value < low:\n        return low\n    if value > high:\n        return value\n    return value\n',
      'tests/test_ops.py':
        'from mathx.ops import clamp\n\n\ndef test_clamp_high():\n    assert clamp(15, 0, 10) == 10\n',
    },
    directive: 'clamp() returns values above the upper bound. Make the tests pass.',
    output: pytestOutput({
      test: 'tests/test_ops.py',
      name: 'test_clamp_high',
      line: 5,
      message: 'assert clamp(15, 0, 10) == 10',
      error: 'assert 15 == 10',
    }),
    fix: [{ path: 'mathx/ops.py', line: '        return value' }],
  },
  {
    name: 'py src layout, a method of a class',
    language: 'python',
    files: {
      ...NOISE,
      'pyproject.toml': '[project]\nname = "shop"\n',
      'src/shop/__init__.py': '',
      'src/shop/cart.py':
        'from dataclasses import dataclass, field\n\n\n@dataclass\nclass Cart:\n    items: list = field(default_factory=list)\n\n    def add(self, price, qty=1):\n        self.items.append((price, qty))\n\n    def total(self):\n        return sum(price for price, qty in self.items)\n',
      'tests/test_cart.py':
        'from shop.cart import Cart\n\n\ndef test_total_counts_quantity():\n    cart = Cart()\n    cart.add(2.5, qty=4)\n    assert cart.total() == 10.0\n',
    },
    directive: 'Cart.total ignores quantities.',
    output: pytestOutput({
      test: 'tests/test_cart.py',
      name: 'test_total_counts_quantity',
      line: 7,
      message: 'assert cart.total() == 10.0',
      error: 'assert 2.5 == 10.0',
    }),
    fix: [{ path: 'src/shop/cart.py', line: 'return sum(price for price, qty in self.items)' }],
  },
  {
    name: 'py re-export through a package __init__',
    language: 'python',
    files: {
      ...NOISE,
      'src/geo/__init__.py': 'from .shapes import area, perimeter\n\n__all__ = ["area", "perimeter"]\n',
      'src/geo/shapes.py':
        'import math\n\n\ndef area(radius):\n    return math.pi * radius * 2\n\n\ndef perimeter(radius):\n    return 2 * math.pi * radius\n',
      'tests/test_geo.py':
        'import math\n\nfrom geo import area\n\n\ndef test_area():\n    assert area(2) == math.pi * 4\n',
    },
    directive: 'area() of a circle is wrong.',
    output: pytestOutput({
      test: 'tests/test_geo.py',
      name: 'test_area',
      line: 7,
      message: 'assert area(2) == math.pi * 4',
      error: 'assert 12.566 == 12.566',
    }),
    fix: [{ path: 'src/geo/shapes.py', line: 'return math.pi * radius * 2' }],
  },
  {
    name: 'py big file, the fault named by the traceback deep inside',
    language: 'python',
    files: {
      ...NOISE,
      'headers.py': bigFile(
        'python',
        1100,
        1080,
        'def parse_header(text):\n    name, _, value = text.partition(":")\n    if not name:\n        raise ValueError(text)\n    return name.strip().lower(), value\n',
        'import re\n',
      ),
      'tests/test_headers.py':
        'from headers import parse_header\n\n\ndef test_value_is_stripped():\n    assert parse_header("Host:  example.org ") == ("host", "example.org")\n',
    },
    directive: 'parse_header must strip the value too.',
    output: pytestOutput({
      test: 'tests/test_headers.py',
      name: 'test_value_is_stripped',
      line: 5,
      message: 'assert parse_header("Host:  example.org ") == ("host", "example.org")',
      error: "AssertionError: assert ('host', '  example.org ') == ('host', 'example.org')",
    }),
    fix: [{ path: 'headers.py', line: 'return name.strip().lower(), value' }],
  },
  {
    name: 'py big file, the fault in a helper the tested function calls',
    language: 'python',
    files: {
      ...NOISE,
      'markup.py': bigFile(
        'python',
        1000,
        700,
        'def _escape(text):\n    return text.replace("<", "&lt;").replace(">", "&gt;")\n\n\n' +
          bigFile('python', 0, -1, '') +
          'def render(tag, text):\n    return f"<{tag}>{_escape(text)}</{tag}>"\n',
      ),
      'tests/test_markup.py':
        'from markup import render\n\n\ndef test_ampersand_is_escaped():\n    assert render("b", "a & b") == "<b>a &amp; b</b>"\n',
    },
    directive: 'Ampersands are not escaped.',
    output: pytestOutput({
      test: 'tests/test_markup.py',
      name: 'test_ampersand_is_escaped',
      line: 5,
      message: 'assert render("b", "a & b") == "<b>a &amp; b</b>"',
    }),
    fix: [{ path: 'markup.py', line: 'return text.replace("<", "&lt;").replace(">", "&gt;")' }],
  },
  {
    name: 'py unittest, module named by the test id',
    language: 'python',
    files: {
      ...NOISE,
      'dates/__init__.py': '',
      'dates/spans.py': 'def days_between(a, b):\n    return (b - a).days - 1\n',
      'tests/__init__.py': '',
      'tests/test_spans.py':
        'import unittest\nfrom datetime import date\n\nfrom dates import spans\n\n\nclass SpanTest(unittest.TestCase):\n    def test_days(self):\n        self.assertEqual(spans.days_between(date(2024, 1, 1), date(2024, 1, 3)), 2)\n',
    },
    directive: 'days_between is off by one.',
    output: `F
======================================================================
FAIL: test_days (tests.test_spans.SpanTest.test_days)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/workspace/tests/test_spans.py", line 9, in test_days
    self.assertEqual(spans.days_between(date(2024, 1, 1), date(2024, 1, 3)), 2)
AssertionError: 1 != 2

----------------------------------------------------------------------
Ran 1 test in 0.001s

FAILED (failures=1)
`,
    fix: [{ path: 'dates/spans.py', line: 'return (b - a).days - 1' }],
  },
  {
    name: 'py monorepo subfolder, paths relative to the service',
    language: 'python',
    files: {
      ...NOISE,
      'services/billing/pyproject.toml': '[project]\nname = "billing"\n',
      'services/billing/src/billing/__init__.py': '',
      'services/billing/src/billing/tax.py':
        'RATE = 0.2\n\n\ndef with_tax(amount):\n    return round(amount * RATE, 2)\n',
      'services/billing/tests/test_tax.py':
        'from billing.tax import with_tax\n\n\ndef test_with_tax():\n    assert with_tax(10) == 12.0\n',
      'services/users/src/users/__init__.py': '',
      'services/users/src/users/names.py': 'def full_name(first, last):\n    return f"{first} {last}"\n',
      'services/users/tests/test_names.py':
        'from users.names import full_name\n\n\ndef test_full_name():\n    assert full_name("a", "b") == "a b"\n',
    },
    directive: 'with_tax must add the tax to the amount.',
    output: pytestOutput({
      test: 'tests/test_tax.py',
      name: 'test_with_tax',
      line: 5,
      message: 'assert with_tax(10) == 12.0',
      error: 'assert 2.0 == 12.0',
    }),
    fix: [{ path: 'services/billing/src/billing/tax.py', line: 'return round(amount * RATE, 2)' }],
  },
  {
    name: 'py test importing several modules',
    language: 'python',
    files: {
      ...NOISE,
      'inventory/__init__.py': '',
      'inventory/stock.py': 'def in_stock(levels, sku):\n    return levels.get(sku, 0) > 0\n',
      'inventory/prices.py':
        'def unit_price(prices, sku):\n    return prices[sku]\n\n\ndef line_total(prices, sku, qty):\n    return unit_price(prices, sku) + qty\n',
      'inventory/report.py': 'def fmt(amount):\n    return f"{amount:.2f}"\n',
      'tests/test_order.py':
        'from inventory.prices import line_total\nfrom inventory.report import fmt\nfrom inventory.stock import in_stock\n\n\ndef test_order_line():\n    assert in_stock({"a": 2}, "a")\n    assert fmt(line_total({"a": 1.5}, "a", 4)) == "6.00"\n',
    },
    directive: 'Order lines are priced wrong.',
    output: pytestOutput({
      test: 'tests/test_order.py',
      name: 'test_order_line',
      line: 8,
      message: 'assert fmt(line_total({"a": 1.5}, "a", 4)) == "6.00"',
      error: "AssertionError: assert '5.50' == '6.00'",
    }),
    fix: [{ path: 'inventory/prices.py', line: 'return unit_price(prices, sku) + qty' }],
  },
  {
    name: 'py exception raised deep in a big module (traceback frames)',
    language: 'python',
    files: {
      ...NOISE,
      'config/__init__.py': '',
      'config/loader.py': bigFile(
        'python',
        900,
        850,
        'def read_port(settings):\n    return int(settings["prot"])\n',
        'import os\n',
      ),
      'tests/test_loader.py':
        'from config.loader import read_port\n\n\ndef test_port():\n    assert read_port({"port": "80"}) == 80\n',
    },
    directive: 'read_port raises KeyError.',
    output: `============================= test session starts ==============================
collected 1 item

tests/test_loader.py F                                                   [100%]

=================================== FAILURES ===================================
__________________________________ test_port ___________________________________

    def test_port():
>       assert read_port({"port": "80"}) == 80

tests/test_loader.py:5: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

settings = {'port': '80'}

    def read_port(settings):
>       return int(settings["prot"])
E       KeyError: 'prot'

config/loader.py:{{config/loader.py#return int(settings["prot"])}}: KeyError
=========================== short test summary info ============================
FAILED tests/test_loader.py::test_port - KeyError: 'prot'
============================== 1 failed in 0.04s ===============================
`,
    fix: [{ path: 'config/loader.py', line: 'return int(settings["prot"])' }],
  },
];
