/*
 * profiler.c - the sampling profiler (profile=, rewind's own knob) while
 * user code faults and calls into the kernel with a frame of its own in
 * rbp. The profiler's NMI lands on the entry and exit paths too, where rbp
 * still holds that user address; its stack walk once read the frame there,
 * took a page fault inside the NMI and crashed the kernel
 * (docs/profiler.md, "Faults in the NMI"). Skipped on Linux, which has no
 * such knob.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/procfile.h"
#include "usertests.h"

#define PROFILE_KNOB   "/proc/sys/rewind/profile"
#define FAULT_SECONDS  1
#define PAGES_PER_TURN 16

static void
write_knob(const char *text)
{
	int fd = CHECK_OK(open(PROFILE_KNOB, O_WRONLY));

	CHECK_EQ(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* Maps, touches and unmaps fresh pages for a while, rbp its own frame throughout. */
static __attribute__((noinline, optimize("no-omit-frame-pointer"))) unsigned long
fault_for_a_while(void)
{
	long long end = mono_ns() + FAULT_SECONDS * 1000000000ll;
	unsigned long touched = 0;

	while (mono_ns() < end) {
		volatile char *p = map_anon(PAGES_PER_TURN * PAGE, PROT_READ | PROT_WRITE);
		for (int i = 0; i < PAGES_PER_TURN; i++)
			p[i * PAGE] = 1;
		CHECK_OK(munmap((void *)p, PAGES_PER_TURN * PAGE));
		touched += PAGES_PER_TURN;
	}
	return touched;
}

TEST(profiler_samples_user_faults_and_the_kernel_lives)
{
	char before[256], profile[64];

	if (!on_rewind())
		skip("rewind's own profiler");
	if (geteuid() != 0)
		skip("needs root");
	CHECK(read_text_file(PROFILE_KNOB, before, sizeof(before)) > 0);
	before[strcspn(before, "\n")] = '\0'; /* the value; comments follow */
	write_knob("997");
	unsigned long touched = fault_for_a_while();
	write_knob(before);
	CHECK(touched > 0);
	CHECK(read_text_file("/proc/profile", profile, sizeof(profile)) > 0);
	CHECK_EQ(strncmp(profile, "# rewind profile v2", 19), 0);
}
