"""Mutation oracle of the bridge fixture kconfig-001."""


def _drop(symbol):
    def mutate(code):
        return "\n".join(line for line in code.splitlines() if not line.startswith(symbol + "=")) + "\n"
    return mutate


NEGATIVES = [
    {"name": "no_i2c", "mutation": _drop("CONFIG_I2C"), "must_fail": ["config_i2c_enabled"]},
    {"name": "no_sensor", "mutation": _drop("CONFIG_SENSOR"), "must_fail": ["config_sensor_enabled"]},
    {"name": "no_log", "mutation": _drop("CONFIG_LOG"), "must_fail": ["log_level_needs_log"]},
    {"name": "debug_level", "mutation": lambda c: c.replace("LEVEL=2", "LEVEL=4"), "must_fail": ["log_level_warning"]},
    {"name": "i2c_as_module", "mutation": lambda c: c.replace("CONFIG_I2C=y", "CONFIG_I2C=m"),
     "must_fail": ["config_i2c_enabled"], "should_fail": ["log_level_warning"],
     "bug_description": "the level check is not about I2C; listed to exercise should_fail misses"},
]
