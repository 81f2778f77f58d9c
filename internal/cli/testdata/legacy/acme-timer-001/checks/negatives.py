"""Seeded bugs of the legacy fixture acme-timer-001."""

NEGATIVES = [
    {
        "name": "never_started",
        "mutation": lambda code: code.replace("k_timer_start(", "k_timer_init_only("),
        "must_fail": ["timer_started"],
    },
    {
        "name": "wrong_period",
        "mutation": lambda code: code.replace("K_MSEC(500), K_MSEC(500)", "K_MSEC(50), K_MSEC(50)"),
        "must_fail": ["period_500ms"],
    },
]
