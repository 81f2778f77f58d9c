// Package csyntax parses C source with tree-sitter-c and answers structural
// questions about it: which functions a file defines (with return type,
// parameters, storage and attributes), which calls appear and where, which
// variables are declared with which qualifiers, which headers are included and
// which macros are defined. It also runs raw tree-sitter queries, and judges
// control flow: whether a function never returns (NeverReturns), how the
// branches of an if end (BranchExits), and whether the result of each call
// of an API is tested and its failure path leaves (ErrorSites, with the SDK
// error vocabulary as an ErrorVocabulary). On the same trees it answers the
// structural questions of the check helpers: which functions run in
// interrupt context and which forbidden calls they make (ISRDefinitions,
// ISRForbiddenCalls, judged with an InterruptVocabulary loaded from
// data/isr_context.yaml), how a name is declared anywhere, struct members
// and parameters included (Declarators, QualifierOnVariable), and whether
// a body releases resources in reverse order (ExplainCleanupOrder).
//
// The package owns parsing and extraction only; it knows nothing about checks,
// Starlark or scoring.
//
// # Macro-heavy and incomplete code
//
// Firmware is full of macros the parser never sees expanded: Zephyr
// K_THREAD_DEFINE(...), DEVICE_DT_GET(DT_NODELABEL(x)), LOG_MODULE_REGISTER(...),
// Linux module_init(foo_init) and MODULE_LICENSE("GPL"), decorators such as
// __isr, __init, IRAM_ATTR or __aligned(4), and model output that simply stops
// before the closing brace. tree-sitter is error tolerant, and this package adds
// two layers on top of it:
//
//  1. Known decorator macros are masked before parsing. A fixed table of
//     decorators (Linux __init/__exit/__maybe_unused/__iomem/..., Zephyr
//     __isr/__noinit/__ramfunc/FUNC_NORETURN/..., ESP-IDF IRAM_ATTR/DRAM_ATTR/
//     RTC_DATA_ATTR/..., CMSIS __weak/__WEAK/__NO_RETURN/..., FreeRTOS
//     PRIVILEGED_FUNCTION, and function-like ones such as __aligned(n) and
//     __section(s)) is replaced by spaces in the text handed to tree-sitter, so
//     byte offsets and line numbers are unchanged. A few are replaced by what they
//     mean (__STATIC_INLINE becomes "static inline", __always_inline becomes
//     "inline"); CMSIS __IO/__I/__O/__IM/__OM/__IOM are masked and reported as
//     the qualifiers volatile (and const). Masked decorators are reported in
//     Function.Attributes and Declaration.Attributes. Masking skips comments,
//     string and character literals and preprocessor lines, so
//     "#define IRAM_ATTR ..." is still reported by Macros. The keyword "static"
//     is also masked in front of an all-capitals *_DEFINE/*_DECLARE macro
//     ("static K_THREAD_STACK_DEFINE(stack, 1024);"), which tree-sitter would
//     otherwise read as a broken declaration swallowing the next statement;
//     the macro is then reported as a call.
//  2. Unknown decorators are recovered from the shapes tree-sitter produces for
//     them: an identifier wrapped in an ERROR node between the return type and the
//     function name becomes an attribute; when the ERROR holds the real type
//     ("MY_ATTR void f(void)") the type and attribute are swapped; and two unknown
//     decorators in a row ("static void A B f(void) {...}"), which tree-sitter
//     splits into a declaration with a missing ';' followed by a function whose
//     type is B, are merged back into one function with attributes A and B.
//
// Limits: an unknown function-like decorator ("void MY_ATTR(1) f(void)") is not
// recovered; code inside #if/#ifdef is parsed as if every branch were taken;
// macros that expand to declarations ("K_SEM_DEFINE(s, 0, 1);") are reported as
// calls, never as declarations; a function nested in a broken struct or
// initializer is lost. Source texts (Body, Init, Args, Capture.Text) are always
// the original bytes; type strings (ReturnType, Param.Type, Declaration.Type) are
// built from the masked text and so never contain masked decorators.
//
// Nothing in this package is safe for concurrent use: a File and a ParseCache
// belong to one goroutine.
package csyntax
