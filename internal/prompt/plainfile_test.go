package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/embedeval/embedeval-go/internal/cases"
)

const fakeSecret = "EMBEDEVAL_FAKE_SECRET=hunter2"

const plainMeta = `id: "timer-00N"
category: "timer"
difficulty: "easy"
title: "Timer"
description: "A timer."
tags: ["zephyr"]
platform: "native_sim"
sdk: "zephyr"
estimated_tokens: 400
sdk_version: "4.1.0"
`

// writeCase writes a plain case zephyr/<id> under root and returns its directory.
func writeCase(t *testing.T, root, id string) string {
	t.Helper()
	dir := filepath.Join(root, "zephyr", id)
	for rel, content := range map[string]string{
		"metadata.yaml":        strings.Replace(plainMeta, "timer-00N", id, 1),
		"prompt.md":            "# Task\n\nStart a timer.\n",
		"reference/main.c":     "int main(void) { return 0; }\n",
		"checks/static.star":   "def run_checks(code):\n    return []\n",
		"checks/behavior.star": "def run_checks(code):\n    return []\n",
		"context/board.h":      "#define LED 1\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	return dir
}

// secretFile writes the fake secret outside the corpus and returns its path.
func secretFile(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "environ")
	require.NoError(t, os.WriteFile(p, []byte(fakeSecret+"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "key.h"), []byte(fakeSecret+"\n"), 0o644))
	return p
}

// TestLinkedCaseFilesNeverReachAPrompt loads a corpus the way run and
// evaluate do, with one case per kind of link, and builds the prompt of every
// case that loads: only the plain case loads, and no prompt holds the secret.
func TestLinkedCaseFilesNeverReachAPrompt(t *testing.T) {
	secret := secretFile(t)
	root := t.TempDir()
	writeCase(t, root, "timer-001")
	d := writeCase(t, root, "timer-002")
	require.NoError(t, os.Remove(filepath.Join(d, "prompt.md")))
	require.NoError(t, os.Symlink(secret, filepath.Join(d, "prompt.md")))
	d = writeCase(t, root, "timer-003")
	require.NoError(t, os.Symlink(filepath.Dir(secret), filepath.Join(d, "context", "inc")))
	d = writeCase(t, root, "timer-004")
	require.NoError(t, os.Link(secret, filepath.Join(d, "context", "env.txt")))
	d = writeCase(t, root, "timer-005")
	require.NoError(t, syscall.Mkfifo(filepath.Join(d, "context", "pipe"), 0o644))

	corpus := cases.LoadCorpus(root, "")
	require.Len(t, corpus.Broken, 4)
	sel := corpus.Select(cases.Filter{})
	require.Len(t, sel, 1)
	require.Equal(t, "timer-001", sel[0].ID())
	for _, c := range sel {
		got, err := Generation(c, Target{}, Options{})
		require.NoError(t, err)
		require.Contains(t, got, "Start a timer.")
		require.NotContains(t, got, fakeSecret)
	}
}

// TestSwapAfterLoad replaces case files by links after the case was loaded
// (and validated): building the prompt fails instead of reading the target.
func TestSwapAfterLoad(t *testing.T) {
	secret := secretFile(t)
	load := func(t *testing.T) *cases.Case {
		t.Helper()
		root := t.TempDir()
		writeCase(t, root, "timer-001")
		corpus := cases.LoadCorpus(root, "")
		require.Len(t, corpus.Cases, 1, "%v", corpus.Broken)
		c := corpus.Cases[0]
		_, err := Generation(c, Target{}, Options{})
		require.NoError(t, err)
		return c
	}
	for _, tc := range []struct {
		name string
		// part is what the error names: "prompt" (read by every prompt) or
		// "context" (read by the generation prompt only).
		part string
		swap func(t *testing.T, c *cases.Case) string // returns the linked path
	}{
		{"prompt.md", "prompt", func(t *testing.T, c *cases.Case) string {
			require.NoError(t, os.Remove(c.PromptPath))
			require.NoError(t, os.Symlink(secret, c.PromptPath))
			return c.PromptPath
		}},
		{"context file", "context", func(t *testing.T, c *cases.Case) string {
			p := filepath.Join(c.Dir, "context", "board.h")
			require.NoError(t, os.Remove(p))
			require.NoError(t, os.Symlink(secret, p))
			return p
		}},
		{"context directory", "context", func(t *testing.T, c *cases.Case) string {
			p := filepath.Join(c.Dir, "context")
			require.NoError(t, os.RemoveAll(p))
			require.NoError(t, os.Symlink(filepath.Dir(secret), p))
			return p
		}},
		{"hidden context file", "context", func(t *testing.T, c *cases.Case) string {
			p := filepath.Join(c.Dir, "context", ".env")
			require.NoError(t, os.Symlink(secret, p))
			return p
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := load(t)
			linked := tc.swap(t, c)
			want := tc.part + " of timer-001: " + linked + ": symbolic link (case files must be plain files)"
			got, err := Generation(c, Target{}, Options{})
			require.EqualError(t, err, want)
			require.Empty(t, got)

			got, err = Bugfix(c, Target{}, "int main(void) { return 1; }\n", Options{})
			if tc.part == "prompt" {
				require.EqualError(t, err, want)
			} else {
				require.NoError(t, err, "the bugfix prompt reads no context files")
			}
			require.NotContains(t, got, fakeSecret)
		})
	}
}
