/* VT-2 supply monitor: divider readings to millivolts, running-sum average. */
#include <stdint.h>
#include "vmon.h"

#define SRC_NUM   ((uint32_t)VMON_VREF_MV * (VMON_R_TOP_KOHM + VMON_R_BOTTOM_KOHM))  /* 402600 */
#define SRC_DEN   ((uint32_t)VMON_ADC_STEPS * VMON_R_BOTTOM_KOHM)                    /* 90112 */

static struct {
	int32_t slot[VMON_AVG_LEN];
	int32_t total;
	uint8_t next;
	uint8_t primed;
} avg;

/* Nearest, halves up: (2n + d) / 2d; 2 * 4095 * 402600 still fits in 32 bits unsigned. */
static int32_t nearest(uint32_t n, uint32_t d)
{
	return (int32_t)((2u * n + d) / (2u * d));
}

int32_t vmon_pin_mv(uint16_t raw)
{
	return raw <= VMON_RAW_MAX ? nearest((uint32_t)raw * VMON_VREF_MV, VMON_ADC_STEPS) : VMON_INVALID;
}

int32_t vmon_source_mv(uint16_t raw)
{
	if (raw > VMON_RAW_MAX)
		return VMON_INVALID;
	return nearest((uint32_t)raw * SRC_NUM, SRC_DEN);
}

void vmon_avg_init(void)
{
	avg.primed = 0;
}

int32_t vmon_avg_add(uint16_t raw)
{
	int32_t v = vmon_source_mv(raw);

	if (v < 0)
		return VMON_INVALID;
	if (!avg.primed) {
		for (int i = 0; i < VMON_AVG_LEN; ++i)
			avg.slot[i] = v;
		avg.total = v * VMON_AVG_LEN;
		avg.next = 0;
		avg.primed = 1;
	} else {
		avg.total += v - avg.slot[avg.next];
		avg.slot[avg.next] = v;
		avg.next = (uint8_t)((avg.next + 1) & (VMON_AVG_LEN - 1));
	}
	return (avg.total + VMON_AVG_LEN / 2) / VMON_AVG_LEN;
}
