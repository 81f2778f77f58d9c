package ctext

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCMSISHandlersAreISRs(t *testing.T) {
	code := "void Reset_Handler(void) { main(); }\nvoid SysTick_Handler(void) { ticks++; printf(\"x\"); }\nvoid UART0_Handler(void) { }\n"
	var names []string
	for _, f := range ISRBodies(code) {
		names = append(names, f.Name)
	}
	require.Equal(t, []string{"SysTick_Handler", "UART0_Handler"}, names)
	require.Equal(t, []Violation{{Function: "SysTick_Handler", API: "printf", Line: 2}}, ISRForbiddenCalls(code, nil))
}
