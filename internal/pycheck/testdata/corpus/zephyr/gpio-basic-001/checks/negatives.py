"""Mutation oracle of the bridge fixture gpio-basic-001."""

NEGATIVES = [
    {
        "name": "no_ready_check",
        "mutation": lambda code: code.replace("if (!gpio_is_ready_dt(&led) || !gpio_is_ready_dt(&button)) {\n\t\treturn -ENODEV;\n\t}\n", ""),
        "must_fail": ["ready_checked_before_configure"],
        "description": "Configures the pins without checking that the port is ready.",
        "factor_id": "F1.1",
    },
    {
        "name": "busy_wait_poll",
        "mutation": lambda code: code.replace("k_msleep(10);", "k_busy_wait(10000);"),
        "must_fail": ["poll_loop_sleeps"],
    },
    {
        "name": "configure_ignored",
        "mutation": lambda code: code.replace("if (gpio_pin_configure_dt(&led, GPIO_OUTPUT_INACTIVE) < 0) {\n\t\treturn -EIO;\n\t}", "gpio_pin_configure_dt(&led, GPIO_OUTPUT_INACTIVE);").replace("if (gpio_pin_configure_dt(&button, GPIO_INPUT) < 0) {\n\t\treturn -EIO;\n\t}", "gpio_pin_configure_dt(&button, GPIO_INPUT);"),
        "must_fail": ["configure_result_checked"],
    },
    {
        "name": "header_dropped",
        "mutation": lambda code: code.replace("#include <zephyr/drivers/gpio.h>\n", ""),
        "must_fail": ["gpio_header_included"],
    },
    {
        "name": "hardcoded_pins",
        "mutation": lambda code: code.replace("GPIO_DT_SPEC_GET(DT_ALIAS(led0), gpios)", "{ .port = DEVICE_DT_GET(DT_NODELABEL(gpio0)), .pin = 13 }"),
        "must_fail": ["devicetree_specs_used"],
    },
    {
        "name": "message_renamed",
        "mutation": lambda code: code.replace("led follower ready", "ready"),
        "must_fail": ["ready_message_present"],
    },
    {
        "name": "arduino_delay",
        "mutation": lambda code: code.replace("k_msleep(10);", "delay(10);"),
        "must_fail": ["no_foreign_platform_apis"],
        "should_fail": ["poll_loop_sleeps"],
        "bug_description": "poll_loop_sleeps only knows Zephyr's sleeps; a foreign delay is the other check's job.",
    },
]
