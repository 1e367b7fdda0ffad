/*
 * sysinfo.h - what sysinfo(2) writes, Linux x86-64's struct sysinfo
 * (linux/sysinfo.h), as struct kernel_sysinfo so that it can sit next to
 * libc's <sys/sysinfo.h>.
 */
#ifndef REWIND_UAPI_SYSINFO_H
#define REWIND_UAPI_SYSINFO_H

#define SI_LOAD_SHIFT 16 /* bits of fraction in loads[] */

struct kernel_sysinfo {
	long uptime;		/* seconds since boot */
	unsigned long loads[3]; /* 1, 5 and 15 minute load averages, SI_LOAD_SHIFT fixed point */
	unsigned long totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	unsigned short procs, pad;
	unsigned long totalhigh, freehigh;
	unsigned int mem_unit; /* the unit of the sizes above, in bytes */
	char _f[4];
};

#endif
