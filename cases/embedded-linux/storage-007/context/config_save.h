/* config_save.h - crash-safe replacement of a configuration file. */
#ifndef CONFIG_SAVE_H
#define CONFIG_SAVE_H

#include <stddef.h>

/* Replaces the contents of the file `path` by the `len` bytes at `data`,
 * crash-safely, as stated in the task. Returns 0 on success, -1 with errno
 * set on failure. */
int config_save(const char *path, const void *data, size_t len);

#endif /* CONFIG_SAVE_H */
