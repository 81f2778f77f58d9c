/* Zephyr's <zephyr/dt-bindings/dt-util.h> exposes the macros of
 * <zephyr/sys/util_macro.h> to devicetree sources. This one, written for
 * EmbedEval's devicetree overlay compile check, holds those an overlay uses
 * for cell values: single bits and low-bit masks. */
#ifndef EMBEDEVAL_DT_BINDINGS_DT_UTIL_H
#define EMBEDEVAL_DT_BINDINGS_DT_UTIL_H

#define BIT(n) (1UL << (n))
#define BIT_MASK(n) (BIT(n) - 1UL)

#endif
