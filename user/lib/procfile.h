/*
 * procfile.h - reading the small text files of /proc (and knob files).
 *
 * /proc files are made on the fly and have no useful size in stat, so they
 * are read whole into a caller's buffer. Many of them (meminfo, status) are
 * "Key:   value" lines (or "Key<tabs>: value", as in cpuinfo); field lookups
 * find one key's value.
 */
#ifndef USER_PROCFILE_H
#define USER_PROCFILE_H

#include <stddef.h>
#include <sys/types.h>

/* Reads at most size-1 bytes of path, NUL-terminates; -1 with errno on error. */
ssize_t read_text_file(const char *path, char *buf, size_t size);

/* The text after "key:" and blanks on the line starting with key, or NULL. */
const char *find_field(const char *text, const char *key);

/* The leading number of key's value; 0 if it was there, -1 if not. */
int field_ull(const char *text, const char *key, unsigned long long *value);

/* Copies key's value up to the end of its line; 0 if it was there, -1 if not. */
int field_str(const char *text, const char *key, char *out, size_t size);

/* A rewind knob's current value: the first line of /proc/sys/rewind/NAME; 0, or -1 with errno (no such knob, or not rewind). */
int knob_read(const char *name, char *value, size_t size);
/* Writes a knob's value; 0, or -1 with errno (EINVAL: the kernel refused the value and kept the old). */
int knob_write(const char *name, const char *value);

/* rewind's /proc/lockstat: starts the counts again (0, or -1 with errno: not rewind). */
int proc_lockstat_reset(void);
/* The acquisitions of lock class cls since the reset (none without a row); 0, or -1 (not rewind). */
int proc_lockstat_acquisitions(const char *cls, unsigned long long *out);

/* A "site count" line's count in /proc/kmemdebug_sites or /proc/page_sites text; 0 when site is absent. */
unsigned long site_count(const char *text, const char *site);

/* Calls fn(pid, arg) for every process the proc mount at proc_dir lists, but init and the caller. */
void for_each_pid(const char *proc_dir, void (*fn)(long pid, void *arg), void *arg);

/*
 * The row of /proc/interrupts named name ("LOC", "RES"), in Linux's x86
 * layout (a header of CPUn columns, then "NAME:  count count ...  label"):
 * per_cpu[n] gets the count of the column headed CPUn for n < max_cpus (-1
 * where no column is CPUn's), label (if not NULL) the text after the
 * counts. The number of CPU columns, or -1 (no file, no such row, a row
 * with fewer counts than columns).
 */
int interrupt_row(const char *name, long long *per_cpu, int max_cpus, char *label,
		  size_t label_size);

/* Drops trailing newlines and blanks in place. */
void chomp(char *s);

#endif
