"""Stand-in for embedeval.check_utils: the shared helpers check modules call."""
import re

_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_STRING = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')

_FORBIDDEN = {
    "FreeRTOS": ["xTaskCreate", "vTaskDelay", "xQueueSend", "xSemaphoreTake"],
    "Arduino": ["digitalWrite", "pinMode", "delay", "Serial.begin"],
    "STM32 HAL": ["HAL_GPIO_WritePin", "HAL_Delay", "HAL_UART_Transmit"],
    "ESP-IDF": ["gpio_set_level", "esp_err_t", "vTaskDelay"],
}


def strip_comments(code):
    """Code with /* */ and // comments removed (string literals kept)."""
    out, pos = [], 0
    for m in re.finditer(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', code, re.S):
        out.append(code[pos:m.start()])
        out.append(m.group(0) if m.group(0).startswith('"') else " ")
        pos = m.end()
    out.append(code[pos:])
    return "".join(out)


def strip_string_literals(code):
    """Code with the contents of string and character literals blanked."""
    return _STRING.sub('""', code)


def scoped_contains(code, needle, scope="stripped"):
    """needle in code, looking only where scope says (stripped, code_only or raw)."""
    if scope == "raw":
        return needle in code
    text = strip_comments(code)
    if scope == "stripped":
        text = strip_string_literals(text)
    elif scope != "code_only":
        raise ValueError("unknown scope %r" % scope)
    return needle in text


def has_api_call(code, name):
    """A call of name( outside comments and strings."""
    return re.search(r"\b%s\s*\(" % re.escape(name), strip_string_literals(strip_comments(code))) is not None


def extract_function_body(code, name):
    """The text between the braces of function name's definition, or None."""
    text = strip_comments(code)
    m = re.search(r"\b%s\s*\([^;{)]*\)\s*\{" % re.escape(name), text)
    if not m:
        return None
    depth, start = 1, m.end()
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[start:i]
    return None


def check_no_cross_platform_apis(code, skip_platforms=None):
    """(platform, api) pairs of other platforms' APIs called in code."""
    skip = set(skip_platforms or ())
    found = []
    for platform, apis in _FORBIDDEN.items():
        if platform in skip:
            continue
        for api in apis:
            if has_api_call(code, api.split(".")[-1]) if "." not in api else scoped_contains(code, api):
                found.append((platform, api))
    return found
