/*
 * serial.h - the 16550 UART on COM1 (115200 8N1), the kernel's first console
 * and a way to type to the console terminal.
 */
#ifndef REWIND_SERIAL_H
#define REWIND_SERIAL_H

#include "kernel/lib/types.h"

/* Returns false when no UART answers at COM1 (then nothing is registered). */
bool serial_init(void);
void serial_write(const char *s, size_t n);
/* Input: received bytes go to the console terminal (tty_receive), by interrupt. */
void serial_enable_rx(void);

#endif
