/* defect: vmon_avg_add() counts the reading before checking it is valid, so an invalid first reading uses up the "first reading" and the next valid one replaces only one slot of the empty window
 * breaks: "An invalid reading returns -1 and leaves the window as it was; it does not count as the first reading."
 * must_fail: scenario_avg_invalid_ignored
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
	if (raw > VMON_RAW_MAX) {
		return VMON_INVALID;
	}
	uint32_t num = (uint32_t)raw * VMON_VREF_MV *
		       (VMON_R_TOP_KOHM + VMON_R_BOTTOM_KOHM);
	uint32_t den = (uint32_t)VMON_ADC_STEPS * VMON_R_BOTTOM_KOHM;
	return (int32_t)div_round(num, den);
}

static int32_t window[VMON_AVG_LEN];
static unsigned next_slot;
static unsigned count;

void vmon_avg_init(void)
{
	for (unsigned i = 0; i < VMON_AVG_LEN; i++) {
		window[i] = 0;
	}
	next_slot = 0;
	count = 0;
}

int32_t vmon_avg_add(uint16_t raw)
{
	int32_t mv = vmon_source_mv(raw);
	uint32_t sum = 0;
	int first = (count == 0);

	count++;
	if (mv == VMON_INVALID) {
		return VMON_INVALID;
	}

	if (first) {
		for (unsigned i = 0; i < VMON_AVG_LEN; i++) {
			window[i] = mv;
		}
		next_slot = 0;
	} else {
		window[next_slot] = mv;
		next_slot = (next_slot + 1u) % VMON_AVG_LEN;
	}

	for (unsigned i = 0; i < VMON_AVG_LEN; i++) {
		sum += (uint32_t)window[i];
	}
	return (int32_t)div_round(sum, VMON_AVG_LEN);
}
