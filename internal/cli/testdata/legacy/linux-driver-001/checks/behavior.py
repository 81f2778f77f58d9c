"""L3 checks of the legacy fixture linux-driver-001."""
from embedeval.models import CheckDetail


def run_checks(generated_code):
    return [
        CheckDetail(check_name="exit_declared", passed="module_exit(" in generated_code,
                    expected="module_exit(...)", actual=None, check_type="constraint"),
    ]
