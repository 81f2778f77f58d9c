"""L0 checks of the bridge fixture kconfig-001: records as plain dicts."""


def _symbols(text):
    out = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = line.split("=", 1)
        out[key.strip()] = value.strip()
    return out


def run_checks(generated_code):
    symbols = _symbols(generated_code)
    records = []
    for name in ("CONFIG_I2C", "CONFIG_SENSOR"):
        value = symbols.get(name)
        records.append({
            "check_name": name.lower() + "_enabled",
            "passed": value == "y",
            "expected": name + "=y",
            "actual": "%s=%s" % (name, value) if value is not None else None,
            "check_type": "exact_match",
        })
    return records
