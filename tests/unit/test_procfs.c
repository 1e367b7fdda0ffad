/*
 * test_procfs.c - host tests for the text of the /proc files
 * (fs/proc/text.c): the /proc/sys/rewind knob files and the trimming of
 * written values, the CPUID flag names and the rest of a /proc/cpuinfo
 * block, /proc/meminfo, /proc/uptime, and /proc/<pid>/status and stat.
 * The expected texts are Linux's formats, byte for byte.
 *
 * The test's own knobs, with knobs.c's `help`, are the whole `knobs`
 * section here, as in test_knobs.c.
 */
/* vsprintf.c (through unit.h) and knobs.c each have a static parse_int. */
#define parse_int vsprintf_parse_int
#include "kernel/lib/types.h"
#include "tests/unit/unit.h"
#undef parse_int
#include "kernel/lib/cmdline.c"
#include "kernel/knobs.c"
#include "fs/proc/text.c"

KNOB_INT(t_hz, "t_hz", 1000, 100, 10000, true, "a test rate");
KNOB_ENUM(t_mode, "t_mode", 1, true, "a test enumeration", "legacy", "trap", "none");
KNOB_BOOL(t_flag, "t_flag", 0, false, "a boot-only test flag");
KNOB_STRING(t_text, "t_text", 16, "hello", "a test text");

static char text[4096];

/* The text of one formatter call, checked to have fit (empty if it wrote nothing). */
#define FORMAT(call_with_b)                                             \
	({                                                              \
		struct procbuf b = { .p = text, .size = sizeof(text) }; \
		text[0] = '\0';                                         \
		call_with_b;                                            \
		CHECK(procbuf_fits(&b));                                \
		CHECK_EQ(b.len, strlen(text));                          \
		text;                                                   \
	})

/* ---- /proc/sys/rewind/<knob> --------------------------------------------- */

/* Tests run in any order: each knob test starts from the defaults. */
static void
reset_knobs(void)
{
	for_each_knob(k)
		if (k->type != KNOB_STRING)
			*k->value = k->def;
}

UNIT_TEST(knob_file_shows_current_value_then_valid_and_default)
{
	reset_knobs();
	CHECK_STR(
		FORMAT(procfs_format_knob(&b, knob_find("t_hz"))),
		"1000\n# valid: 100..10000\n# default: 1000\n# type: int\n# declared in: tests/unit/test_procfs.c\n");
	CHECK_EQ(knob_set(knob_find("t_hz"), "250"), 0);
	CHECK_STR(
		FORMAT(procfs_format_knob(&b, knob_find("t_hz"))),
		"250\n# valid: 100..10000\n# default: 1000\n# type: int\n# declared in: tests/unit/test_procfs.c\n");
}

UNIT_TEST(knob_file_of_an_enum_shows_names)
{
	reset_knobs();
	CHECK_STR(
		FORMAT(procfs_format_knob(&b, knob_find("t_mode"))),
		"trap\n# valid: legacy|trap|none\n# default: trap\n# type: enum\n# declared in: tests/unit/test_procfs.c\n");
	CHECK_EQ(knob_set(knob_find("t_mode"), "none"), 0);
	CHECK_STR(
		FORMAT(procfs_format_knob(&b, knob_find("t_mode"))),
		"none\n# valid: legacy|trap|none\n# default: trap\n# type: enum\n# declared in: tests/unit/test_procfs.c\n");
	CHECK_EQ(knob_set(knob_find("t_mode"), "bogus"), -EINVAL);
	CHECK_STR(
		FORMAT(procfs_format_knob(&b, knob_find("t_mode"))),
		"none\n# valid: legacy|trap|none\n# default: trap\n# type: enum\n# declared in: tests/unit/test_procfs.c\n");
}

UNIT_TEST(knob_file_of_a_flag_and_of_text)
{
	reset_knobs();
	CHECK_STR(
		FORMAT(procfs_format_knob(&b, knob_find("t_flag"))),
		"0\n# valid: 0|1\n# default: 0\n# type: bool\n# declared in: tests/unit/test_procfs.c\n");
	/* Text: the first line is the value itself, without the quotes `help` shows. */
	CHECK_STR(
		FORMAT(procfs_format_knob(&b, knob_find("t_text"))),
		"hello\n# valid: text of at most 15 characters\n# default: \"hello\"\n# type: text\n# declared in: tests/unit/test_procfs.c\n");
}

UNIT_TEST(small_buffer_counts_the_whole_text_for_the_retry)
{
	char small[8];
	struct procbuf b = { .p = small, .size = sizeof(small) };
	const char *want =
		"legacy\n# valid: legacy|trap|none\n# default: trap\n# type: enum\n# declared in: tests/unit/test_procfs.c\n";

	reset_knobs();
	CHECK_EQ(knob_set(knob_find("t_mode"), "legacy"), 0);
	procfs_format_knob(&b, knob_find("t_mode"));
	CHECK(!procbuf_fits(&b));
	CHECK_EQ(b.len, strlen(want));
	CHECK_STR(small, "legacy\n"); /* truncated, still terminated */

	char *big = malloc(b.len + 1);
	struct procbuf again = { .p = big, .size = b.len + 1 };
	procfs_format_knob(&again, knob_find("t_mode"));
	CHECK(procbuf_fits(&again));
	CHECK_STR(big, want);
	free(big);
}

UNIT_TEST(written_values_lose_surrounding_blanks)
{
	char a[] = "  trap \n", b[] = "\n", c[] = "", d[] = "\tlegacy none\r\n";

	CHECK_STR(procfs_trim(a), "trap");
	CHECK_STR(procfs_trim(b), "");
	CHECK_STR(procfs_trim(c), "");
	CHECK_STR(procfs_trim(d), "legacy none"); /* inner blanks stay: knob_set rejects them */
}

/* ---- /proc/cpuinfo ------------------------------------------------------- */

static void
set_bit_in(u32 words[CPU_NWORDS], enum cpu_flag_word w, unsigned bit)
{
	words[w] |= 1u << bit;
}

UNIT_TEST(cpu_flags_have_linux_names_in_linux_order)
{
	u32 w[CPU_NWORDS] = { 0 };

	set_bit_in(w, CPU_WORD_7_EBX, 9);   /* erms */
	set_bit_in(w, CPU_WORD_7_EBX, 7);   /* smep */
	set_bit_in(w, CPU_WORD_7_EBX, 20);  /* smap */
	set_bit_in(w, CPU_WORD_7_EBX, 0);   /* fsgsbase */
	set_bit_in(w, CPU_WORD_X1_ECX, 0);  /* lahf_lm */
	set_bit_in(w, CPU_WORD_1_ECX, 31);  /* hypervisor */
	set_bit_in(w, CPU_WORD_1_ECX, 30);  /* rdrand */
	set_bit_in(w, CPU_WORD_1_ECX, 27);  /* osxsave: Linux does not print it */
	set_bit_in(w, CPU_WORD_1_ECX, 23);  /* popcnt */
	set_bit_in(w, CPU_WORD_1_ECX, 21);  /* x2apic */
	set_bit_in(w, CPU_WORD_1_ECX, 20);  /* sse4_2 */
	set_bit_in(w, CPU_WORD_1_ECX, 19);  /* sse4_1 */
	set_bit_in(w, CPU_WORD_1_ECX, 9);   /* ssse3 */
	set_bit_in(w, CPU_WORD_1_ECX, 0);   /* pni */
	set_bit_in(w, CPU_WORD_X1_EDX, 29); /* lm */
	set_bit_in(w, CPU_WORD_X1_EDX, 27); /* rdtscp */
	set_bit_in(w, CPU_WORD_X1_EDX, 26); /* pdpe1gb */
	set_bit_in(w, CPU_WORD_X1_EDX, 20); /* nx */
	set_bit_in(w, CPU_WORD_X1_EDX, 11); /* syscall */
	set_bit_in(w, CPU_WORD_X1_EDX, 0);  /* AMD's copy of fpu: unnamed */
	set_bit_in(w, CPU_WORD_1_EDX, 26);  /* sse2 */
	set_bit_in(w, CPU_WORD_1_EDX, 25);  /* sse */
	set_bit_in(w, CPU_WORD_1_EDX, 10);  /* reserved */
	set_bit_in(w, CPU_WORD_1_EDX, 9);   /* apic */
	set_bit_in(w, CPU_WORD_1_EDX, 6);   /* pae */
	set_bit_in(w, CPU_WORD_1_EDX, 5);   /* msr */
	set_bit_in(w, CPU_WORD_1_EDX, 4);   /* tsc */
	set_bit_in(w, CPU_WORD_1_EDX, 0);   /* fpu */
	CHECK_STR(FORMAT(procfs_format_cpu_flags(&b, w)),
		  " fpu tsc msr pae apic sse sse2 syscall nx pdpe1gb rdtscp lm pni ssse3 sse4_1"
		  " sse4_2 x2apic popcnt rdrand hypervisor lahf_lm fsgsbase smep erms smap");
}

UNIT_TEST(cpu_flags_of_no_bits_is_empty)
{
	u32 w[CPU_NWORDS] = { 0 };

	CHECK_STR(FORMAT(procfs_format_cpu_flags(&b, w)), "");
}

static struct cpu_identity
fake_cpu(const char *vendor, const char *name, u32 signature)
{
	struct cpu_identity id = { .max_leaf = 13,
				   .signature = signature,
				   .clflush_size = 64,
				   .phys_bits = 40,
				   .virt_bits = 48 };

	snprintf(id.vendor, sizeof(id.vendor), "%s", vendor);
	snprintf(id.model_name, sizeof(id.model_name), "%s", name);
	id.words[CPU_WORD_1_EDX] = 1u << 0 | 1u << 4; /* fpu tsc */
	id.words[CPU_WORD_X1_EDX] = 1u << 29;	      /* lm */
	return id;
}

UNIT_TEST(cpuinfo_block_is_linux_shaped)
{
	struct cpu_identity id =
		fake_cpu("GenuineIntel", "       Intel(R) Fake CPU @ 2.40GHz", 0x000506e3);

	CHECK_STR(FORMAT(procfs_format_cpu(&b, &id, 1, 2, 2400123456ul)),
		  "processor\t: 1\n"
		  "vendor_id\t: GenuineIntel\n"
		  "cpu family\t: 6\n"
		  "model\t\t: 94\n"
		  "model name\t: Intel(R) Fake CPU @ 2.40GHz\n"
		  "stepping\t: 3\n"
		  "cpu MHz\t\t: 2400.123\n"
		  "apicid\t\t: 2\n"
		  "fpu\t\t: yes\n"
		  "fpu_exception\t: yes\n"
		  "cpuid level\t: 13\n"
		  "wp\t\t: yes\n"
		  "flags\t\t: fpu tsc lm\n"
		  "clflush size\t: 64\n"
		  "cache_alignment\t: 64\n"
		  "address sizes\t: 40 bits physical, 48 bits virtual\n"
		  "power management:\n"
		  "\n");
}

UNIT_TEST(cpuinfo_folds_extended_family_and_model)
{
	/* AMD Zen 2: base family 0xf + extended 0x08 = 23; model 0x1 + (0x3 << 4) = 49. */
	struct cpu_identity id = fake_cpu("AuthenticAMD", "AMD EPYC", 0x00830f10);

	CHECK(strstr(FORMAT(procfs_format_cpu(&b, &id, 0, 0, 0)),
		     "cpu family\t: 23\nmodel\t\t: 49\nmodel name\t: AMD EPYC\nstepping\t: 0\n"));
	/* No TSC rate: no cpu MHz line, as Linux without a TSC. */
	CHECK(!strstr(text, "cpu MHz"));
	/* Family 5 keeps its base model: the extended model counts from family 6 on. */
	id.signature = 0x000f0543;
	CHECK(strstr(FORMAT(procfs_format_cpu(&b, &id, 0, 0, 0)),
		     "cpu family\t: 5\nmodel\t\t: 4\n"));
}

UNIT_TEST(cpuinfo_without_brand_string_says_unknown)
{
	struct cpu_identity id = fake_cpu("", "", 0x00000663);

	CHECK(strstr(
		FORMAT(procfs_format_cpu(&b, &id, 0, 0, 0)),
		"vendor_id\t: unknown\ncpu family\t: 6\nmodel\t\t: 6\nmodel name\t: unknown\n"));
}

/* ---- /proc/meminfo and /proc/uptime --------------------------------------- */

UNIT_TEST(meminfo_lines_are_padded_as_linux)
{
	struct procfs_meminfo m = { .total_kb = 500000,
				    .free_kb = 123456,
				    .available_kb = 123456,
				    .cached_kb = 0,
				    .slab_kb = 12345678,
				    .page_tables_kb = 44 };

	CHECK_STR(FORMAT(procfs_format_meminfo(&b, &m)),
		  "MemTotal:         500000 kB\n"
		  "MemFree:          123456 kB\n"
		  "MemAvailable:     123456 kB\n"
		  "Buffers:               0 kB\n"
		  "Cached:                0 kB\n"
		  "SwapCached:            0 kB\n"
		  "SwapTotal:             0 kB\n"
		  "SwapFree:              0 kB\n"
		  "Slab:           12345678 kB\n"
		  "SReclaimable:          0 kB\n"
		  "SUnreclaim:     12345678 kB\n"
		  "PageTables:           44 kB\n");
}

UNIT_TEST(uptime_has_two_truncated_decimals)
{
	CHECK_STR(FORMAT(procfs_format_uptime(&b, 12345678901ul, 3999999999ul)), "12.34 3.99\n");
	CHECK_STR(FORMAT(procfs_format_uptime(&b, 5000000, 0)), "0.00 0.00\n");
	CHECK_STR(FORMAT(procfs_format_uptime(&b, 100070000000ul, 60000000ul)), "100.07 0.06\n");
}

/* ---- /proc/<pid>/status and stat ----------------------------------------- */

static struct procfs_task
fake_task(void)
{
	struct procfs_task t = {
		.pid = 42,
		.tgid = 42,
		.ppid = 1,
		.pgrp = 40,
		.session = 39,
		.tty_nr = 0x8801,
		.tpgid = 40,
		.state = 'S',
		.utime_ns = 1234567890,
		.stime_ns = 20000000,
		.cutime_ns = 5000000000ul,
		.cstime_ns = 9999999,
		.start_ns = 3210000000ul,
		.minflt = 77,
		.cminflt = 88,
		.cpu = 1,
		.exit_signal = 17,
		.threads = 3,
		.sig_pending = 1ul << 9,
		.sig_blocked = (1ul << 1) | (1ul << 40),
		.has_mm = true,
		.vm = {
			.total_pages = 1000,
			.rss_anon = 100,
			.rss_file = 180,
			.rss_shmem = 20,
			.data_pages = 50,
			.stack_pages = 33,
			.exec_pages = 12,
			.pgtable_pages = 3,
			.start_code = 0x401000,
			.end_code = 0x409800, /* 8.5 pages: 9 pages of text */
			.start_stack = 0x7ffffffde000,
			.arg_start = 0x7fffffffe000,
			.arg_end = 0x7fffffffe010,
			.env_start = 0x7fffffffe010,
			.env_end = 0x7fffffffe100,
		},
	};

	snprintf(t.comm, sizeof(t.comm), "%s", "my prog");
	return t;
}

UNIT_TEST(status_of_a_process_has_the_vm_lines_in_kb)
{
	struct procfs_task t = fake_task();

	t.uids[0] = 1000, t.uids[1] = 0, t.uids[2] = 1001, t.uids[3] = 0;
	t.gids[0] = 65534, t.gids[1] = 100, t.gids[2] = 65534, t.gids[3] = 100;
	t.caps = (struct cap_sets){ .effective = 0x1ffffffffff,
				    .permitted = 0x1ffffffffff,
				    .bounding = 0x1ffffffffff,
				    .ambient = 0x20 };
	CHECK_STR(
		FORMAT(procfs_format_status(&b, &t)),
		"Name:\tmy prog\nState:\tS (sleeping)\nTgid:\t42\nPid:\t42\nPPid:\t1\n"
		"TracerPid:\t0\nUid:\t1000\t0\t1001\t0\nGid:\t65534\t100\t65534\t100\nGroups:\t \n"
		"VmSize:\t    4000 kB\nVmLck:\t       0 kB\nVmRSS:\t    1200 kB\nRssAnon:\t     400 kB\n"
		"RssFile:\t     720 kB\nRssShmem:\t      80 kB\nVmData:\t     200 kB\n"
		"VmStk:\t     132 kB\nVmExe:\t      36 kB\nVmLib:\t      12 kB\n"
		"VmPTE:\t      12 kB\nVmSwap:\t       0 kB\nThreads:\t3\n"
		"SigPnd:\t0000000000000200\nShdPnd:\t0000000000000000\n"
		"SigBlk:\t0000010000000002\nSigIgn:\t0000000000000000\n"
		"SigCgt:\t0000000000000000\nCapInh:\t0000000000000000\n"
		"CapPrm:\t000001ffffffffff\nCapEff:\t000001ffffffffff\n"
		"CapBnd:\t000001ffffffffff\nCapAmb:\t0000000000000020\n");
}

UNIT_TEST(status_of_a_zombie_leaves_the_vm_lines_out)
{
	struct procfs_task t = fake_task();

	t.has_mm = false;
	t.state = 'Z';
	const char *status = FORMAT(procfs_format_status(&b, &t));
	CHECK(strstr(status, "State:\tZ (zombie)\n"));
	CHECK(!strstr(status, "Vm"));
	CHECK(strstr(status, "Gid:\t0\t0\t0\t0\nGroups:\t \nThreads:\t3\n"));
	t.state = 'R';
	CHECK(strstr(FORMAT(procfs_format_status(&b, &t)), "State:\tR (running)\n"));
}

UNIT_TEST(statm_counts_pages_as_linux)
{
	struct procfs_task t = fake_task();

	/* size resident shared(file+shmem) text lib data(+stack) dt */
	CHECK_STR(FORMAT(procfs_format_statm(&b, &t)), "1000 300 200 9 0 83 0\n");
	t.has_mm = false;
	CHECK_STR(FORMAT(procfs_format_statm(&b, &t)), "0 0 0 0 0 0 0\n");
}

/* Field n (1-based) of a stat line, as procps splits it: after the last ')'. */
static const char *
stat_field(const char *line, int n, char *out, size_t size)
{
	const char *p = strrchr(line, ')') + 2;

	for (int i = 3; i < n; i++)
		p = strchr(p, ' ') + 1;
	size_t len = strcspn(p, " \n");
	snprintf(out, size, "%.*s", (int)len, p);
	return out;
}

UNIT_TEST(stat_line_has_52_fields_with_times_in_ticks)
{
	struct procfs_task t = fake_task();
	char f[32];
	const char *line = FORMAT(procfs_format_stat(&b, &t));
	int spaces = 0;

	CHECK(strncmp(line, "42 (my prog) S 1 ", 17) == 0);
	for (const char *p = strrchr(line, ')') + 1; *p; p++)
		spaces += *p == ' ';
	CHECK_EQ(spaces, 52 - 2); /* fields 3..52, each after a space */
	CHECK_EQ(line[strlen(line) - 1], '\n');
	CHECK_STR(stat_field(line, 3, f, sizeof(f)), "S");
	CHECK_STR(stat_field(line, 4, f, sizeof(f)), "1");
	CHECK_STR(stat_field(line, 5, f, sizeof(f)), "40");
	CHECK_STR(stat_field(line, 6, f, sizeof(f)), "39");
	CHECK_STR(stat_field(line, 7, f, sizeof(f)), "34817");
	CHECK_STR(stat_field(line, 8, f, sizeof(f)), "40");
	CHECK_STR(stat_field(line, 10, f, sizeof(f)), "77");
	CHECK_STR(stat_field(line, 11, f, sizeof(f)), "88");
	CHECK_STR(stat_field(line, 14, f, sizeof(f)), "123"); /* 1.23 s at USER_HZ 100 */
	CHECK_STR(stat_field(line, 15, f, sizeof(f)), "2");
	CHECK_STR(stat_field(line, 16, f, sizeof(f)), "500");
	CHECK_STR(stat_field(line, 17, f, sizeof(f)), "0");
	CHECK_STR(stat_field(line, 18, f, sizeof(f)), "20");
	CHECK_STR(stat_field(line, 20, f, sizeof(f)), "3");
	CHECK_STR(stat_field(line, 22, f, sizeof(f)), "321");
	CHECK_STR(stat_field(line, 23, f, sizeof(f)), "4096000");
	CHECK_STR(stat_field(line, 24, f, sizeof(f)), "300");
	CHECK_STR(stat_field(line, 25, f, sizeof(f)), "18446744073709551615");
	CHECK_STR(stat_field(line, 26, f, sizeof(f)), "4198400");
	CHECK_STR(stat_field(line, 28, f, sizeof(f)), "140737488216064");
	CHECK_STR(stat_field(line, 31, f, sizeof(f)), "512");
	CHECK_STR(stat_field(line, 32, f, sizeof(f)), "2"); /* signal 41 is not in the old mask */
	CHECK_STR(stat_field(line, 35, f, sizeof(f)), "1"); /* sleeping: it waits somewhere */
	CHECK_STR(stat_field(line, 38, f, sizeof(f)), "17");
	CHECK_STR(stat_field(line, 39, f, sizeof(f)), "1");
	CHECK_STR(stat_field(line, 48, f, sizeof(f)), "140737488347136");
	CHECK_STR(stat_field(line, 51, f, sizeof(f)), "140737488347392");
	CHECK_STR(stat_field(line, 52, f, sizeof(f)), "0");
}

UNIT_TEST(stat_line_of_a_zombie_has_its_exit_code_and_no_rss)
{
	struct procfs_task t = fake_task();
	char f[32];

	t.state = 'Z';
	t.has_mm = false;
	t.exit_code = 3 << 8;
	const char *line = FORMAT(procfs_format_stat(&b, &t));
	CHECK_STR(stat_field(line, 3, f, sizeof(f)), "Z");
	CHECK_STR(stat_field(line, 23, f, sizeof(f)), "0");
	CHECK_STR(stat_field(line, 24, f, sizeof(f)), "0");
	CHECK_STR(stat_field(line, 48, f, sizeof(f)), "0");
	CHECK_STR(stat_field(line, 52, f, sizeof(f)), "768");
}

/* ---- /proc/stat and /proc/loadavg ------------------------------------------ */

UNIT_TEST(stat_cpu_lines_are_in_clock_ticks)
{
	CHECK_STR(FORMAT(procfs_format_stat_cpu(&b, "cpu", 1500000000ul, 209999999ul, 3000000000ul,
						0)),
		  "cpu  150 0 20 300 0 0 0 0 0 0\n");
	CHECK_STR(FORMAT(procfs_format_stat_cpu(&b, "cpu1", 0, 10000000ul, 0, 0)),
		  "cpu1 0 0 1 0 0 0 0 0 0 0\n");
	/* steal is the 8th column */
	CHECK_STR(FORMAT(procfs_format_stat_cpu(&b, "cpu0", 10000000ul, 0, 0, 70000000ul)),
		  "cpu0 1 0 0 0 0 0 0 7 0 0\n");
}

UNIT_TEST(stat_counters_follow_the_cpu_lines)
{
	struct procfs_stat_counts c = { .interrupts = 5000,
					.switches = 777,
					.boot_time_s = 1764806400,
					.forks = 42,
					.running = 2,
					.blocked = 0 };

	CHECK_STR(FORMAT(procfs_format_stat_counts(&b, &c)),
		  "intr 5000\nctxt 777\nbtime 1764806400\nprocesses 42\nprocs_running 2\n"
		  "procs_blocked 0\n");
}

/* Linux's figures: one sample of one active task from rest is 164/2048 (0.08). */
UNIT_TEST(calc_load_decays_exponentially_and_reaches_a_constant_load)
{
	u64 load = 0;

	CHECK_EQ(calc_load(0, EXP_1, FIXED_1), 164ul);
	CHECK_EQ(calc_load(FIXED_1, EXP_1, 0), 1884ul);
	CHECK_EQ(calc_load(0, EXP_1, 0), 0ul);
	for (int i = 0; i < 200; i++)
		load = calc_load(load, EXP_1, 2 * FIXED_1);
	CHECK_EQ(load, 2 * FIXED_1); /* rounded up while rising: reached, not approached */
	for (int i = 0; i < 12; i++) /* one minute idle: down to about 1/e */
		load = calc_load(load, EXP_1, 0);
	CHECK(load > 2 * FIXED_1 * 35 / 100 && load < 2 * FIXED_1 * 38 / 100);
}

UNIT_TEST(loadavg_line_rounds_to_hundredths)
{
	u64 avg[3] = { FIXED_1, FIXED_1 / 2, 10 };

	CHECK_STR(FORMAT(procfs_format_loadavg(&b, avg, 2, 57, 1234)),
		  "1.00 0.50 0.00 2/57 1234\n");
	avg[0] = 3 * FIXED_1 + FIXED_1 * 999 / 1000; /* 3.999 rounds up to 4.00 */
	CHECK(strncmp(FORMAT(procfs_format_loadavg(&b, avg, 1, 1, 1)), "4.00 ", 5) == 0);
}
