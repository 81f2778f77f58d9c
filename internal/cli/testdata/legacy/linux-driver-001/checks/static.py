"""L0 checks of the legacy fixture linux-driver-001."""
from embedeval.models import CheckDetail


def run_checks(generated_code):
    return [
        CheckDetail(check_name="module_init_declared", passed="module_init(" in generated_code,
                    expected="module_init(...)", actual=None),
        CheckDetail(check_name="gpl_license", passed='MODULE_LICENSE("GPL")' in generated_code,
                    expected='MODULE_LICENSE("GPL")', actual=None),
    ]
