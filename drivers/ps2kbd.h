/*
 * ps2kbd.h - the PS/2 keyboard behind the 8042 controller (or a USB
 * keyboard the firmware presents as one): what is typed goes to the
 * console terminal.
 */
#ifndef REWIND_PS2KBD_H
#define REWIND_PS2KBD_H

/* Sets up the controller and IRQ 1; quietly does nothing without a controller. */
void ps2kbd_init(void);

#endif
