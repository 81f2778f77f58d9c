package checks

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

// docPath is the check author's reference whose examples this test runs.
const docPath = "../../docs/CHECKS.md"

// minDocExamples guards against examples silently disappearing from the doc.
const minDocExamples = 40

// docExample is one ```starlark example block of docs/CHECKS.md.
type docExample struct {
	heading string   // the nearest heading above the block, without the #s
	index   int      // 1-based position of the block under its heading
	line    int      // 1-based doc line of the opening fence
	setup   []string // lines before the final expression
	expr    string   // the final expression
	want    string   // the text after "# => "
}

// parseDocExamples extracts the ```starlark example blocks. A block holds zero
// or more setup lines, one final expression line and a last line
// "# => <repr>". Headings are tracked outside fenced blocks only, so "#"
// comments inside any code block are never taken for headings.
func parseDocExamples(t *testing.T, path string) []docExample {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	defer f.Close()
	var (
		out       []docExample
		heading   string
		perHead   = map[string]int{}
		inFence   bool
		inExample bool
		start     int
		body      []string
	)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case !inFence && strings.HasPrefix(trimmed, "```"):
			inFence = true
			inExample = strings.TrimSpace(strings.TrimPrefix(trimmed, "```")) == "starlark example"
			start, body = n, nil
		case inFence && trimmed == "```":
			inFence = false
			if !inExample {
				continue
			}
			inExample = false
			if len(body) < 2 || !strings.HasPrefix(body[len(body)-1], "# => ") {
				t.Errorf("%s:%d: a starlark example needs a final expression line and then a line \"# => <repr>\"", path, start)
				continue
			}
			perHead[heading]++
			out = append(out, docExample{
				heading: heading,
				index:   perHead[heading],
				line:    start,
				setup:   body[:len(body)-2],
				expr:    body[len(body)-2],
				want:    strings.TrimRight(strings.TrimPrefix(body[len(body)-1], "# => "), " \t"),
			})
		case inFence:
			if inExample {
				body = append(body, line)
			}
		case strings.HasPrefix(line, "#"):
			heading = strings.TrimSpace(strings.TrimLeft(line, "#"))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	if inFence {
		t.Errorf("%s:%d: unterminated code block", path, start)
	}
	return out
}

// checkSource builds a check file whose run_checks runs the setup lines and
// returns the repr of the final expression in actual. The parameter is named
// _code so that setup lines may assign code themselves. Lines that continue a
// triple-quoted string are not indented, so the string's text is unchanged.
func (ex docExample) checkSource() string {
	var b strings.Builder
	b.WriteString("def run_checks(_code):\n")
	inTriple := ""
	for _, l := range ex.setup {
		if inTriple == "" {
			b.WriteString("    ")
		}
		b.WriteString(l)
		b.WriteString("\n")
		for _, q := range []string{`"""`, `'''`} {
			if inTriple != "" && inTriple != q {
				continue
			}
			if strings.Count(l, q)%2 == 1 {
				if inTriple == "" {
					inTriple = q
				} else {
					inTriple = ""
				}
			}
		}
	}
	fmt.Fprintf(&b, "    return [CheckDetail(check_name = \"x\", passed = True, actual = repr(%s))]\n", ex.expr)
	return b.String()
}

// TestDocExamples runs every ```starlark example block of docs/CHECKS.md
// through the check runtime and compares the repr of its final expression
// with the block's "# =>" line.
func TestDocExamples(t *testing.T) {
	examples := parseDocExamples(t, docPath)
	if len(examples) < minDocExamples {
		t.Fatalf("%s has %d starlark examples, want at least %d", docPath, len(examples), minDocExamples)
	}
	rt, err := NewRuntime(Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range examples {
		ex := ex
		t.Run(fmt.Sprintf("%s/%d", ex.heading, ex.index), func(t *testing.T) {
			src := ex.checkSource()
			m, err := rt.LoadChecks(context.Background(), "example.star", []byte(src))
			if err != nil {
				t.Fatalf("%s:%d: example does not load: %v\ncheck file:\n%s", docPath, ex.line, err, src)
			}
			s := rt.NewSession()
			defer s.Close()
			ds, err := m.Run(context.Background(), s, "")
			if err != nil {
				t.Fatalf("%s:%d: example raised: %v\ncheck file:\n%s", docPath, ex.line, err, src)
			}
			if len(ds) != 1 || ds[0].Actual == nil {
				t.Fatalf("%s:%d: unexpected check records %+v", docPath, ex.line, ds)
			}
			if got := *ds[0].Actual; got != ex.want {
				t.Errorf("%s:%d: %s\n got: %s\nwant: %s", docPath, ex.line, ex.expr, got, ex.want)
			}
		})
	}
}
