"""L3 checks of the bridge fixture kconfig-001."""
from embedeval.models import CheckDetail


def run_checks(generated_code):
    symbols = {}
    for line in generated_code.splitlines():
        line = line.split("#", 1)[0].strip()
        if "=" in line:
            key, value = line.split("=", 1)
            symbols[key.strip()] = value.strip()
    level = symbols.get("CONFIG_LOG_DEFAULT_LEVEL")
    return [
        CheckDetail(
            check_name="log_level_needs_log",
            passed=level is None or symbols.get("CONFIG_LOG") == "y",
            expected="CONFIG_LOG_DEFAULT_LEVEL only with CONFIG_LOG=y",
            actual="CONFIG_LOG=%s" % symbols.get("CONFIG_LOG"),
            check_type="constraint",
        ),
        CheckDetail(
            check_name="log_level_warning",
            passed=level == "2",
            expected="CONFIG_LOG_DEFAULT_LEVEL=2",
            actual=str(level),
            check_type="exact_match",
            weight=0.5,
        ),
    ]
