"""L3 checks of the legacy fixture acme-timer-001: timer_started is also an L0 name."""
import re

from embedeval.models import CheckDetail


def run_checks(generated_code):
    call = re.search(r"k_timer_start\(\s*&\w+\s*,\s*K_MSEC\((\d+)\)\s*,\s*K_MSEC\((\d+)\)", generated_code)
    periods = call.groups() if call else ()
    return [
        CheckDetail(
            check_name="timer_started",
            passed=call is not None,
            expected="k_timer_start(&timer, K_MSEC(n), K_MSEC(n))",
            actual="found" if call else "not found",
            check_type="constraint",
        ),
        CheckDetail(
            check_name="period_500ms",
            passed=periods == ("500", "500"),
            expected="500 ms initial and period",
            actual=" / ".join(periods) or "no call",
            check_type="constraint",
        ),
    ]
