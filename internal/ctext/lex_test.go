package ctext

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestStripComments(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"line comment", "a; // x\nb;", "a;     \nb;"},
		{"block comment keeps newlines", "a /* x\ny */ b", "a     \n     b"},
		{"comment marker inside string", `s = "// not"; // yes`, `s = "// not";       `},
		{"quote inside comment", "/* \" */ x = '\"';", "        x = '\"';"},
		{"continued line comment", "// a \\\nb\nc", "      \n \nc"},
		{"continued line comment crlf", "// a \\\r\nb\r\nc", "      \r\n \r\nc"},
		{"unterminated block", "x /* open", "x        "},
		{"unterminated string swallows no comment", "\"abc // x\ny // z", "\"abc // x\ny     "},
		{"char quote", `c = '"'; // "`, `c = '"';     `},
		{"escaped quote char", `c = '\''; /* ' */ d`, `c = '\'';         d`},
		{"escaped quote in string", `"a\"//b" // c`, `"a\"//b"     `},
		{"prefixes", `L"//" u8"/*" U'x' /**/`, `L"//" u8"/*" U'x'     `},
		{"digit separator", "x = 1'000; // '", "x = 1'000;     "},
		{"division is not comment", "a = b / c; /x/", "a = b / c; /x/"},
		{"preprocessor is text", "#define X 1 // one\n#include <a/b.h>", "#define X 1       \n#include <a/b.h>"},
		{"nested block opener", "/* /* */ x */", "         x */"},
		{"lone slash at end", "a /", "a /"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, StripComments(tt.in))
		})
	}
}

func TestStripStringLiterals(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"string", `printk("hello %d\n", x);`, `printk("          ", x);`},
		{"char", `c = 'x'; d = '\n';`, `c = ' '; d = '  ';`},
		{"quote char", `'"' "a"`, `' ' " "`},
		{"comments untouched", `/* "x" */ "y" // 'z'`, `/* "x" */ " " // 'z'`},
		{"empty literals", `"" ''`, `"" ''`},
		{"unterminated at newline", "\"abc\nx", "\"   \nx"},
		{"continued string", "\"ab\\\ncd\" x", "\"   \n  \" x"},
		{"unterminated at eof", `"abc\`, `"    `},
		{"prefixed", `u8"x" L'y'`, `u8" " L' '`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, StripStringLiterals(tt.in))
		})
	}
}

// strippedText is the fully stripped text of code that NewSource keeps (the
// "stripped" scope).
func strippedText(code string) string {
	_, stripped := stripBoth(code)
	return stripped
}

func TestStripBoth(t *testing.T) {
	in := "int x; /* k_sleep */\nprintk(\"k_sleep\"); // k_sleep\nk_sleep(K_MSEC(1));"
	want := "int x;              \nprintk(\"       \");           \nk_sleep(K_MSEC(1));"
	codeOnly, stripped := stripBoth(in)
	require.Equal(t, want, stripped)
	require.Equal(t, StripStringLiterals(StripComments(in)), stripped)
	require.Equal(t, StripComments(in), codeOnly)
}

// Regions lexes code (scan) and returns its comments and literal contents in
// source order.
func Regions(code string) []Region {
	var out []Region
	scan(code, func(r Region) { out = append(out, r) })
	return out
}

func TestRegions(t *testing.T) {
	got := Regions(`a /*c*/ "s" 'c' // d`)
	require.Equal(t, []Region{
		{Kind: RegionComment, Start: 2, End: 7},
		{Kind: RegionString, Start: 9, End: 10},
		{Kind: RegionChar, Start: 13, End: 14},
		{Kind: RegionComment, Start: 16, End: 20},
	}, got)
}

func TestStripArbitraryBytes(t *testing.T) {
	for _, in := range []string{"\x00\xff\xfe/*\x00", "\"\xff\\", "'\\", "//\\", "/", "\\", "1'", "0x1e+'"} {
		for _, f := range []func(string) string{StripComments, StripStringLiterals, strippedText} {
			out := f(in)
			require.Len(t, out, len(in))
		}
	}
}

func TestStripLarge(t *testing.T) {
	// 10 MB of mixed C must strip in one linear pass; the time budget lives
	// in BenchmarkStrip, this checks the shape of the result.
	unit := sampleC()
	big := strings.Repeat(unit, 10<<20/len(unit)+1)
	out := strippedText(big)
	require.Len(t, out, len(big))
	require.Equal(t, strings.Count(big, "\n"), strings.Count(out, "\n"))
	require.NotContains(t, out, "Copyright")
}

func FuzzStrip(f *testing.F) {
	for _, s := range []string{sampleC(), "/* x", "\"a\\\"", "'", "// a\\\n b", "\x00\xff", "1'0'0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, fn := range []func(string) string{StripComments, StripStringLiterals, strippedText} {
			out := fn(in)
			if len(out) != len(in) {
				t.Fatalf("length %d, want %d", len(out), len(in))
			}
			for i := 0; i < len(in); i++ {
				if (in[i] == '\n') != (out[i] == '\n') {
					t.Fatalf("newline changed at %d", i)
				}
				if out[i] != in[i] && out[i] != ' ' {
					t.Fatalf("byte %d changed to %q", i, out[i])
				}
			}
		}
		prev := 0
		for _, r := range Regions(in) {
			if r.Start < prev || r.End < r.Start || r.End > len(in) {
				t.Fatalf("bad region %+v after %d", r, prev)
			}
			prev = r.End
		}
		if codeOnly, stripped := stripBoth(in); codeOnly != StripComments(in) || stripped != StripStringLiterals(StripComments(in)) {
			t.Fatalf("stripBoth differs from StripComments and its composition with StripStringLiterals")
		}
	})
}

func BenchmarkStrip(b *testing.B) {
	small := sampleC()
	big := strings.Repeat(small, (1<<20)/len(small)+1)[:1<<20]
	for _, bc := range []struct {
		name string
		code string
	}{{"1.5KB", small}, {"1MB", big}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.code)))
			for b.Loop() {
				_, _ = stripBoth(bc.code)
			}
		})
	}
}

// sampleC returns about 1.5 KB of realistic Zephyr C.
func sampleC() string {
	return `/*
 * Copyright (c) 2024 Example
 * SPDX-License-Identifier: Apache-2.0
 */
#include <zephyr/kernel.h>
#include <zephyr/drivers/gpio.h>
#include "app.h"

#define SLEEP_MS 100 // blink period

static const struct gpio_dt_spec led = GPIO_DT_SPEC_GET(DT_ALIAS(led0), gpios);
static struct gpio_callback button_cb;
static volatile uint32_t presses;

/* Called from the GPIO ISR: keep it short. */
static void button_pressed(const struct device *dev, struct gpio_callback *cb, uint32_t pins)
{
	presses++; // count
	printk("pressed at %" PRIu32 "\n", k_cycle_get_32());
}

int main(void)
{
	int ret;
	char sep = '\'';

	if (!gpio_is_ready_dt(&led)) {
		printk("LED device %s is not ready\n", led.port->name);
		return 0;
	}
	ret = gpio_pin_configure_dt(&led, GPIO_OUTPUT_ACTIVE);
	if (ret < 0) {
		return ret;
	}
	gpio_init_callback(&button_cb, button_pressed, BIT(4));
	while (1) {
		ret = gpio_pin_toggle_dt(&led);
		if (ret < 0) {
			return ret;
		}
		printk("LED state: %s %c\n", "toggled // not a comment", sep);
		k_msleep(SLEEP_MS);
	}
	return 0;
}
`
}

func BenchmarkAnalyses(b *testing.B) {
	small := sampleC()
	big := strings.Repeat(small, (1<<20)/len(small)+1)
	b.SetBytes(int64(len(big)))
	for b.Loop() {
		s := NewSource(big)
		_ = s.Functions()
	}
}
