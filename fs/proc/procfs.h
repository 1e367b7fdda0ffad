/*
 * procfs.h - the /proc file system: machine-wide files (meminfo, cpuinfo,
 * uptime, cmdline), one directory per process, and /proc/sys/rewind/<knob>
 * for reading and changing every knob at run time (docs/design.md, "Knobs,
 * not forks").
 */
#ifndef REWIND_PROCFS_H
#define REWIND_PROCFS_H

/* Mounts procfs on /proc and sysfs on /sys; called once at boot, after vfs_init(). */
void procfs_init(void);

#endif
