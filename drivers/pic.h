/*
 * pic.h - the legacy 8259 interrupt controllers, which rewind does not use:
 * they are remapped away from the exception vectors and fully masked, so
 * that only the local APIC and IOAPIC deliver interrupts.
 */
#ifndef REWIND_PIC_H
#define REWIND_PIC_H

void pic_disable(void);

#endif
