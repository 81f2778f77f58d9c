package ctext

import (
	"sort"
	"strings"
)

// isrRegistrarArgs returns, for an API that registers a function to run in
// interrupt (or softirq/timer) context, the 0-based indexes of the
// arguments that name such functions.
func isrRegistrarArgs(api string) []int {
	switch api {
	case "IRQ_CONNECT", "IRQ_DIRECT_CONNECT", "irq_connect_dynamic", // Zephyr
		"devm_request_irq", "devm_request_threaded_irq", // Linux (primary handler only)
		"esp_intr_alloc", "timer_isr_register": // ESP-IDF
		return []int{2}
	case "gpio_init_callback", // Zephyr GPIO callbacks run in the driver's ISR
		"request_irq", "request_threaded_irq", "request_any_context_irq", // Linux
		"timer_setup", "tasklet_init", "tasklet_setup", // Linux softirq context
		"gpio_isr_handler_add", // ESP-IDF
		"attachInterrupt":      // Arduino
		return []int{1}
	case "k_timer_init", "K_TIMER_DEFINE": // Zephyr: expiry and stop functions run in the timer ISR
		return []int{1, 2}
	}
	return nil
}

// isrByName reports whether a function name marks it as an interrupt
// handler by convention. CMSIS exception and vendor IRQ handlers end in
// "_Handler" (SysTick_Handler, PendSV_Handler, UART0_Handler); Reset_Handler
// is the exception: it runs in thread mode.
func isrByName(name string) bool {
	if name == "Reset_Handler" {
		return false
	}
	for _, suf := range []string{"_isr", "_ISR", "_irq_handler", "IRQHandler", "_Handler"} {
		if strings.HasSuffix(name, suf) && len(name) > len(suf) {
			return true
		}
	}
	return strings.HasPrefix(name, "HAL_") && strings.HasSuffix(name, "Callback")
}

// isrByDecoration reports whether the declaration of f carries an interrupt
// marker: an ISR/ISR_DIRECT_DECLARE/SIGNAL wrapper, a __isr, __irq or
// __interrupt keyword, or an attribute list naming interrupt, isr or signal.
func (s *Source) isrByDecoration(f funcDef) bool {
	switch f.wrapper {
	case "ISR", "ISR_DIRECT_DECLARE", "SIGNAL":
		return true
	}
	inAttr := false
	for k := f.headStart; k < f.nameTok && k < len(s.toks); k++ {
		switch t := s.text(k); t {
		case "__isr", "__irq", "__interrupt", "__ISR", "__interrupt__":
			return true
		case "__attribute__", "__attribute":
			inAttr = true
		case "interrupt", "interrupt_handler", "isr", "signal", "__signal__":
			if inAttr || s.is(k-1, ":") {
				return true
			}
		}
	}
	return false
}

// registeredISRs returns the names passed as handlers to the registration
// APIs of isrRegistrarArgs.
func (s *Source) registeredISRs() map[string]bool {
	s.lex()
	out := map[string]bool{}
	for i := range s.toks {
		if !s.isIdentTok(i) || !s.is(i+1, "(") {
			continue
		}
		idx := isrRegistrarArgs(s.text(i))
		if idx == nil {
			continue
		}
		args := s.topArgs(i + 1)
		for _, a := range idx {
			if a < len(args) {
				if name := s.handlerName(args[a]); name != "" {
					out[name] = true
				}
			}
		}
	}
	return out
}

// handlerName extracts a function name from an argument such as
// "my_isr", "&my_isr" or "(irq_handler_t)my_isr".
func (s *Source) handlerName(r [2]int) string {
	a, b := r[0], r[1]
	for a < b {
		switch {
		case s.is(a, "&"):
			a++
		case s.is(a, "(") && s.match[a] > a && s.match[a] < b-1:
			a = s.match[a] + 1
		default:
			if b-a == 1 && s.isIdentTok(a) {
				return s.text(a)
			}
			return ""
		}
	}
	return ""
}

// isrFuncs returns the definitions that run in interrupt context.
func (s *Source) isrFuncs() []funcDef {
	reg := s.registeredISRs()
	seen := map[string]bool{}
	var out []funcDef
	for _, f := range s.functions() {
		if seen[f.Name] {
			continue
		}
		if reg[f.Name] || isrByName(f.Name) || s.isrByDecoration(f) {
			seen[f.Name] = true
			out = append(out, f)
		}
	}
	return out
}

// ISRBodies returns the definitions of functions that run in interrupt
// context, each once, in source order. A function qualifies when it is
//   - registered as a handler: 3rd argument of IRQ_CONNECT,
//     IRQ_DIRECT_CONNECT, irq_connect_dynamic, devm_request_irq,
//     devm_request_threaded_irq (primary handler), esp_intr_alloc and
//     timer_isr_register; 2nd argument of gpio_init_callback, request_irq,
//     request_threaded_irq (primary handler), request_any_context_irq,
//     gpio_isr_handler_add, attachInterrupt and of the Linux softirq-context
//     registrations timer_setup, tasklet_init and tasklet_setup; 2nd and 3rd
//     argument of k_timer_init;
//   - named by convention: ending in _isr, _ISR, _irq_handler, IRQHandler or
//     _Handler (CMSIS; not Reset_Handler),
//     or an STM32 HAL callback HAL_*Callback;
//   - declared as an interrupt: ISR(...), ISR_DIRECT_DECLARE(...),
//     SIGNAL(...), __isr/__irq/__interrupt, or an attribute list naming
//     interrupt, interrupt_handler, isr or signal.
//
// Handlers registered here but defined in another file are not returned,
// as there is no body to inspect.
func ISRBodies(code string) []Function {
	return NewSource(code).ISRBodies()
}

// ISRBodies is ISRBodies on this source.
func (s *Source) ISRBodies() []Function {
	defs := s.isrFuncs()
	out := make([]Function, len(defs))
	for i, d := range defs {
		out[i] = d.Function
	}
	return out
}

// Violation is a call to a forbidden API inside an interrupt handler.
type Violation struct {
	Function string
	API      string
	Line     int
}

// DefaultISRForbidden returns a fresh list of APIs that block, sleep or
// allocate and so must not run in interrupt context: Zephyr, FreeRTOS
// (non-FromISR forms), Linux kernel, ESP-IDF, STM32 HAL and libc. Some
// entries are conditional, see ISRForbiddenCalls. printk (Zephyr),
// k_busy_wait, ESP_EARLY_LOGx and ESP_DRAM_LOGx are ISR-safe and not listed.
func DefaultISRForbidden() []string {
	return []string{
		// Zephyr
		"k_sleep", "k_msleep", "k_usleep", "k_mutex_lock", "k_sem_take", "k_msgq_put",
		"k_msgq_get", "k_mem_slab_alloc", "k_fifo_get", "k_queue_get", "k_poll", "k_malloc",
		"k_thread_create", "k_event_wait", "k_stack_pop",
		// libc
		"printf", "malloc", "free", "calloc", "realloc",
		// FreeRTOS / CMSIS-RTOS
		"vTaskDelay", "vTaskDelayUntil", "xSemaphoreTake", "xSemaphoreGive", "xQueueSend",
		"xQueueSendToBack", "xQueueSendToFront", "xQueueReceive", "xQueueOverwrite", "xQueuePeek",
		"xTaskNotifyGive", "xTaskNotify", "ulTaskNotifyTake", "xTaskNotifyWait",
		"xEventGroupSetBits", "xEventGroupWaitBits", "xEventGroupClearBits", "osDelay",
		"taskENTER_CRITICAL", "taskEXIT_CRITICAL", "xTimerStart", "xTimerStop", "xTimerReset",
		"xTimerChangePeriod", "xStreamBufferSend", "xStreamBufferReceive", "xMessageBufferSend",
		"xMessageBufferReceive", "vTaskResume", "xTaskCreate",
		// Linux kernel
		"msleep", "msleep_interruptible", "ssleep", "usleep_range", "mutex_lock",
		"mutex_lock_interruptible", "down", "down_interruptible", "copy_to_user",
		"copy_from_user", "kmalloc", "kzalloc", "kcalloc", "kmalloc_array", "vmalloc", "vzalloc",
		"schedule", "schedule_timeout", "wait_event", "wait_event_interruptible",
		"wait_for_completion",
		// ESP-IDF
		"ESP_LOGE", "ESP_LOGW", "ESP_LOGI", "ESP_LOGD", "ESP_LOGV", "heap_caps_malloc",
		// STM32 HAL
		"HAL_Delay",
	}
}

// timeoutArg returns the 0-based index of the timeout argument of Zephyr
// kernel calls that are ISR-safe only with K_NO_WAIT.
func timeoutArg(api string) (int, bool) {
	switch api {
	case "k_sem_take", "k_fifo_get", "k_queue_get", "k_lifo_get":
		return 1, true
	case "k_msgq_put", "k_msgq_get", "k_mem_slab_alloc", "k_poll", "k_stack_pop", "k_msgq_peek_at":
		return 2, true
	case "k_event_wait", "k_event_wait_all":
		return 3, true
	}
	return 0, false
}

// gfpConditional reports whether api is a Linux allocator that is forbidden
// in interrupt context only with GFP_KERNEL (GFP_ATOMIC is fine).
func gfpConditional(api string) bool {
	switch api {
	case "kmalloc", "kzalloc", "kcalloc", "kmalloc_array", "krealloc", "kvmalloc", "kvzalloc",
		"devm_kzalloc", "devm_kmalloc", "kstrdup", "kmemdup":
		return true
	}
	return false
}

// textArgs splits the stripped text of the call whose "(" is at byte
// offset open into its top-level arguments (trimmed).
func textArgs(t string, open int) []string {
	depth := 0
	start := open + 1
	var out []string
	for j := open; j < len(t); j++ {
		switch t[j] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return append(out, strings.TrimSpace(t[start:j]))
			}
		case ',':
			if depth == 1 {
				out = append(out, strings.TrimSpace(t[start:j]))
				start = j + 1
			}
		}
	}
	return append(out, strings.TrimSpace(t[start:]))
}

// forbiddenHere decides the conditional cases: a Zephyr timeout call is
// forbidden unless its timeout is K_NO_WAIT; a Linux allocator only with
// GFP_KERNEL in its arguments.
func forbiddenHere(api string, args []string) bool {
	if i, ok := timeoutArg(api); ok {
		if i >= len(args) {
			return true
		}
		a := strings.TrimSpace(strings.Trim(args[i], "() \t\r\n"))
		return a != "K_NO_WAIT"
	}
	if gfpConditional(api) {
		for _, a := range args {
			if len(wordMatches(a, "GFP_KERNEL", 1)) > 0 {
				return true
			}
		}
		return false
	}
	return true
}

// ISRForbiddenCalls returns the calls to forbidden APIs inside the bodies
// returned by ISRBodies, sorted by line, then API. A nil forbidden list
// means DefaultISRForbidden. Member calls (dev->free(...), ops.down(...))
// are not counted. Two rules are conditional whenever the API is listed:
// the Zephyr calls k_sem_take, k_msgq_put, k_msgq_get, k_mem_slab_alloc,
// k_fifo_get, k_queue_get, k_lifo_get, k_poll, k_stack_pop, k_event_wait
// are forbidden only when their timeout argument is not exactly K_NO_WAIT;
// the Linux allocators kmalloc, kzalloc, kcalloc, kmalloc_array, krealloc,
// kvmalloc, devm_kzalloc, devm_kmalloc, kstrdup, kmemdup only when an
// argument contains GFP_KERNEL.
func ISRForbiddenCalls(code string, forbidden []string) []Violation {
	return NewSource(code).ISRForbiddenCalls(forbidden)
}

// ISRForbiddenCalls is ISRForbiddenCalls on this source.
func (s *Source) ISRForbiddenCalls(forbidden []string) []Violation {
	if forbidden == nil {
		forbidden = DefaultISRForbidden()
	}
	var out []Violation
	for _, f := range s.isrFuncs() {
		seen := map[string]bool{}
		for _, api := range forbidden {
			api = normalizeCallName(api)
			if api == "" || seen[api] {
				continue
			}
			seen[api] = true
			for _, m := range callMatches(s.stripped, api, f.BodyOffset, f.bodyEnd, 0) {
				if isMemberAccess(s.stripped, m.start) {
					continue
				}
				open := strings.IndexByte(s.stripped[m.end:], '(') + m.end
				if !forbiddenHere(api, textArgs(s.stripped, open)) {
					continue
				}
				out = append(out, Violation{Function: f.Name, API: api, Line: s.Line(m.start)})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].API < out[j].API
	})
	return out
}

// isMemberAccess reports whether the text before off (skipping whitespace)
// is "." or "->".
func isMemberAccess(t string, off int) bool {
	k := off - 1
	for k >= 0 && isSpace(t[k]) {
		k--
	}
	return k >= 0 && (t[k] == '.' || (t[k] == '>' && k > 0 && t[k-1] == '-'))
}
