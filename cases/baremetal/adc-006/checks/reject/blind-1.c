/* defect: vmon_source_mv() scales the already rounded pin millivolts by the divider ratio instead of dividing once from raw (raw 1 gives 6, not 4)
 * breaks: "`vmon_source_mv(raw)` returns `raw × 3300 × (100 + 22) / (4096 × 22)` millivolts, computed from `raw` in one exact division and rounded once as above, **not** from the already rounded pin millivolts (raw 1 gives 4, raw 4095 gives 18296)."
 * must_fail: scenario_source_from_raw_once, scenario_source_full_scale
 */
#include <stdint.h>
#include "vmon.h"

static uint32_t div_round(uint32_t num, uint32_t den)
{
	return (num + den / 2u) / den;
}

int32_t vmon_pin_mv(uint16_t raw)
{
	if (raw > VMON_RAW_MAX) {
		return VMON_INVALID;
	}
	return (int32_t)div_round((uint32_t)raw * VMON_VREF_MV, VMON_ADC_STEPS);
}

int32_t vmon_source_mv(uint16_t raw)
{
	int32_t pin = vmon_pin_mv(raw);

	if (pin == VMON_INVALID) {
		return VMON_INVALID;
	}
	/* undo the divider: Vsrc = Vpin * (Rtop + Rbot) / Rbot */
	return (int32_t)div_round((uint32_t)pin *
				  (VMON_R_TOP_KOHM + VMON_R_BOTTOM_KOHM),
				  VMON_R_BOTTOM_KOHM);
}

static int32_t window[VMON_AVG_LEN];
static unsigned next_slot;
static int window_empty = 1;

void vmon_avg_init(void)
{
	for (unsigned i = 0; i < VMON_AVG_LEN; i++) {
		window[i] = 0;
	}
	next_slot = 0;
	window_empty = 1;
}

int32_t vmon_avg_add(uint16_t raw)
{
	int32_t mv = vmon_source_mv(raw);
	uint32_t sum = 0;

	if (mv == VMON_INVALID) {
		return VMON_INVALID;
	}

	if (window_empty) {
		for (unsigned i = 0; i < VMON_AVG_LEN; i++) {
			window[i] = mv;
		}
		next_slot = 0;
		window_empty = 0;
	} else {
		window[next_slot] = mv;
		next_slot = (next_slot + 1u) % VMON_AVG_LEN;
	}

	for (unsigned i = 0; i < VMON_AVG_LEN; i++) {
		sum += (uint32_t)window[i];
	}
	return (int32_t)div_round(sum, VMON_AVG_LEN);
}
