/* serial_open.h - open and configure a serial port (raw 8N1). */
#ifndef SERIAL_OPEN_H
#define SERIAL_OPEN_H

/* Opens the terminal device at `path` and configures it as stated in the
 * task. Returns the open file descriptor (>= 0), or -1 with errno set. */
int serial_open(const char *path, unsigned baud);

#endif /* SERIAL_OPEN_H */
