/*
 * knob_cmd.h - the shell's `knob [NAME [VALUE]]` builtin (knob_cmd.c).
 */
#ifndef USER_KNOB_CMD_H
#define USER_KNOB_CMD_H

/* knob: list all; knob NAME: show one; knob NAME VALUE: set it. Returns a status. */
int knob_command(int argc, char **argv);

#endif
