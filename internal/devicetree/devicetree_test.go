package devicetree

import (
	"github.com/embedeval/embedeval-go/internal/testenv"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func readTestdata(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return string(b)
}

func paths(nodes []*Node) []string {
	var out []string
	for _, n := range nodes {
		out = append(out, n.Path)
	}
	return out
}

func TestParseSensorOverlay(t *testing.T) {
	tree, err := Parse(readTestdata(t, "sensor.overlay"))
	require.NoError(t, err)
	require.Equal(t, []string{
		"/", "/aliases", "/chosen", "/leds", "/leds/led_0", "/pwmleds", "/pwmleds/pwm_led_0",
		"&i2c0", "&i2c0/bme280@76", "&uart0",
	}, paths(tree.Nodes))
	require.Equal(t, []string{"/", "&i2c0", "&uart0"}, paths(tree.Roots))
	require.Equal(t, []Directive{{Name: "#include", Value: "<zephyr/dt-bindings/gpio/gpio.h>", Line: 4}}, tree.Directives)

	sensor, ok := tree.Node("&bme280")
	require.True(t, ok)
	require.Equal(t, "bme280", sensor.Name)
	require.Equal(t, "76", sensor.UnitAddress)
	require.Equal(t, []string{"bme280"}, sensor.Labels)
	require.Equal(t, 36, sensor.Line)
	reg, ok := sensor.Property("reg")
	require.True(t, ok)
	require.Equal(t, Property{Name: "reg", Value: "<0x76>", Line: 38}, reg)
	require.Equal(t, []string{"0x76"}, reg.Cells())
	compat, _ := sensor.Property("compatible")
	require.Equal(t, []string{"bosch,bme280"}, compat.Strings())

	i2c, ok := tree.Node("&i2c0")
	require.True(t, ok)
	require.Equal(t, "i2c0", i2c.Ref)
	status, _ := i2c.Property("status")
	require.Equal(t, []string{"okay"}, status.Strings())
	child, ok := i2c.Child("bme280")
	require.True(t, ok)
	require.Same(t, sensor, child)

	led, ok := tree.Node("status_led")
	require.True(t, ok)
	gpios, _ := led.Property("gpios")
	require.Equal(t, []string{"&gpio0", "13", "GPIO_ACTIVE_LOW"}, gpios.Cells())
	pwm, ok := tree.Node("/pwmleds/pwm_led_0")
	require.True(t, ok)
	pwms, _ := pwm.Property("pwms")
	require.Equal(t, []string{"&pwm0", "0", "PWM_MSEC(20)", "PWM_POLARITY_NORMAL"}, pwms.Cells())

	aliases, _ := tree.Node("/aliases")
	led0, _ := aliases.Property("led0")
	require.Equal(t, "&status_led", led0.Value)
	chosen, _ := tree.Node("/chosen")
	console, ok := chosen.Property("zephyr,console")
	require.True(t, ok)
	require.Equal(t, "&uart0", console.Value)

	require.Equal(t, []string{"bme280", "pwm_led0", "status_led"}, tree.LabelNames())
	require.Same(t, sensor, tree.Labels()["bme280"])
	_, ok = tree.Node("&nope")
	require.False(t, ok)
}

func TestParseConstructs(t *testing.T) {
	src := `/dts-v1/;
/plugin/;
#define FOO 1
/ {
	#address-cells = <1>;
	#size-cells = <0>;
	soc {
		l1: l2: gpio@50000000 {
			gpio-controller;
			#gpio-cells = <2>;
			reg = <0x50000000 0x1000>, <(1 << 2) 3>;
			names = "a", "b\"c";
			mac = [00 11 22 33 44 55];
			wide = /bits/ 16 <0xffff>;
			// line comment
			/* block
			   comment */
			/delete-property/ old-prop;
			/delete-node/ old_child;
		};
	};
};
&{/soc/gpio@50000000} {
	status = "disabled";
	sub { x = <1>; };
};
/delete-node/ &l1;
`
	tree, err := Parse(src)
	require.NoError(t, err)
	require.Equal(t, []Directive{
		{Name: "/dts-v1/", Line: 1},
		{Name: "/plugin/", Line: 2},
		{Name: "#define", Value: "FOO 1", Line: 3},
		{Name: "/delete-node/", Value: "&l1", Line: 27},
	}, tree.Directives)
	g, ok := tree.Node("l2")
	require.True(t, ok)
	require.Equal(t, []string{"l1", "l2"}, g.Labels)
	require.Equal(t, "/soc/gpio@50000000", g.Path)
	require.Equal(t, []string{"old-prop"}, g.DeletedProperties)
	require.Equal(t, []string{"old_child"}, g.DeletedNodes)
	ctrl, ok := g.Property("gpio-controller")
	require.True(t, ok)
	require.Equal(t, "", ctrl.Value)
	reg, _ := g.Property("reg")
	require.Equal(t, "<0x50000000 0x1000>, <(1 << 2) 3>", reg.Value)
	require.Equal(t, []string{"0x50000000", "0x1000", "(1 << 2)", "3"}, reg.Cells())
	names, _ := g.Property("names")
	require.Equal(t, []string{"a", `b"c`}, names.Strings())
	mac, _ := g.Property("mac")
	require.Equal(t, "[00 11 22 33 44 55]", mac.Value)
	wide, _ := g.Property("wide")
	require.Equal(t, []string{"0xffff"}, wide.Cells())

	root, ok := tree.Node("/")
	require.True(t, ok)
	cells, _ := root.Property("#address-cells")
	require.Equal(t, []string{"1"}, cells.Cells())

	// Unit address may be left out; the path reference node is found by its path too.
	require.Equal(t, []string{"/soc/gpio@50000000", "&{/soc/gpio@50000000}"}, paths(tree.Find("&{/soc/gpio@50000000}")))
	require.Equal(t, []string{"/soc/gpio@50000000"}, paths(tree.Find("/soc/gpio")))
	sub, ok := tree.Node("&{/soc/gpio@50000000}/sub")
	require.True(t, ok)
	require.Equal(t, "sub", sub.Name)
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"missing semicolon after property", "&i2c0 {\n\treg = <0x76>\n\tstatus = \"okay\";\n};\n", `line 3:2: expected ';' after property "reg", found "status"`},
		{"missing value", "/ {\n\tfoo = ;\n};", `line 2:8: expected a value after '=' in property "foo", found ';'`},
		{"unbalanced brace", "&i2c0 {\n\tsensor@76 {\n\t\treg = <0x76>;\n\t};\n", `line 5:1: expected '}' to close node "&i2c0" opened at line 1:7, found end of input`},
		{"extra closing brace", "/ { };\n};\n", `line 2:1: unexpected '}': no node is open`},
		{"missing semicolon after node", "/ {\n\tleds { };\n}\n", `line 4:1: expected ';' after '}' closing node "/", found end of input`},
		{"unterminated string", "/ {\n\tlabel = \"abc;\n};", `line 2:10: unterminated string: expected '"' before the end of the line`},
		{"unterminated cells", "/ {\n\treg = <1 2;\n};", `line 2:12: expected '>' to close the cell list of property "reg" opened at line 2:8, found ';'`},
		{"unterminated comment", "/ { /* x };", `line 1:5: unterminated comment: expected '*/', found end of input`},
		{"garbage at top level", "hello;", `line 1:1: expected a root node '/ {', a reference '&label {' or a directive, found "hello"`},
		{"boolean missing semicolon", "/ {\n\tgpio-controller\n\t#gpio-cells = <2>;\n};", `line 3:2: expected '=', ';' or '{' after "gpio-controller", found "#gpio-cells"`},
		{"bad byte string", "/ { mac = [00 zz]; };", `line 1:15: expected hex bytes and ']' to close the byte string of property "mac" opened at line 1:11, found 'z'`},
		{"dangling comma", "/ { c = \"a\", ; };", `line 1:14: expected a string, <cells>, [bytes] or &reference after ',' in property "c", found ';'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.src)
			require.EqualError(t, err, tt.want)
			line, col, ok := ErrorPosition(err)
			require.True(t, ok)
			require.Positive(t, line)
			require.Positive(t, col)
		})
	}
}

// acceptedOverlays are inputs the parser accepts; TestDtcAgrees checks that
// dtc accepts them too.
func acceptedOverlays(t *testing.T) map[string]string {
	return map[string]string{
		"sensor.overlay": readTestdata(t, "sensor.overlay"),
		"gpio-leds": `#include <zephyr/dt-bindings/gpio/gpio.h>
/ {
	leds {
		compatible = "gpio-leds";
		led0: led_0 { gpios = <&gpio0 13 GPIO_ACTIVE_HIGH>; };
	};
	aliases { led0 = &led0; };
};
`,
		"disable node and delete property": `&uart1 {
	status = "disabled";
	/delete-property/ hw-flow-control;
};
&{/soc/spi@40004000} {
	status = "okay";
	cs-gpios = <&gpio0 17 0>;
};
`,
		"spi device with byte string": `&spi1 {
	status = "okay";
	flash: w25q@0 {
		compatible = "jedec,spi-nor";
		reg = <0>;
		spi-max-frequency = <8000000>;
		jedec-id = [ef 40 16];
		size = <0x2000000>;
		wp-gpios = <&gpio0 22 0>, <&gpio0 23 0>;
	};
};
`,
	}
}

func TestAcceptedOverlaysParse(t *testing.T) {
	for name, src := range acceptedOverlays(t) {
		t.Run(name, func(t *testing.T) {
			tree, err := Parse(src)
			require.NoError(t, err)
			require.NotEmpty(t, tree.Nodes)
		})
	}
}

// TestDtcAgrees runs every accepted overlay through the C preprocessor (with
// stub binding headers) and dtc.
func TestDtcAgrees(t *testing.T) {
	dtc := testenv.Tool(t, "dtc", "device-tree-compiler", "it is the reference compiler the overlays are compared with")
	cpp := testenv.Tool(t, "cpp", "cpp", "it expands binding macros before dtc")
	inc := t.TempDir()
	hdr := filepath.Join(inc, "zephyr", "dt-bindings", "gpio")
	require.NoError(t, os.MkdirAll(hdr, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(hdr, "gpio.h"), []byte(
		"#define GPIO_ACTIVE_HIGH 0\n#define GPIO_ACTIVE_LOW 1\n#define PWM_MSEC(x) ((x) * 1000000)\n#define PWM_POLARITY_NORMAL 0\n#define I2C_BITRATE_FAST 400000\n"), 0o644))
	for name, src := range acceptedOverlays(t) {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(src)
			require.NoError(t, err)
			full := baseFor(t, src) + src
			pre := exec.Command(cpp, "-nostdinc", "-undef", "-x", "assembler-with-cpp", "-P", "-I", inc, "-")
			pre.Stdin = strings.NewReader(full)
			out, err := pre.CombinedOutput()
			require.NoError(t, err, "cpp: %s", out)
			cmd := exec.Command(dtc, "-I", "dts", "-O", "dtb", "-o", os.DevNull, "-")
			cmd.Stdin = strings.NewReader(string(out))
			msg, err := cmd.CombinedOutput()
			require.NoError(t, err, "dtc rejected what the parser accepted:\n%s\n--- input ---\n%s", msg, out)
		})
	}
}

// baseFor returns a minimal base devicetree that defines every label and
// path the overlay references but does not define itself, the way a board's
// devicetree would, so that dtc can compile base + overlay.
func baseFor(t *testing.T, overlay string) string {
	tree, err := Parse(overlay)
	require.NoError(t, err)
	defined := tree.Labels()
	var b strings.Builder
	b.WriteString("/dts-v1/;\n/ {\n")
	seen := map[string]bool{}
	for i := 0; i < len(overlay); i++ {
		if overlay[i] != '&' {
			continue
		}
		rest := overlay[i+1:]
		if strings.HasPrefix(rest, "{") {
			end := strings.IndexByte(rest, '}')
			path := rest[1:end]
			if seen[path] {
				continue
			}
			seen[path] = true
			parts := strings.Split(strings.Trim(path, "/"), "/")
			for _, part := range parts {
				b.WriteString(part + " {\n")
			}
			b.WriteString(strings.Repeat("};\n", len(parts)))
			continue
		}
		end := 0
		for end < len(rest) && isLabelChar(rest[end]) {
			end++
		}
		label := rest[:end]
		if label == "" || seen[label] || defined[label] != nil {
			continue
		}
		seen[label] = true
		b.WriteString(label + ": stub-" + strings.ReplaceAll(label, "_", "-") + " { #gpio-cells = <2>; #pwm-cells = <3>; };\n")
	}
	b.WriteString("};\n")
	return b.String()
}

func FuzzParse(f *testing.F) {
	f.Add("/dts-v1/;\n/ { a: n@1 { p = <1 (2 + 3)>, \"s\", [00]; b; }; };\n&a { /delete-property/ p; };")
	f.Add("&{/x} { y = <&z 1>; };")
	f.Add("#include <a.h>\n/ { c = \"\\\"\"; };")
	f.Add("/ { x = <")
	f.Fuzz(func(t *testing.T, src string) {
		tree, err := Parse(src)
		if err != nil {
			if _, _, ok := ErrorPosition(err); !ok {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		for _, n := range tree.Nodes {
			if n.Line < 1 {
				t.Fatalf("node %q at line %d", n.Path, n.Line)
			}
			for _, p := range n.Properties {
				_ = p.Cells()
				_ = p.Strings()
			}
		}
		_ = tree.Labels()
		for l := range tree.Labels() {
			if _, ok := tree.Node(l); !ok {
				t.Fatalf("label %q not found by Node", l)
			}
		}
	})
}

func TestPropertyBytes(t *testing.T) {
	for value, want := range map[string][]byte{"[EF 40 16]": {0xEF, 0x40, 0x16}, "[ef4016]": {0xEF, 0x40, 0x16}, "[ 00\n01 ]": {0, 1}, "[]": {}} {
		got, ok := Property{Value: value}.Bytes()
		require.True(t, ok, value)
		require.Equal(t, want, got, value)
	}
	for _, value := range []string{"<1 2>", "[EF 4]", "[GG]", "[01] [02]", ""} {
		_, ok := Property{Value: value}.Bytes()
		require.False(t, ok, value)
	}
}

func TestDefineComments(t *testing.T) {
	tree, err := Parse("#define A 1 /* c */\n#define B 2 // c\n#define C 3 /* runs\n   on */\n#define S \"a//b\"\n&spi2 { x = <A B C>; };\n")
	require.NoError(t, err)
	var values []string
	for _, d := range tree.Directives {
		values = append(values, d.Value)
	}
	require.Equal(t, []string{"A 1", "B 2", "C 3", `S "a//b"`}, values)
	n, ok := tree.Node("&spi2")
	require.True(t, ok)
	require.Equal(t, 6, n.Line, "lines after a comment that runs on stay right")
}
