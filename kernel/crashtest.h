/*
 * crashtest.h - deliberate crashes for testing the fault report; see crashtest.c.
 */
#ifndef REWIND_CRASHTEST_H
#define REWIND_CRASHTEST_H

/* Crashes as the `crashtest` knob says; returns only when it says none. */
void crashtest_run(void);

#endif
