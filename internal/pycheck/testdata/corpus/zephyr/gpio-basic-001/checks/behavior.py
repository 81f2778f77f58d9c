"""L3 checks of the bridge fixture gpio-basic-001."""
import re

from embedeval.check_utils import has_api_call, strip_comments, strip_string_literals
from embedeval.models import CheckDetail


def _code(text):
    return strip_string_literals(strip_comments(text))


def run_checks(generated_code: str) -> list[CheckDetail]:
    code = _code(generated_code)
    details = []
    ready_at = code.find("gpio_is_ready_dt(")
    configure_at = code.find("gpio_pin_configure_dt(")
    ready_first = ready_at >= 0 and (configure_at < 0 or ready_at < configure_at)
    details.append(CheckDetail(
        check_name="ready_checked_before_configure",
        passed=ready_first,
        expected="gpio_is_ready_dt before gpio_pin_configure_dt",
        actual="yes" if ready_first else "no readiness check first",
        check_type="behavioral",
    ))
    checked = re.search(r"(if\s*\(\s*|=\s*|return\s+)gpio_pin_configure_dt\s*\(", code) is not None
    details.append(CheckDetail(
        check_name="configure_result_checked",
        passed=checked,
        expected="gpio_pin_configure_dt result tested",
        actual="tested" if checked else "ignored",
        check_type="behavioral",
    ))
    sleeps = has_api_call(code, "k_msleep") or has_api_call(code, "k_sleep")
    busy = has_api_call(code, "k_busy_wait")
    details.append(CheckDetail(
        check_name="poll_loop_sleeps",
        passed=sleeps and not busy,
        expected="the poll loop sleeps (k_msleep/k_sleep), no busy wait",
        actual="sleeps" if sleeps and not busy else "busy-waits or never sleeps",
        check_type="behavioral",
    ))
    return details
