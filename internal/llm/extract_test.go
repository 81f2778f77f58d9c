package llm

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestExtractFor(t *testing.T) {
	for _, tc := range []struct {
		name, kind, reply, want string
	}{
		{"no fence: the whole reply", "c", "int x;\r\n", "int x;\n"},
		{"leading prose, one block", "c", "Sure! Here it is:\n\n```c\nint x;\n```\nHope it helps.", "int x;\n"},
		{"the block tagged with the kind wins over a longer one", "c",
			"```bash\nwest build -b native_sim -p always app\n```\n```c\nint x;\n```\n", "int x;\n"},
		{"longest of several C blocks", "c", "```h\nint f(void);\n```\n```c\nint f(void) { return 0; }\n```\n", "int f(void) { return 0; }\n"},
		{"file name as info string", "kconfig", "```text\nnotes\n```\n```prj.conf\nCONFIG_GPIO=y\n```\n", "CONFIG_GPIO=y\n"},
		{"an untagged block full of CONFIG_ lines", "kconfig",
			"```\nwest build\n```\n```\n# logging\nCONFIG_LOG=y\nCONFIG_LOG_MODE_DEFERRED=y\n```\n", "# logging\nCONFIG_LOG=y\nCONFIG_LOG_MODE_DEFERRED=y\n"},
		{"kconfig info words", "kconfig", "```ini\nCONFIG_A=y\n```", "CONFIG_A=y\n"},
		{"devicetree by content", "devicetree", "```\nsome prose in a block\nthat is longer than the overlay\n```\n```\n&i2c0 {\n\tstatus = \"okay\";\n};\n```\n", "&i2c0 {\n\tstatus = \"okay\";\n};\n"},
		{"devicetree root node", "devicetree", "```\n/ {\n};\n```\n```c\nint main(void) { return 0; }\n```\n", "/ {\n};\n"},
		{"dts info", "devicetree", "```dts\n/ { };\n```", "/ { };\n"},
		{"udev rules", "udev", "```bash\nsudo udevadm control --reload-rules && sudo udevadm trigger\n```\n```udev\nSUBSYSTEM==\"tty\", MODE=\"0660\"\n```\n", "SUBSYSTEM==\"tty\", MODE=\"0660\"\n"},
		{"bitbake recipe", "bitbake", "```bb\nLICENSE = \"MIT\"\n```\n```sh\nbitbake-layers add-layer meta-foo && bitbake foo\n```\n", "LICENSE = \"MIT\"\n"},
		{"a block tagged as another kind loses to an untagged one", "c",
			"```kconfig\nCONFIG_GPIO=y\nCONFIG_PRINTK=y\nCONFIG_LOG=y\n```\n```\nint x;\n```\n", "int x;\n"},
		{"only another kind's block: still better than prose", "c", "text\n```kconfig\nCONFIG_GPIO=y\n```\n", "CONFIG_GPIO=y\n"},
		{"unterminated fence runs to the end", "c", "Here:\n```c\nint x;\nint y;", "int x;\nint y;"},
		{"tilde fence", "c", "~~~c\nint x;\n~~~\n", "int x;\n"},
		{"longer fence holds an inner one", "c", "````c\n/* ```c */\nint x;\n```\n````\n", "/* ```c */\nint x;\n```\n"},
		{"a tilde line does not close a backtick fence", "c", "```c\n~~~\nint x;\n```", "~~~\nint x;\n"},
		{"CRLF", "c", "```c\r\nint x;\r\n```\r\n", "int x;\n"},
		{"indented fences", "c", "1. Code:\n   ```c\n   int x;\n   ```\n", "   int x;\n"},
		{"an inline triple backtick is no fence", "c", "Use ```c blocks``` please\n```c\nint x;\n```\n", "int x;\n"},
		{"empty reply", "c", "", ""},
		{"fence only", "c", "```", ""},
		{"unknown kind: longest block", "other", "```\na\n```\n```\nbbb\n```\n", "bbb\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, ExtractFor(tc.reply, tc.kind))
		})
	}
}

func TestBlocks(t *testing.T) {
	bs := Blocks("a\n```c main.c\nint x;\n```\n~~~~\nopen")
	require.Equal(t, []Block{{Info: "c main.c", Code: "int x;\n", Closed: true}, {Info: "", Code: "open", Closed: false}}, bs)
	require.Empty(t, Blocks("no fences here"))
}

func FuzzExtractFor(f *testing.F) {
	for _, s := range []string{"", "```", "```c\nx\n```", "a```b\n```c", "\r\n```\r\n", "~~~\n```\n~~~", "````\n```\n````\n", "```kconfig\nCONFIG_A=y\n"} {
		f.Add(s, "c")
		f.Add(s, "kconfig")
	}
	f.Fuzz(func(t *testing.T, reply, kind string) {
		code := ExtractFor(reply, kind)
		normalized := strings.ReplaceAll(reply, "\r\n", "\n")
		require.True(t, strings.Contains(normalized, code), "the extracted code is a piece of the reply")
		for _, b := range Blocks(reply) {
			require.True(t, strings.Contains(normalized, b.Code))
		}
	})
}
