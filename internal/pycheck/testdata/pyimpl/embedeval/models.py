"""Stand-in for embedeval.models: the CheckDetail record of interop contract §2.4."""


class CheckDetail:
    """One check's verdict; model_dump() mirrors the pydantic model's."""

    _fields = ("check_name", "passed", "expected", "actual", "check_type", "weight")

    def __init__(self, *, check_name, passed, expected=None, actual=None, check_type="exact_match", weight=1.0):
        if not isinstance(check_name, str):
            raise TypeError("check_name must be a string")
        if not isinstance(passed, bool):
            raise TypeError("passed must be a bool")
        if float(weight) < 0:
            raise ValueError("weight must be >= 0")
        self.check_name = check_name
        self.passed = passed
        self.expected = expected
        self.actual = actual
        self.check_type = check_type
        self.weight = float(weight)

    def model_dump(self):
        return {name: getattr(self, name) for name in self._fields}
