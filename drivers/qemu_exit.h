/*
 * qemu_exit.h - ending the machine: QEMU's isa-debug-exit device for tests
 * and `make qemu`, else halting every CPU with a message.
 *
 * isa-debug-exit (port 0xf4) makes QEMU exit with status (value << 1) | 1,
 * so success is 33 and failure 35; status 0 never comes from it (a triple
 * fault with -no-reboot exits 0), which is why the harness treats 0 as failure.
 */
#ifndef REWIND_QEMU_EXIT_H
#define REWIND_QEMU_EXIT_H

#include "kernel/lib/types.h"

enum { EXIT_SUCCESS_CODE = 0x10, EXIT_FAILURE_CODE = 0x11 };

__noreturn void machine_exit(bool success);

#endif
