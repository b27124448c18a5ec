// Go cases: package-relative file:line output, the package's other files, imports inside the module,
// a big file, a panic's stack, and a module in a subfolder of a monorepo.
import { bigFile, goTestOutput, noise, type ContextCase } from './shapes.js';

const GO_NOISE = noise('go', 'internal/legacy', 24);
const MOD = 'module example.com/m\n\ngo 1.22\n';

/** The Go cases. */
export const GO_CASES: ContextCase[] = [
  {
    name: 'go test names abs_test.go:7, the code is in the package',
    language: 'go',
    files: {
      ...GO_NOISE,
      'go.mod': MOD,
      'mathx/abs.go':
        'package mathx\n\n// Abs returns the absolute value of x.\nfunc Abs(x int) int {\n\tif x < 0 {\n\t\treturn x\n\t}\n\treturn x\n}\n',
      'mathx/abs_test.go':
        'package mathx\n\nimport "testing"\n\nfunc TestAbs(t *testing.T) {\n\tif got := Abs(-1); got != 1 {\n\t\tt.Errorf("Abs(-1) = %d; want 1", got)\n\t}\n}\n',
    },
    directive: 'Abs is wrong for negative numbers.',
    output: goTestOutput({
      pkg: 'example.com/m/mathx',
      test: 'TestAbs',
      file: 'abs_test.go',
      line: 7,
      message: 'Abs(-1) = -1; want 1',
    }),
    fix: [{ path: 'mathx/abs.go', line: '\t\treturn x\n\t}'.split('\n')[0]! }],
  },
  {
    name: 'go package of many files, the used function in one of them',
    language: 'go',
    files: {
      ...GO_NOISE,
      'go.mod': MOD,
      ...Object.fromEntries(
        Array.from({ length: 8 }, (_, k) => [
          `text/part${k}.go`,
          `package text\n\n${bigFile('go', 20, -1, '').replace(/Filler/g, `P${k}Filler`)}`,
        ]),
      ),
      'text/title.go':
        'package text\n\nimport "strings"\n\n// Title upper-cases the first letter of each word.\nfunc Title(s string) string {\n\twords := strings.Fields(s)\n\tfor i, w := range words {\n\t\twords[i] = strings.ToUpper(w[:1]) + w[1:]\n\t}\n\treturn strings.Join(words, "")\n}\n',
      'text/title_test.go':
        'package text\n\nimport "testing"\n\nfunc TestTitle(t *testing.T) {\n\tif got := Title("hello world"); got != "Hello World" {\n\t\tt.Fatalf("got %q", got)\n\t}\n}\n',
    },
    directive: 'Title loses the spaces.',
    output: goTestOutput({
      pkg: 'example.com/m/text',
      test: 'TestTitle',
      file: 'title_test.go',
      line: 7,
      message: 'got "HelloWorld"',
    }),
    fix: [{ path: 'text/title.go', line: 'return strings.Join(words, "")' }],
  },
  {
    name: 'go package importing another package of the module',
    language: 'go',
    files: {
      ...GO_NOISE,
      'go.mod': MOD,
      'internal/num/round.go':
        'package num\n\n// Round2 rounds to two decimals.\nfunc Round2(x float64) float64 {\n\treturn float64(int(x*100)) / 100\n}\n',
      'report/total.go':
        'package report\n\nimport "example.com/m/internal/num"\n\n// Total sums and rounds.\nfunc Total(xs []float64) float64 {\n\tsum := 0.0\n\tfor _, x := range xs {\n\t\tsum += x\n\t}\n\treturn num.Round2(sum)\n}\n',
      'report/total_test.go':
        'package report\n\nimport "testing"\n\nfunc TestTotalRounds(t *testing.T) {\n\tif got := Total([]float64{0.125, 0.5}); got != 0.63 {\n\t\tt.Errorf("Total = %v; want 0.63", got)\n\t}\n}\n',
    },
    directive: 'Totals must round half up.',
    output: goTestOutput({
      pkg: 'example.com/m/report',
      test: 'TestTotalRounds',
      file: 'total_test.go',
      line: 7,
      message: 'Total = 0.62; want 0.63',
    }),
    fix: [{ path: 'internal/num/round.go', line: 'return float64(int(x*100)) / 100' }],
  },
  {
    name: 'go big file, the fault deep inside',
    language: 'go',
    files: {
      ...GO_NOISE,
      'go.mod': MOD,
      'calc/funcs.go': bigFile(
        'go',
        1000,
        900,
        '// Percent returns part as a percentage of whole.\nfunc Percent(part, whole int) int {\n\tif whole == 0 {\n\t\treturn 0\n\t}\n\treturn part * 10 / whole\n}\n',
        'package calc\n',
      ),
      'calc/funcs_test.go':
        'package calc\n\nimport "testing"\n\nfunc TestPercent(t *testing.T) {\n\tif got := Percent(1, 4); got != 25 {\n\t\tt.Errorf("Percent(1, 4) = %d; want 25", got)\n\t}\n}\n',
    },
    directive: 'Percent is off by a factor of ten.',
    output: goTestOutput({
      pkg: 'example.com/m/calc',
      test: 'TestPercent',
      file: 'funcs_test.go',
      line: 7,
      message: 'Percent(1, 4) = 2; want 25',
    }),
    fix: [{ path: 'calc/funcs.go', line: 'return part * 10 / whole' }],
  },
  {
    name: 'go panic with a stack into the code',
    language: 'go',
    files: {
      ...GO_NOISE,
      'go.mod': MOD,
      'store/store.go':
        'package store\n\n// Store keeps values by key.\ntype Store struct {\n\tdata map[string]int\n}\n\n// New returns an empty store.\nfunc New() *Store {\n\treturn &Store{}\n}\n\n// Put sets a value.\nfunc (s *Store) Put(k string, v int) {\n\ts.data[k] = v\n}\n',
      'store/store_test.go':
        'package store\n\nimport "testing"\n\nfunc TestPut(t *testing.T) {\n\ts := New()\n\ts.Put("a", 1)\n}\n',
    },
    directive: 'Put panics on a new store.',
    output: `--- FAIL: TestPut (0.00s)
panic: assignment to entry in nil map [recovered]
	panic: assignment to entry in nil map

goroutine 6 [running]:
testing.tRunner.func1.2({0x4f1a40, 0x56c0b0})
	/usr/local/go/src/testing/testing.go:1631 +0x24a
example.com/m/store.(*Store).Put(...)
	/workspace/store/store.go:15
example.com/m/store.TestPut(0xc000007380)
	/workspace/store/store_test.go:7 +0x45
FAIL	example.com/m/store	0.004s
FAIL
`,
    fix: [{ path: 'store/store.go', line: 'return &Store{}' }],
  },
  {
    name: 'go module in a monorepo subfolder, a file name shared by two services',
    language: 'go',
    files: {
      ...GO_NOISE,
      'services/api/go.mod': 'module example.com/api\n\ngo 1.22\n',
      'services/api/handler/handler.go':
        'package handler\n\nimport "strings"\n\n// Route normalises a request path.\nfunc Route(p string) string {\n\treturn strings.TrimSuffix(strings.ToUpper(p), "/")\n}\n',
      'services/api/handler/handler_test.go':
        'package handler\n\nimport "testing"\n\nfunc TestRoute(t *testing.T) {\n\tif got := Route("/Users/"); got != "/users" {\n\t\tt.Errorf("Route = %q", got)\n\t}\n}\n',
      'services/web/go.mod': 'module example.com/web\n\ngo 1.22\n',
      'services/web/handler/handler.go':
        'package handler\n\n// Home is the home page.\nfunc Home() string {\n\treturn "home"\n}\n',
      'services/web/handler/handler_test.go':
        'package handler\n\nimport "testing"\n\nfunc TestHome(t *testing.T) {\n\tif Home() != "home" {\n\t\tt.Fail()\n\t}\n}\n',
    },
    directive: 'Route must lower-case paths.',
    output: goTestOutput({
      pkg: 'example.com/api/handler',
      test: 'TestRoute',
      file: 'handler_test.go',
      line: 7,
      message: 'Route = "/USERS"',
    }),
    fix: [{ path: 'services/api/handler/handler.go', line: 'return strings.TrimSuffix(strings.ToUpper(p), "/")' }],
  },
];
