package catalog

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/blindrec"
	"github.com/embedeval/embedeval-go/internal/cases"
	"github.com/embedeval/embedeval-go/internal/platform"
	"github.com/embedeval/embedeval-go/internal/toolchain"
)

func TestCatalogOfFixtures(t *testing.T) {
	corpus := cases.LoadCorpus("../validate/testdata/bad/cases", "")
	sel := corpus.Select(cases.Filter{IDs: []string{"timer-001", "timer-016"}})
	require.Len(t, sel, 2)
	runs := func(c *cases.Case) toolchain.Plan {
		tgt := platform.Target{Name: "zephyr", Layers: []string{"L1", "L2"}, RunBoards: []string{"native_sim"}}
		if c.Meta.ID == "timer-001" {
			return toolchain.Plan{Target: tgt, Board: "native_sim"}
		}
		return toolchain.Plan{Target: tgt, Board: "native_sim", Skip: "toolchain unavailable"}
	}
	rows, err := Build(context.Background(), sel, runs)
	require.NoError(t, err)
	require.Equal(t, []Row{
		{ID: "timer-001", Title: "Periodic timer", Category: "timer", SDK: "zephyr", Platform: "native_sim", Board: "native_sim", Difficulty: "easy", Tier: "core", InImage: "L0 L1 L2 L3 L4", Layers: "L0 L1 L2 L3 L4", Checks: 2, Negatives: 2, RunsHere: true},
		{ID: "timer-016", Title: "Periodic timer", Category: "timer", SDK: "zephyr", Platform: "native_sim", Board: "native_sim", Difficulty: "easy", Tier: "core", InImage: "L0 L1 L2 L3 L4", Layers: "L0 L3 L4", Checks: 2, Negatives: 2},
	}, rows)
	md := string(Markdown(rows, "test machine"))
	require.Contains(t, md, "2 cases, 4 checks, 4 negatives.")
	require.Contains(t, md, "| timer | 2 | 0 | 0 | 2 | 1 |\n| **total** | 2 | 0 | 0 | 2 | 1 |")
	require.Contains(t, md, "1 of 2 cases run (L2) on this machine")
	require.Equal(t, 2, strings.Count(md, "| Periodic timer | timer |"))
}

func TestMarkdownEscapesCaseFields(t *testing.T) {
	rows := []Row{{ID: "timer-001", Title: "Timer | <img src=x onerror=alert(1)> @octocat", Category: "timer", SDK: "zephyr",
		Platform: "native_sim", Board: "native_sim", Difficulty: "easy", Tier: "core", InImage: "L0 L3", Layers: "L0 L3"}}
	md := string(Markdown(rows, "test machine"))
	require.Contains(t, md, "| timer-001 | Timer \\| &lt;img src=x onerror=alert(1)&gt; @&#8203;octocat | timer | zephyr | native_sim | native_sim | easy | core | L0 L3 | L0 L3 | 0 | 0 | 0 | 0 | 0 / 0 | – | – |\n")
	require.NotContains(t, md, "<img")
}

func TestMarkdownBlindFigures(t *testing.T) {
	rows := []Row{
		{ID: "a-001", Category: "timer", Difficulty: "easy", BlindAccepts: 2, BlindRejects: 3,
			FirstRound: blindrec.FirstRound{Accepts: 2, AcceptsPassed: 1, Rejects: 3, RejectsCaught: 3}},
		{ID: "b-001", Category: "timer", Difficulty: "easy", BlindAccepts: 2, BlindRejects: 2,
			FirstRound: blindrec.FirstRound{Accepts: 2, AcceptsPassed: 2, Rejects: 2, RejectsCaught: 0}},
		{ID: "c-001", Category: "timer", Difficulty: "easy"},
	}
	md := string(Markdown(rows, "test machine"))
	require.Contains(t, md, "1 of 3 cases have a full blind set")
	require.Contains(t, md, "4 blind accepts and 5 blind rejects in all")
	require.Contains(t, md, "3 of 4 blind accepts passed every layer (75%), 3 of 5 blind rejects were caught by a check they name (60%)")
	require.Contains(t, md, "| 2 / 3 | 1/2, 3/3 | – |\n")
	require.Contains(t, md, "| 0 / 0 | – | – |\n")
}

func TestMarkdownExecutionFigures(t *testing.T) {
	rows := []Row{
		{ID: "timer-001", Category: "timer", Difficulty: "easy", RunsHere: true, Scenarios: 3, Created: "2026-12-02"},
		{ID: "timer-002", Category: "timer", Difficulty: "hard", RunsHere: true, Scenarios: 0},
		{ID: "ble-001", Category: "ble", Difficulty: "hard", Scenarios: 2},
	}
	md := string(Markdown(rows, "test machine"))
	require.Contains(t, md, "2 of 3 cases run (L2) on this machine, judged by their expected output and 3 scenario runs")
	require.Contains(t, md, "the corpus has 5 scenario runs in all")
	require.Contains(t, md, "| ble | 0 | 0 | 1 | 1 | 0 |\n| timer | 1 | 0 | 1 | 2 | 2 |\n| **total** | 1 | 0 | 2 | 3 | 2 |")
	require.Contains(t, md, "| 3 | 0 | 0 | 0 / 0 | – | 2026-12-02 |\n")
}
