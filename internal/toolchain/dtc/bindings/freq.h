/* Frequency helpers for devicetree sources, as Zephyr's dts/common/freq.h
 * defines them, written for EmbedEval's devicetree overlay compile check. */
#ifndef EMBEDEVAL_DTS_COMMON_FREQ_H
#define EMBEDEVAL_DTS_COMMON_FREQ_H

#define DT_FREQ_K(x) ((x) * 1000)
#define DT_FREQ_M(x) (DT_FREQ_K(x) * 1000)

#endif
