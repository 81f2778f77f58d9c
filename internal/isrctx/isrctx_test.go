package isrctx

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefaultLoads(t *testing.T) {
	v, err := Default()
	require.NoError(t, err)
	f := v.Forbidden()
	assert.Contains(t, f, "k_msleep")
	assert.Contains(t, f, "HAL_Delay")
	assert.NotContains(t, f, "printk")
	assert.NotContains(t, f, "k_busy_wait")
	f[0] = "changed"
	assert.NotEqual(t, "changed", v.Forbidden()[0], "callers must get a copy")

	i, ok := v.NoWaitArg("k_msgq_put")
	assert.True(t, ok)
	assert.Equal(t, 2, i)
	assert.Equal(t, "K_NO_WAIT", v.NoWait())
	assert.True(t, v.BlockingAllocOnly("devm_kzalloc"))
	assert.Equal(t, "GFP_KERNEL", v.BlockingFlag())
	assert.Equal(t, []int{1, 2}, v.RegistrarArgs("k_timer_init"))
	assert.Nil(t, v.RegistrarArgs("k_work_init"))
	for name, want := range map[string]bool{"uart_isr": true, "TIM2_IRQHandler": true, "SysTick_Handler": true,
		"HAL_GPIO_EXTI_Callback": true, "Reset_Handler": false, "_isr": false, "HAL_MspInit": false, "isr": false} {
		assert.Equal(t, want, v.HandlerByName(name), name)
	}
	assert.True(t, v.Wrapper("ISR_DIRECT_DECLARE"))
	assert.True(t, v.Keyword("__irq"))
	assert.True(t, v.Attribute("interrupt"))
}

func TestNilVocabularyKnowsNothing(t *testing.T) {
	var v *Vocabulary
	assert.Empty(t, v.Forbidden())
	assert.False(t, v.HandlerByName("uart_isr"))
	assert.Nil(t, v.RegistrarArgs("IRQ_CONNECT"))
	_, ok := v.NoWaitArg("k_sem_take")
	assert.False(t, ok)
}

// minimal is a valid document; each case replaces one line.
const minimal = `forbidden:
  - {name: k_msleep, source: s}
no_wait: K_NO_WAIT
no_wait_only:
  - {name: k_sem_take, arg: 1, source: s}
blocking_flag: GFP_KERNEL
blocking_alloc_only:
  - {name: kmalloc, source: s}
registrations:
  - {api: IRQ_CONNECT, args: [2], source: s}
handler_suffixes:
  - {suffix: _isr, source: s}
handler_prefix_suffix:
  - {prefix: HAL_, suffix: Callback, source: s}
not_handlers:
  - {name: Reset_Handler, source: s}
wrappers:
  - {name: ISR, source: s}
keywords:
  - {name: __isr, source: s}
attributes:
  - {name: interrupt, source: s}
`

func TestLoadRejectsBadEntriesWithTheirLine(t *testing.T) {
	_, err := Load([]byte(minimal), "x.yaml")
	require.NoError(t, err)
	for name, tc := range map[string]struct{ old, new, want string }{
		"forbidden not ident": {"{name: k_msleep, source: s}", "{name: \"k_msleep(\", source: s}", "x.yaml:2: forbidden[0]: name \"k_msleep(\" is not a C identifier"},
		"no_wait not ident":   {"no_wait: K_NO_WAIT", "no_wait: \"K NO\"", "x.yaml:3: no_wait: want a C identifier"},
		"arg not int":         {"arg: 1,", "arg: one,", "x.yaml:5: no_wait_only[0]: arg must be an argument index"},
		"args missing":        {"args: [2], ", "", "x.yaml:10: registrations[0]: missing args"},
		"args negative":       {"args: [2]", "args: [-2]", "x.yaml:10: registrations[0]: args -2 is not an argument index"},
		"api not ident":       {"api: IRQ_CONNECT", "api: 3IRQ", "x.yaml:10: registrations[0]: api \"3IRQ\" is not a C identifier"},
		"suffix bad":          {"suffix: _isr", "suffix: \"-isr\"", "x.yaml:12: handler_suffixes[0]: suffix \"-isr\" is not part of a C identifier"},
		"prefix empty":        {"prefix: HAL_", "prefix: \"\"", "x.yaml:14: handler_prefix_suffix[0]: prefix \"\" is not part"},
		"no source":           {"{name: __isr, source: s}", "{name: __isr, source: \"\"}", "x.yaml:20: keywords[0]: has no source"},
		"unknown key":         {"{name: interrupt, source: s}", "{name: interrupt, source: s, kind: x}", "x.yaml:22: attributes[0]: unknown key \"kind\""},
		"missing list":        {"wrappers:\n  - {name: ISR, source: s}\n", "", "missing top-level key wrappers"},
		"unknown top key":     {"keywords:", "keyword:", "x.yaml:19: unknown top-level key \"keyword\""},
	} {
		t.Run(name, func(t *testing.T) {
			doc := strings.Replace(minimal, tc.old, tc.new, 1)
			require.NotEqual(t, minimal, doc)
			_, err := Load([]byte(doc), "x.yaml")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	doc := strings.Replace(minimal, "  - {name: ISR, source: s}\n", "  - {name: ISR, source: s}\n  - {name: ISR, source: t}\n", 1)
	_, err = Load([]byte(doc), "x.yaml")
	require.ErrorContains(t, err, "x.yaml:19: wrappers[1]: duplicate name \"ISR\" (first at line 18)")
}
