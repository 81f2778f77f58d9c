"""L0 checks of the legacy fixture acme-timer-001, in the Python implementation's style."""
from embedeval.models import CheckDetail


def run_checks(generated_code):
    started = "k_timer_start" in generated_code
    return [
        CheckDetail(
            check_name="kernel_header",
            passed="zephyr/kernel.h" in generated_code,
            expected="zephyr/kernel.h included",
            actual=None,
        ),
        CheckDetail(
            check_name="timer_started",
            passed=started,
            expected="k_timer_start called",
            actual="present" if started else "missing",
        ),
    ]
