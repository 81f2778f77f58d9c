package ctext

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCMSISHandlersAreISRs(t *testing.T) {
	code := "void Reset_Handler(void) { main(); }\nvoid SysTick_Handler(void) { ticks++; printf(\"x\"); }\nvoid UART0_Handler(void) { }\n"
	var names []string
	for _, f := range ISRBodies(code, isrVocab()) {
		names = append(names, f.Name)
	}
	require.Equal(t, []string{"SysTick_Handler", "UART0_Handler"}, names)
	require.Equal(t, []Violation{{Function: "SysTick_Handler", API: "printf", Line: 2}}, ISRForbiddenCalls(code, nil, isrVocab()))
}

func TestKTimerDefineExpiryIsAnISR(t *testing.T) {
	code := "static void expiry(struct k_timer *t) { k_msleep(1); }\nstatic void stopped(struct k_timer *t) { }\nK_TIMER_DEFINE(tick, expiry, stopped);\nint main(void) { k_timer_start(&tick, K_MSEC(1), K_MSEC(1)); return 0; }\n"
	var names []string
	for _, f := range ISRBodies(code, isrVocab()) {
		names = append(names, f.Name)
	}
	require.Equal(t, []string{"expiry", "stopped"}, names)
	require.Equal(t, []Violation{{Function: "expiry", API: "k_msleep", Line: 1}}, ISRForbiddenCalls(code, nil, isrVocab()))
}
