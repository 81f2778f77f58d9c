#define BLINK_MS 500
