/* Input event codes for gpio-keys style nodes (zephyr,code): a small subset
 * of Zephyr's <zephyr/dt-bindings/input/input-event-codes.h>, written for
 * EmbedEval's devicetree overlay compile check. Values follow Linux. */
#ifndef EMBEDEVAL_DT_BINDINGS_INPUT_INPUT_EVENT_CODES_H
#define EMBEDEVAL_DT_BINDINGS_INPUT_INPUT_EVENT_CODES_H

#define INPUT_KEY_0 11
#define INPUT_KEY_1 2
#define INPUT_KEY_2 3
#define INPUT_KEY_3 4
#define INPUT_KEY_4 5
#define INPUT_KEY_A 30
#define INPUT_KEY_B 48
#define INPUT_KEY_ENTER 28
#define INPUT_KEY_DOWN 108
#define INPUT_KEY_UP 103
#define INPUT_KEY_LEFT 105
#define INPUT_KEY_RIGHT 106
#define INPUT_KEY_POWER 116
#define INPUT_BTN_0 0x100
#define INPUT_BTN_1 0x101
#define INPUT_BTN_2 0x102
#define INPUT_BTN_3 0x103

#endif
