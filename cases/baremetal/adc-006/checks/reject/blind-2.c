/* defect: the moving average divides the sum by 4 with plain integer division (truncates), so 6862.5 gives 6862
 * breaks: "`vmon_avg_add()` returns the sum of the 4 values divided by 4, rounded as above (6862.5 gives 6863)."
 * must_fail: scenario_avg_rounds_half_up
 */
#include <stdint.h>
#include <stdbool.h>
#include "vmon.h"

#define SRC_NUM   50325u   /* 3300 * 122 / 8 */
#define SRC_DEN   11264u   /* 4096 * 22 / 8 */

int32_t vmon_pin_mv(uint16_t raw)
{
	if (raw > VMON_RAW_MAX)
		return VMON_INVALID;
	uint32_t n = (uint32_t)raw * 3300u;
	return (int32_t)((2u * n + 4096u) / (2u * 4096u));
}

int32_t vmon_source_mv(uint16_t raw)
{
	if (raw > VMON_RAW_MAX)
		return VMON_INVALID;
	uint32_t n = (uint32_t)raw * SRC_NUM;
	return (int32_t)((2u * n + SRC_DEN) / (2u * SRC_DEN));
}

static struct {
	int32_t mv[VMON_AVG_LEN];
	int32_t total;
	uint8_t oldest;
	bool    primed;
} avg;

void vmon_avg_init(void)
{
	avg.total = 0;
	avg.oldest = 0;
	avg.primed = false;
}

int32_t vmon_avg_add(uint16_t raw)
{
	if (raw > VMON_RAW_MAX)
		return VMON_INVALID;

	int32_t mv = vmon_source_mv(raw);

	if (!avg.primed) {
		int i;
		for (i = 0; i < VMON_AVG_LEN; ++i)
			avg.mv[i] = mv;
		avg.total = mv * VMON_AVG_LEN;
		avg.oldest = 0;
		avg.primed = true;
	} else {
		avg.total += mv - avg.mv[avg.oldest];
		avg.mv[avg.oldest] = mv;
		avg.oldest = (uint8_t)((avg.oldest + 1) & (VMON_AVG_LEN - 1));
	}

	return avg.total / VMON_AVG_LEN;
}
