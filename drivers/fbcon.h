/*
 * fbcon.h - the screen console: text drawn on the multiboot2 framebuffer
 * with a built-in bitmap font, or VGA text mode where the loader left the
 * machine in it. Lets a bare-metal machine (UEFI included) show printk.
 */
#ifndef REWIND_FBCON_H
#define REWIND_FBCON_H

#include "kernel/multiboot2.h"

/* Maps the screen and registers it as a console; quietly does nothing without one. */
void fbcon_init(const struct boot_info *bi);

#endif
