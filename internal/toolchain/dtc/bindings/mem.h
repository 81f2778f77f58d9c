/* Size helpers for devicetree sources, as Zephyr's dts/common/mem.h defines
 * them (every SoC tree includes it), written for EmbedEval's devicetree
 * overlay compile check. */
#ifndef EMBEDEVAL_DTS_COMMON_MEM_H
#define EMBEDEVAL_DTS_COMMON_MEM_H

#define DT_SIZE_K(x) ((x) * 1024)
#define DT_SIZE_M(x) (DT_SIZE_K(x) * 1024)

#endif
