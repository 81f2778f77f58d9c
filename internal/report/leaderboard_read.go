package report

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/embedeval/embedeval-go/internal/mdescape"
)

// Leaderboard is what the LEADERBOARD.md v1 parse contract promises: the
// schema version and, per model, the category table.
type Leaderboard struct {
	SchemaVersion int
	Models        []ModelCategories
}

// ModelCategories is one "### <model-id>" subsection of Category Results.
type ModelCategories struct {
	Model string
	Rows  []CategoryRow
}

// CategoryRow is one row of a category table. PassRatePercent is the Pass
// Rate cell without its "%" (0 to 100).
type CategoryRow struct {
	Category        string
	PassRatePercent float64
	Passed          int
	Total           int
	Status          string
}

// ReadLeaderboard reads and parses a LEADERBOARD.md file.
func ReadLeaderboard(path string) (*Leaderboard, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read leaderboard: %w", err)
	}
	return ParseLeaderboard(path, data)
}

var (
	schemaLike    = regexp.MustCompile(`(?i)^<!--.*schema_version.*-->$`)
	schemaExact   = regexp.MustCompile(`^<!-- SCHEMA_VERSION: ([0-9]+) -->$`)
	passRateCell  = regexp.MustCompile(`^[0-9]{1,3}(\.[0-9]+)?%$`)
	countCell     = regexp.MustCompile(`^[0-9]{1,9}$`)
	separatorCell = regexp.MustCompile(`^:?-{3,}:?$`)
)

// ParseLeaderboard parses LEADERBOARD.md as a downstream consumer of contract
// v1 does, reading only what the contract promises and failing on anything
// it cannot vouch for: the first non-blank line must be the H1 ("# ..."), the
// next non-blank line exactly "<!-- SCHEMA_VERSION: 1 -->" (another version
// or spelling is an error); there must be exactly one "## Category Results"
// section, in which every "### <model-id>" subsection holds exactly one table
// with the header "| Category | Pass Rate | Passed | Total | Status |"
// whose cells are a non-empty category, a percentage ending in "%" (at most
// 100), two integers with Passed <= Total, and a status of PASS, PARTIAL or
// FAIL. name is used in messages.
func ParseLeaderboard(name string, data []byte) (*Leaderboard, error) {
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	bad := func(i int, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, i+1, fmt.Sprintf(format, args...))
	}
	next := func(i int) int {
		for i < len(lines) && lines[i] == "" {
			i++
		}
		return i
	}
	h1 := next(0)
	if h1 == len(lines) {
		return nil, fmt.Errorf("%s: empty file: expected a LEADERBOARD.md starting with a \"# \" heading", name)
	}
	if !strings.HasPrefix(lines[h1], "# ") {
		return nil, bad(h1, "expected the top heading (\"# ...\"), found %q", clip(lines[h1]))
	}
	sv := next(h1 + 1)
	if sv == len(lines) || !schemaLike.MatchString(lines[sv]) {
		return nil, bad(min(sv, len(lines)-1), "missing schema version: the line after the top heading must be %q", SchemaComment(LeaderboardSchemaVersion))
	}
	m := schemaExact.FindStringSubmatch(lines[sv])
	if m == nil {
		return nil, bad(sv, "malformed schema version comment %q: expected %q", clip(lines[sv]), SchemaComment(LeaderboardSchemaVersion))
	}
	version, err := strconv.Atoi(m[1])
	if err != nil || version != LeaderboardSchemaVersion {
		return nil, bad(sv, "unsupported LEADERBOARD.md schema version %s (this reader understands %d)", m[1], LeaderboardSchemaVersion)
	}
	lb := &Leaderboard{SchemaVersion: version, Models: []ModelCategories{}}

	start := -1
	for i, l := range lines {
		if l == CategoryResultsHeading {
			if start >= 0 {
				return nil, bad(i, "second %q section (the first is on line %d)", CategoryResultsHeading, start+1)
			}
			start = i
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("%s: missing section %q", name, CategoryResultsHeading)
	}
	var cur *ModelCategories
	curLine := 0
	state := 0 // 0: before table, 1: header seen, 2: in rows, 3: table done
	finish := func() error {
		if cur != nil && state < 2 {
			return bad(curLine, "subsection %q has no category table (want %q)", cur.Model, CategoryTableHeader)
		}
		return nil
	}
	i := start + 1
	for ; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "## ") || strings.HasPrefix(l, "# ") {
			break
		}
		switch {
		case strings.HasPrefix(l, "### "):
			if err := finish(); err != nil {
				return nil, err
			}
			model := mdescape.Unescape(strings.TrimSpace(l[4:]))
			if model == "" {
				return nil, bad(i, "empty model id in subsection heading")
			}
			if slices.ContainsFunc(lb.Models, func(mc ModelCategories) bool { return mc.Model == model }) {
				return nil, bad(i, "duplicate subsection for model %q", model)
			}
			lb.Models = append(lb.Models, ModelCategories{Model: model, Rows: []CategoryRow{}})
			cur, curLine, state = &lb.Models[len(lb.Models)-1], i, 0
		case strings.HasPrefix(l, "|"):
			if cur == nil {
				return nil, bad(i, "table outside a \"### <model-id>\" subsection")
			}
			cells, err := splitRow(l)
			if err != nil {
				return nil, bad(i, "%v", err)
			}
			switch state {
			case 0:
				if strings.Join(cells, "|") != "Category|Pass Rate|Passed|Total|Status" {
					return nil, bad(i, "unexpected table header %q: want %q", clip(l), CategoryTableHeader)
				}
				state = 1
			case 1:
				if len(cells) != 5 || slices.IndexFunc(cells, func(c string) bool { return !separatorCell.MatchString(c) }) >= 0 {
					return nil, bad(i, "expected the table's separator row, found %q", clip(l))
				}
				state = 2
			case 2:
				row, err := parseCategoryRow(cells)
				if err != nil {
					return nil, bad(i, "model %q: %v", cur.Model, err)
				}
				if slices.ContainsFunc(cur.Rows, func(r CategoryRow) bool { return r.Category == row.Category }) {
					return nil, bad(i, "model %q: duplicate category %q", cur.Model, row.Category)
				}
				cur.Rows = append(cur.Rows, row)
			case 3:
				return nil, bad(i, "model %q: a second table in the subsection", cur.Model)
			}
		default:
			switch state {
			case 1:
				return nil, bad(i, "model %q: table header without a separator row", cur.Model)
			case 2:
				state = 3
			}
		}
	}
	if err := finish(); err != nil {
		return nil, err
	}
	return lb, nil
}

// splitRow splits a Markdown table row into trimmed cells: a backslash
// escapes the next character (so "\|" is not a separator), and each cell
// is decoded with mdescape.Unescape, the inverse of the writer's escaping.
func splitRow(l string) ([]string, error) {
	if !strings.HasSuffix(l, "|") || len(l) < 2 {
		return nil, fmt.Errorf("table row does not end with \"|\": %q", clip(l))
	}
	body := l[1 : len(l)-1]
	var cells []string
	from := 0
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '\\':
			i++
		case '|':
			cells = append(cells, mdescape.Unescape(strings.TrimSpace(body[from:i])))
			from = i + 1
		}
	}
	return append(cells, mdescape.Unescape(strings.TrimSpace(body[from:]))), nil
}

func parseCategoryRow(cells []string) (CategoryRow, error) {
	if len(cells) != 5 {
		return CategoryRow{}, fmt.Errorf("row has %d cells, want 5 (Category | Pass Rate | Passed | Total | Status)", len(cells))
	}
	r := CategoryRow{Category: cells[0], Status: cells[4]}
	if r.Category == "" {
		return r, fmt.Errorf("empty Category cell")
	}
	if !passRateCell.MatchString(cells[1]) {
		return r, fmt.Errorf("category %q: Pass Rate %q is not a percentage like \"87.5%%\"", r.Category, cells[1])
	}
	r.PassRatePercent, _ = strconv.ParseFloat(strings.TrimSuffix(cells[1], "%"), 64)
	if r.PassRatePercent > 100 {
		return r, fmt.Errorf("category %q: Pass Rate %q is above 100%%", r.Category, cells[1])
	}
	for i, dst := range []*int{&r.Passed, &r.Total} {
		c := cells[2+i]
		if !countCell.MatchString(c) {
			return r, fmt.Errorf("category %q: %s %q is not a non-negative integer", r.Category, []string{"Passed", "Total"}[i], c)
		}
		*dst, _ = strconv.Atoi(c)
	}
	if r.Passed > r.Total {
		return r, fmt.Errorf("category %q: Passed %d is more than Total %d", r.Category, r.Passed, r.Total)
	}
	switch r.Status {
	case StatusPass, StatusPartial, StatusFail:
	default:
		return r, fmt.Errorf("category %q: Status %q is not one of %s, %s, %s", r.Category, r.Status, StatusPass, StatusPartial, StatusFail)
	}
	return r, nil
}

// clip shortens a line quoted in a message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
