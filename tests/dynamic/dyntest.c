/*
 * dyntest.c - a dynamically linked program built with the host's gcc
 * against glibc, run by tools/dynamic-check on rewind (and runnable on
 * Linux): it checks what execve and ld.so gave it - the interpreter at a
 * base of its own, the auxiliary vector agreeing with the loaded program,
 * a second shared library (libm), thread-local storage in threads, and
 * file-backed private mappings that copy on write and never reach the
 * file. Prints one line per failed check and "dyntest: N checks passed";
 * the exit status is the number of failures.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

static int passed, failed;

static void
check(int ok, const char *what)
{
	if (ok) {
		passed++;
	} else {
		failed++;
		printf("dyntest: FAIL %s\n", what);
	}
}

static int
is_elf_header(unsigned long addr)
{
	return addr && memcmp((const void *)addr, ELFMAG, SELFMAG) == 0;
}

/* The first object dl_iterate_phdr reports is the program itself. */
static int
first_object(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	*(struct dl_phdr_info *)data = *info;
	return 1;
}

static void
check_auxv(const char *argv0)
{
	struct dl_phdr_info prog;
	extern char _start[];
	const char *execfn = (const char *)getauxval(AT_EXECFN);

	dl_iterate_phdr(first_object, &prog);
	check(is_elf_header(getauxval(AT_BASE)), "AT_BASE is the interpreter's ELF header");
	check(getauxval(AT_PHDR) == (unsigned long)prog.dlpi_phdr, "AT_PHDR is the program's");
	check(getauxval(AT_PHNUM) == prog.dlpi_phnum, "AT_PHNUM");
	check(getauxval(AT_PHENT) == sizeof(ElfW(Phdr)), "AT_PHENT");
	check(getauxval(AT_ENTRY) == (unsigned long)_start, "AT_ENTRY is _start");
	check(getauxval(AT_PAGESZ) == 4096, "AT_PAGESZ");
	check(getauxval(AT_SECURE) == 0, "AT_SECURE");
	check(getauxval(AT_RANDOM) != 0, "AT_RANDOM");
	check(is_elf_header(getauxval(AT_SYSINFO_EHDR)), "AT_SYSINFO_EHDR is the vDSO");
	check(execfn && strcmp(execfn, argv0) == 0, "AT_EXECFN is the path execve ran");
	check(getauxval(AT_MINSIGSTKSZ) % 16 == 0, "AT_MINSIGSTKSZ, if any, a multiple of 16");
	check(getauxval(AT_BASE) != (unsigned long)prog.dlpi_addr,
	      "interpreter apart from program");
}

static void
check_libraries(void)
{
	volatile double zero = 0.0;
	void *libm = dlopen("libm.so.6", RTLD_NOW | RTLD_NOLOAD);

	check(cos(zero) == 1.0, "cos() from libm");
	check(libm != NULL, "libm is loaded");
	check(dlopen("libdoes-not-exist.so", RTLD_NOW) == NULL,
	      "dlopen of a missing library fails");
	if (libm)
		dlclose(libm);
}

static __thread long per_thread = 7;

static void *
thread_main(void *arg)
{
	per_thread = (long)arg;
	return (void *)(per_thread * 2);
}

static void
check_threads(void)
{
	pthread_t t[4];
	void *ret;
	int ok = 1;

	for (long i = 0; i < 4; i++)
		ok &= pthread_create(&t[i], NULL, thread_main, (void *)(i + 100)) == 0;
	for (long i = 0; i < 4; i++)
		ok &= pthread_join(t[i], &ret) == 0 && (long)ret == 2 * (i + 100);
	check(ok, "threads with their own thread-local variable");
	check(per_thread == 7, "the main thread's thread-local variable untouched");
}

/* A private mapping of a file: writes copy the page, the file keeps its bytes. */
static void
check_private_file_mapping(void)
{
	char path[] = "/tmp/dyntest-XXXXXX", buf[8];
	int fd = mkstemp(path);

	check(fd >= 0 && write(fd, "original", 8) == 8, "a scratch file");
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	check(p != MAP_FAILED && memcmp(p, "original", 8) == 0, "the mapping shows the file");
	if (p != MAP_FAILED) {
		memcpy(p, "modified", 8);
		check(pread(fd, buf, 8, 0) == 8 && memcmp(buf, "original", 8) == 0,
		      "the file keeps its bytes after a private write");
		check(memcmp(p, "modified", 8) == 0, "the mapping keeps the write");
		check(mprotect(p, 4096, PROT_READ) == 0, "mprotect of the copied page");
		munmap(p, 4096);
	}
	close(fd);
	unlink(path);
}

int
main(int argc, char **argv)
{
	(void)argc;
	check_auxv(argv[0]);
	check_libraries();
	check_threads();
	check_private_file_mapping();
	printf("dyntest: %d checks passed\n", passed);
	return failed;
}
