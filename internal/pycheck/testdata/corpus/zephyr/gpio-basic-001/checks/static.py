"""L0 checks of the bridge fixture gpio-basic-001 (Python implementation format)."""
import re

from embedeval.check_utils import check_no_cross_platform_apis, scoped_contains, strip_comments
from embedeval.models import CheckDetail


def run_checks(generated_code: str) -> list[CheckDetail]:
    details: list[CheckDetail] = []
    has_gpio = scoped_contains(generated_code, "zephyr/drivers/gpio.h", scope="code_only")
    details.append(CheckDetail(
        check_name="gpio_header_included",
        passed=has_gpio,
        expected="#include <zephyr/drivers/gpio.h>",
        actual="present" if has_gpio else "missing",
        check_type="exact_match",
    ))
    specs = len(re.findall(r"GPIO_DT_SPEC_GET\s*\(", strip_comments(generated_code)))
    details.append(CheckDetail(
        check_name="devicetree_specs_used",
        passed=specs >= 2,
        expected="LED and button from GPIO_DT_SPEC_GET",
        actual="%d spec(s)" % specs,
        check_type="constraint",
    ))
    ready = scoped_contains(generated_code, "led follower ready", scope="code_only")
    details.append(CheckDetail(
        check_name="ready_message_present",
        passed=ready,
        expected="prints led follower ready",
        actual="present" if ready else "missing",
        check_type="contains",
    ))
    foreign = check_no_cross_platform_apis(generated_code)
    details.append(CheckDetail(
        check_name="no_foreign_platform_apis",
        passed=not foreign,
        expected="Zephyr APIs only",
        actual=", ".join("%s:%s" % f for f in foreign) or "none",
        check_type="constraint",
        weight=2.0,
    ))
    return details
