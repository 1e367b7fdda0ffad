/*
 * exec.c - execve: load an ELF executable (and its program interpreter,
 * when it names one) into a fresh address space and start it with the
 * Linux initial stack.
 *
 * Steps, in an order that keeps failure cheap: copy the arguments out of
 * the old program, open and validate the file and its interpreter (any
 * error so far returns to the old program), build the new address space -
 * file-backed private mappings for the segments (so they come through the
 * page cache), zeroed memory for bss, an 8 MiB stack, the vDSO, the
 * interpreter where mmap would put it - then end the process's other
 * threads (exec_single_thread: the new program runs alone, with the
 * process's pid) and switch to it (the point of no return), write the
 * initial stack and reset the registers. While its segments are mapped, the
 * file cannot be written (VM_DENYWRITE, fs/write_access.c: ETXTBSY).
 *
 * A dynamically linked program (PT_INTERP) starts in its interpreter,
 * glibc's ld.so, which finds the program through the auxiliary vector
 * (AT_PHDR, AT_ENTRY), itself through AT_BASE, and maps the libraries with
 * mmap as any program would. The interpreter is validated as Linux does:
 * missing is ENOENT, not executable EACCES, not an x86-64 ELF ELIBBAD.
 *
 * The initial stack, from the top (System V x86-64 psABI §3.4.1):
 *   strings (argv, envp, "x86_64", the file name), 16 random bytes,
 *   padding to 16, the auxiliary vector (AT_NULL last), NULL, envp[],
 *   NULL, argv[], argc  <- rsp
 */
#include "kernel/keys/keys.h"
#include "kernel/process/exec.h"
#include "kernel/process/exec_script.h"
#include "kernel/process/vfork.h"
#include "kernel/sched/futex.h"
#include "kernel/process/cred.h"
#include "kernel/process/rlimit.h"
#include "kernel/process/session.h"
#include "kernel/process/elf.h"
#include "uapi/errno.h"
#include "kernel/x86/debugreg.h"
#include "kernel/x86/fpu.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/process/process.h"
#include "uapi/ptrace.h"
#include "kernel/random.h"
#include "kernel/signal/signal.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"
#include "kernel/process/task.h"
#include "kernel/signal/signal.h"
#include "kernel/x86/traps.h"
#include "kernel/vdso/vdso.h"
#include "kernel/x86/x86.h"
#include "fs/fs.h"
#include "mm/kmalloc.h"
#include "mm/vmap.h"
#include "mm/page_alloc.h"
#include "mm/vm.h"
#include "uapi/auxvec.h"
#include "uapi/param.h"

#define ARG_MIN_BYTES  (32 * PAGE_SIZE) /* always allowed, whatever RLIMIT_STACK (Linux's ARG_MAX) */
#define MAX_ARG_STRLEN (32 * PAGE_SIZE) /* one string, its NUL included (Linux's) */
#define PIE_LOAD_BIAS  0x555555554000ul /* Linux's ELF_ET_DYN_BASE on x86-64 */

/* An ELF file to load: the program or its interpreter, and where it goes (bias). */
struct loaded_elf {
	struct file *file; /* NULL: none (a static program has no interpreter) */
	struct elf_image img;
	u64 bias;
	bool unreadable; /* the caller may execute it but not read it */
};

/* The strings of argv and envp, packed, plus their counts. */
struct exec_args {
	char *strings; /* argc + envc NUL-terminated strings, back to back */
	size_t bytes, capacity;
	int argc, envc;
};

/*
 * The most bytes of arguments and environment, strings and pointers, exec
 * takes: a quarter of RLIMIT_STACK, at most 6 MiB, at least ARG_MIN_BYTES
 * (Linux's bprm_stack_limits).
 */
static u64
arg_limit(void)
{
	return MAX(MIN(USER_STACK_SIZE / 4 * 3, rlimit(RLIMIT_STACK) / 4), ARG_MIN_BYTES);
}

/*
 * A buffer for the strings or their vector: up to ARG_MIN_BYTES from the
 * page allocator as ever, above it from single pages (vmalloc), since the
 * 6 MiB arg_limit allows is beyond the largest block (4 MiB) and a large
 * block may not be found in fragmented memory: a legal argument set must
 * not fail with ENOMEM where Linux, which copies them page by page, runs it.
 */
static void *
arg_buffer_alloc(size_t size)
{
	return size <= ARG_MIN_BYTES ? kmalloc(size) : vmalloc(size);
}

static void
arg_buffer_free(void *p, size_t size)
{
	if (size <= ARG_MIN_BYTES)
		kfree(p);
	else if (p)
		vfree(p, size);
}

/*
 * Room for more bytes of strings: the buffer starts at ARG_MIN_BYTES and
 * doubles, up to arg_limit. 0, -E2BIG when it is that big already, or
 * -ENOMEM.
 */
static int
args_reserve(struct exec_args *a, size_t more)
{
	size_t limit = (size_t)arg_limit();

	if (a->bytes + more <= a->capacity)
		return 0;
	if (a->capacity >= limit)
		return -E2BIG;
	size_t want = MIN(MAX(a->capacity * 2, a->bytes + more), limit);
	char *grown = arg_buffer_alloc(want);
	if (!grown)
		return -ENOMEM;
	memcpy(grown, a->strings, a->bytes);
	arg_buffer_free(a->strings, a->capacity);
	a->strings = grown;
	a->capacity = want;
	return 0;
}

static int
args_append(struct exec_args *a, const char *s, size_t len)
{
	int err = len + 1 > MAX_ARG_STRLEN ? -E2BIG : args_reserve(a, len + 1);

	if (err)
		return err;
	memcpy(a->strings + a->bytes, s, len + 1);
	a->bytes += len + 1;
	return 0;
}

/* Copies one user string to the end of the strings, growing them as needed: its length. */
static long
args_copy_user_string(struct exec_args *a, const char __user *s)
{
	for (;;) {
		size_t room = MIN(a->capacity - a->bytes, (size_t)MAX_ARG_STRLEN);
		long len = strncpy_from_user(a->strings + a->bytes, s, room);
		if (len != -ENAMETOOLONG)
			return len;
		if (room == MAX_ARG_STRLEN)
			return -E2BIG; /* longer than any one string may be */
		int err = args_reserve(a, MIN((size_t)MAX_ARG_STRLEN, 2 * room + PAGE_SIZE));
		if (err)
			return err;
	}
}

/* Appends a user vector (NULL-terminated array of string pointers); returns its count. */
static int
args_copy_user_vector(struct exec_args *a, const char *const __user *vec)
{
	int n = 0;

	for (; vec; n++) {
		u64 p;
		if (copy_from_user(&p, vec + n, sizeof(p)))
			return -EFAULT;
		if (!p)
			break;
		long len = args_copy_user_string(a, (const char __user *)p);
		if (len < 0)
			return (int)len;
		a->bytes += (size_t)len + 1;
		/* The pointers count too: a vector of empty strings ends here, not at INT_MAX. */
		if (a->bytes + sizeof(u64) * ((u64)a->argc + (u64)a->envc + (u64)n + 1) >
		    arg_limit())
			return -E2BIG;
	}
	return n;
}

/*
 * An empty argv becomes { "" }, as Linux 5.18 does: programs read argv[1] on
 * without looking at argc (pkexec's CVE-2021-4034 took envp[0] for it).
 */
static int
args_give_empty_argv0(struct exec_args *a)
{
	if (a->argc)
		return 0;
	a->argc = 1;
	return args_append(a, "", 0);
}

/* argv[0] gives way to the n strings of front (a script's interpreter, its argument, its path). */
static int
args_replace_argv0(struct exec_args *a, const char *const *front, int n)
{
	size_t old0 = a->argc ? strlen(a->strings) + 1 : 0, add = 0;

	for (int i = 0; i < n; i++)
		add += strlen(front[i]) + 1;
	int err = add > old0 ? args_reserve(a, add - old0) : 0;
	if (err)
		return err;
	memmove(a->strings + add, a->strings + old0, a->bytes - old0);
	for (size_t off = 0, i = 0; i < (size_t)n; i++) {
		size_t len = strlen(front[i]) + 1;
		memcpy(a->strings + off, front[i], len);
		off += len;
	}
	a->bytes = a->bytes - old0 + add;
	a->argc += n - (a->argc ? 1 : 0);
	return 0;
}

static int
args_copy_kernel_vector(struct exec_args *a, const char *const *vec)
{
	int n = 0;

	for (; vec && vec[n]; n++) {
		int err = args_append(a, vec[n], strlen(vec[n]));
		if (err)
			return err;
	}
	return n;
}

/* ---- building the address space -------------------------------------------- */

static u32
segment_vm_flags(u32 pflags)
{
	return (pflags & PF_R ? VM_READ : 0) | (pflags & PF_W ? VM_WRITE : 0) |
	       (pflags & PF_X ? VM_EXEC : 0);
}

/* The program's file pages deny writes to it (ETXTBSY); the interpreter's do not, as in Linux. */
static int
map_segment(struct mm *mm, struct file *f, const struct elf_segment *s, u64 bias, u32 deny)
{
	u64 start = ALIGN_DOWN(s->vaddr + bias, PAGE_SIZE);
	u64 file_end = ALIGN_UP(s->vaddr + bias + s->filesz, PAGE_SIZE);
	u64 mem_end = ALIGN_UP(s->vaddr + bias + s->memsz, PAGE_SIZE);
	u32 flags = segment_vm_flags(s->flags);
	int err = 0;

	if (s->filesz)
		err = vm_map_fixed(mm, start, file_end - start, flags | deny, f,
				   ALIGN_DOWN(s->offset, PAGE_SIZE) >> PAGE_SHIFT, NULL);
	if (!err && mem_end > file_end)
		err = vm_map_fixed(mm, file_end, mem_end - file_end, flags, NULL, 0, NULL);
	return err;
}

/* The tail of the last file page belongs to bss: it must read as zeros. */
static int
clear_partial_bss(const struct elf_segment *s, u64 bias)
{
	u64 file_end = s->vaddr + bias + s->filesz;
	u64 page_end = ALIGN_UP(file_end, PAGE_SIZE);

	if (s->memsz == s->filesz || file_end == page_end || !(s->flags & PF_W))
		return 0;
	return clear_user((void __user *)file_end, page_end - file_end);
}

static u64
highest_segment_end(const struct elf_image *img, u64 bias)
{
	u64 end = 0;

	for (int i = 0; i < img->nsegments; i++)
		end = MAX(end, img->segments[i].vaddr + bias + img->segments[i].memsz);
	return ALIGN_UP(end, PAGE_SIZE);
}

/*
 * Code and data bounds as Linux's load_elf_binary records them: code from
 * the executable segments' file contents, data from the others' (start at
 * the highest segment start, end at the highest file end).
 */
static void
record_segments(struct mm *mm, const struct elf_image *img, u64 bias)
{
	mm->start_code = ~0ul;
	for (int i = 0; i < img->nsegments; i++) {
		const struct elf_segment *s = &img->segments[i];
		u64 start = s->vaddr + bias, end = start + s->filesz;
		if (s->flags & PF_X) {
			mm->start_code = MIN(mm->start_code, start);
			mm->end_code = MAX(mm->end_code, end);
		}
		mm->start_data = MAX(mm->start_data, start);
		mm->end_data = MAX(mm->end_data, end);
	}
	if (mm->start_code == ~0ul)
		mm->start_code = 0;
}

/* elf_parse checked the unbiased image; a static PIE is moved up by bias. */
static bool
fits_in_user_space(const struct elf_image *img, u64 bias)
{
	if (img->entry >= USER_STACK_TOP - USER_STACK_SIZE - bias)
		return false;
	for (int i = 0; i < img->nsegments; i++) {
		const struct elf_segment *s = &img->segments[i];
		if (s->vaddr + s->memsz > USER_STACK_TOP - USER_STACK_SIZE - bias)
			return false;
	}
	return true;
}

/* The bytes write_initial_stack pushes: strings, vectors, auxv and the rest, generously. */
static u64
initial_stack_bytes(const struct exec_args *a, const char *path)
{
	return a->bytes + strlen(path) + 1 + 8 * ((u64)a->argc + (u64)a->envc + 3) + 1024;
}

/* Too many argument bytes for the stack (arg_limit), as Linux's get_arg_page. */
static bool
arguments_too_big(const struct exec_args *a, const char *path)
{
	return initial_stack_bytes(a, path) > arg_limit();
}

/*
 * The stack area exec maps: the arguments' pages and STACK_EXPAND below
 * them, but no more than RLIMIT_STACK allows (Linux's setup_arg_pages);
 * it grows on faults below it (vm_grow_stack).
 */
static u64
initial_stack_size(const struct exec_args *a, const char *path)
{
	u64 args = ALIGN_UP(initial_stack_bytes(a, path), PAGE_SIZE);
	u64 limit = MIN(rlimit(RLIMIT_STACK), USER_STACK_SIZE);

	return args + STACK_EXPAND > limit ? MAX(ALIGN_DOWN(limit, PAGE_SIZE), args)
					   : args + STACK_EXPAND;
}

static int
map_image(struct mm *mm, const struct loaded_elf *e, u32 deny)
{
	int err = 0;

	for (int i = 0; i < e->img.nsegments && !err; i++)
		err = map_segment(mm, e->file, &e->img.segments[i], e->bias, deny);
	return err;
}

/*
 * The interpreter's bias: a shared object (ld.so) goes where mmap would put
 * its whole span, below the stack and the vDSO, as Linux's load_elf_interp;
 * an ET_EXEC interpreter stays at its own addresses.
 */
static int
place_interpreter(struct mm *mm, struct loaded_elf *interp)
{
	const struct elf_image *img = &interp->img;
	u64 low = ~0ul;

	if (!img->relocatable)
		return fits_in_user_space(img, 0) ? 0 : -ENOEXEC;
	for (int i = 0; i < img->nsegments; i++)
		low = MIN(low, ALIGN_DOWN(img->segments[i].vaddr, PAGE_SIZE));
	u64 span = highest_segment_end(img, 0) - low;
	u64 base = vm_free_area(mm, span);
	if (!base)
		return -ENOMEM;
	interp->bias = base - low;
	return 0;
}

static struct mm *
build_address_space(const struct loaded_elf *prog, struct loaded_elf *interp, u64 stack_size,
		    int *err)
{
	const struct elf_image *img = &prog->img;
	struct mm *mm = mm_create();

	*err = -ENOMEM;
	if (!mm)
		return NULL;
	*err = map_image(mm, prog, VM_DENYWRITE);
	if (*err)
		goto fail;
	*err = vm_map_fixed(mm, USER_STACK_TOP - stack_size, stack_size,
			    VM_READ | VM_WRITE | VM_GROWSDOWN | (img->exec_stack ? VM_EXEC : 0),
			    NULL, 0, "[stack]");
	if (*err)
		goto fail;
	*err = vdso_map(mm);
	if (*err)
		goto fail;
	if (interp->file) {
		*err = place_interpreter(mm, interp);
		if (!*err)
			*err = map_image(mm, interp, 0);
		if (*err)
			goto fail;
	}
	vm_brk_init(mm, highest_segment_end(img, prog->bias));
	record_segments(mm, img, prog->bias);
	return mm;
fail:
	mm_put(mm);
	return NULL;
}

/* ---- the initial stack -------------------------------------------------------- */

struct stack_builder {
	u64 sp; /* user address, grows down */
	int err;
};

static u64
push_bytes(struct stack_builder *b, const void *data, size_t n)
{
	b->sp -= n;
	if (!b->err && copy_to_user((void __user *)b->sp, data, n))
		b->err = -EFAULT;
	return b->sp;
}

static void
push_word(struct stack_builder *b, u64 v)
{
	push_bytes(b, &v, sizeof(v));
}

/* Where the argument and environment strings went, for /proc/<pid>/cmdline and environ. */
static void
record_strings(struct mm *mm, const struct exec_args *a, u64 strings)
{
	size_t off = 0;

	for (int i = 0; i < a->argc; i++)
		off += strlen(a->strings + off) + 1;
	mm->arg_start = strings;
	mm->arg_end = mm->env_start = strings + off;
	mm->env_end = strings + a->bytes;
}

/* The interpreter's base for AT_BASE: 0 without one, and for an ET_EXEC one (Linux's load_addr). */
static u64
interpreter_base(const struct loaded_elf *interp)
{
	return interp->file && interp->img.relocatable ? interp->bias : 0;
}

static u64
write_initial_stack(const struct exec_args *a, const struct loaded_elf *prog,
		    const struct loaded_elf *interp, struct mm *mm, const char *path, int *err)
{
	const struct elf_image *img = &prog->img;
	u64 bias = prog->bias;
	struct stack_builder b = { .sp = USER_STACK_TOP, .err = 0 };
	u8 random[16];

	u64 strings = push_bytes(&b, a->strings, a->bytes);
	record_strings(mm, a, strings);
	u64 execfn = push_bytes(&b, path, strlen(path) + 1);
	u64 platform = push_bytes(&b, "x86_64", 7);
	get_random_bytes(random, sizeof(random));
	u64 at_random = push_bytes(&b, random, sizeof(random));
	b.sp = ALIGN_DOWN(b.sp, 16);

	u64 auxv[][2] = {
		{ AT_SYSINFO_EHDR, mm->vdso_base },
		{ AT_PHDR, img->phdr_vaddr + bias },
		{ AT_PHENT, 56 },
		{ AT_PHNUM, img->phnum },
		{ AT_PAGESZ, PAGE_SIZE },
		{ AT_BASE, interpreter_base(interp) },
		{ AT_FLAGS, 0 },
		{ AT_ENTRY, img->entry + bias },
		{ AT_UID, current()->group_leader->uids.real },
		{ AT_EUID, current()->group_leader->uids.effective },
		{ AT_GID, current()->group_leader->gids.real },
		{ AT_EGID, current()->group_leader->gids.effective },
		{ AT_PLATFORM, platform },
		{ AT_HWCAP, cpuid(1, 0).edx },
		/* FSGSBASE (bit 1) only if CR4 allows the instructions in user mode, which
		   rewind's does not; no ring-3 MWAIT (bit 0): Linux then sends 0 too. */
		{ AT_HWCAP2, 0 },
		{ AT_CLKTCK, USER_HZ },
		{ AT_SECURE, 0 },
		{ AT_RANDOM, at_random },
		{ AT_EXECFN, execfn },
		{ AT_MINSIGSTKSZ, signal_frame_max_size() },
		{ AT_NULL, 0 },
	};
	/* argc, argv[], NULL, envp[], NULL, auxv: keep rsp 16-byte aligned at argc. */
	size_t words = 1 + (size_t)a->argc + 1 + (size_t)a->envc + 1 + 2 * ARRAY_SIZE(auxv);
	if (words % 2)
		push_word(&b, 0);
	mm->auxv_start = push_bytes(&b, auxv, sizeof(auxv));
	mm->auxv_end = mm->auxv_start + sizeof(auxv); /* for /proc/<pid>/auxv */

	/* The vectors point into the string block, whose layout mirrors a->strings. */
	size_t vec_size = sizeof(u64) * (size_t)(a->argc + a->envc + 3);
	u64 *vec = arg_buffer_alloc(vec_size);
	if (!vec) {
		*err = -ENOMEM;
		return 0;
	}
	size_t off = 0, k = 0;
	vec[k++] = (u64)a->argc;
	for (int i = 0; i < a->argc + a->envc; i++) {
		if (i == a->argc)
			vec[k++] = 0; /* argv's terminator */
		vec[k++] = strings + off;
		off += strlen(a->strings + off) + 1;
	}
	if (a->envc == 0)
		vec[k++] = 0; /* argv's terminator (no envp entry came after it) */
	vec[k++] = 0;	      /* envp's terminator */
	push_bytes(&b, vec, k * sizeof(u64));
	arg_buffer_free(vec, vec_size);
	*err = b.err;
	return b.sp;
}

/* ---- execve --------------------------------------------------------------------- */

static void
reset_user_frame(struct trap_frame *f, u64 entry, u64 sp)
{
	memset(f, 0, sizeof(*f));
	f->rip = entry;
	f->rsp = sp;
	f->cs = USER_CS;
	f->ss = USER_DS;
	f->rflags = RFLAGS_IF | 0x2; /* bit 1 is always set */
}

static void
set_comm(struct task *t, const char *path)
{
	const char *base = path;

	for (const char *p = path; *p; p++)
		if (*p == '/' && p[1])
			base = p + 1;
	task_set_comm(t, base);
}

/*
 * Checks the ELF header in hdr (the file's first len bytes) and the
 * program headers, read from wherever e_phoff puts them (Linux's
 * load_elf_phdrs), not only from the first page.
 */
static int
parse_headers(struct file *f, const u8 *hdr, size_t len, struct elf_image *img, const char **why)
{
	u64 phoff;
	size_t size;
	int err = elf_phdr_table(hdr, len, &phoff, &size, why);

	if (err)
		return err;
	if (phoff <= len && size <= len - phoff)
		return elf_parse_split(hdr, len, hdr + phoff, file_size(f), img, why);
	u8 *phdrs = kmalloc(size);
	long n = phdrs ? kernel_read(f, phdrs, size, phoff) : -ENOMEM;
	if (n >= 0 && (size_t)n != size) {
		*why = "program headers lie past the end of the file";
		n = -ENOEXEC;
	}
	err = n < 0 ? (int)n : elf_parse_split(hdr, len, phdrs, file_size(f), img, why);
	kfree(phdrs);
	return err;
}

/*
 * Opens path and checks its ELF headers into e; 0 or -errno with nothing
 * held. An interpreter shorter than an ELF header is EIO, as Linux's read
 * of that header fails.
 */
static int
open_executable(const char *path, struct loaded_elf *e, bool interp)
{
	const char *why;
	u8 *hdr = kmalloc(ELF_HEADER_READ);
	int err = hdr ? open_exec(path, &e->file) : -ENOMEM;

	if (err)
		goto out;
	/* Linux's would_dump: a program its runner cannot read must not be read through ptrace. */
	e->unreadable = !file_caller_may_read(e->file);
	long n = kernel_read(e->file, hdr, ELF_HEADER_READ, 0);
	if (n >= 0 && interp && n < ELF_EHDR_SIZE)
		n = -EIO;
	err = n < 0 ? (int)n : parse_headers(e->file, hdr, (size_t)n, &e->img, &why);
	if (err == -ENOEXEC)
		pr_info_ratelimited("exec: %s: %s\n", path, why);
	if (err)
		file_put(e->file);
out:
	kfree(hdr);
	e->file = err ? NULL : e->file;
	return err;
}

/*
 * Opens the interpreter prog names (PT_INTERP). Its path must end in NUL
 * (else ENOEXEC, about the program); an interpreter that is not an x86-64
 * ELF executable is ELIBBAD, as Linux answers (for headers that pass
 * Linux's first look but fail later, Linux kills the process after the
 * point of no return instead: rewind refuses them before it).
 */
static int
open_interpreter(const struct loaded_elf *prog, const char *path, struct loaded_elf *interp)
{
	u64 size = prog->img.interp_size;
	char *name = kmalloc(size);
	long err = name ? kernel_read(prog->file, name, size, prog->img.interp_offset) : -ENOMEM;

	if (err >= 0 && (u64)err != size)
		err = -EIO; /* the file shrank under us */
	if (err >= 0 && name[size - 1] != '\0') {
		pr_info_ratelimited("exec: %s: interpreter path is not NUL-terminated\n", path);
		err = -ENOEXEC;
	} else if (err >= 0) {
		err = open_executable(name, interp, true);
		if (err == -ENOEXEC)
			err = -ELIBBAD;
	}
	kfree(name);
	return (int)err;
}

static int
clear_partial_bss_of(const struct loaded_elf *e)
{
	int err = 0;

	for (int i = 0; e->file && i < e->img.nsegments && !err; i++)
		err = clear_partial_bss(&e->img.segments[i], e->bias);
	return err;
}

/* Where the new program starts: in its interpreter when it has one. */
static u64
entry_point(const struct loaded_elf *prog, const struct loaded_elf *interp)
{
	const struct loaded_elf *first = interp->file ? interp : prog;

	return first->img.entry + first->bias;
}

/* Everything after the point of no return; a failure here kills the process. */
static void
start_program(struct task *t, struct mm *mm, const struct loaded_elf *prog,
	      const struct loaded_elf *interp, const struct exec_args *a, const char *path)
{
	futex_robust_release(t); /* its mutexes are in the memory going away */
	struct mm *old = task_swap_mm(t, mm);
	int err = 0;

	vfork_release(t); /* off the parent's memory: a vfork parent goes on */
	mm_activate(mm);
	if (old)
		mm_put(old);
	err = clear_partial_bss_of(prog);
	if (!err)
		err = clear_partial_bss_of(interp);
	u64 sp = err ? 0 : write_initial_stack(a, prog, interp, mm, path, &err);
	mm->start_stack = sp;
	if (err) {
		pr_warn_ratelimited(
			"exec: %s: could not set up the new program (%d); killing pid %d\n", path,
			err, t->pid);
		task_exit(11 /* SIGSEGV */);
	}
	reset_user_frame(task_user_frame(t), entry_point(prog, interp), sp);
	fpu_reset_state(&t->fpu);
	fpu_restore(&t->fpu);
	t->fs_base = 0;
	wrmsr(MSR_FS_BASE, 0);
	debugreg_exec(t);
	files_close_on_exec(t->files);
	signal_exec(t);
	set_comm(t, path);
}

static void
put_loaded(struct loaded_elf *e)
{
	if (e->file)
		file_put(e->file);
}

/* Opens the program and its interpreter and checks that they fit; 0 or -errno, nothing held. */
static long
open_program(const char *path, struct loaded_elf *prog, struct loaded_elf *interp)
{
	long err = open_executable(path, prog, false);

	if (err)
		return err;
	prog->bias = prog->img.relocatable ? PIE_LOAD_BIAS : 0;
	if (!fits_in_user_space(&prog->img, prog->bias)) {
		pr_info_ratelimited(
			"exec: %s: segments do not fit in user space at the load bias\n", path);
		err = -ENOEXEC;
	}
	if (!err && prog->img.interp_size)
		err = open_interpreter(prog, path, interp);
	if (err)
		put_loaded(prog);
	return err;
}

#define MAX_SCRIPT_DEPTH 5 /* scripts run by scripts: Linux's limit, past it ELOOP */

/*
 * A "#!" script runs its interpreter instead (Linux's binfmt_script), with
 * argv[0] replaced by the interpreter's name, the line's argument if any,
 * and the script's path; an interpreter may be a script in turn. Leaves
 * *prog naming the program to load: path, or the interpreter in
 * prog_buf (SCRIPT_LINE_MAX + 1 bytes).
 */
static long
resolve_scripts(const char *path, struct exec_args *a, char *prog_buf, const char **prog)
{
	char *line = kmalloc(SCRIPT_LINE_MAX + 1), *name, *arg;
	long err = line ? 0 : -ENOMEM;

	*prog = path;
	for (int depth = 0; !err; depth++) {
		err = script_read(*prog, line, &name, &arg);
		if (err)
			break;
		if (depth == MAX_SCRIPT_DEPTH) {
			err = -ELOOP;
			break;
		}
		const char *front[3] = { name };
		int n = 1;
		if (arg)
			front[n++] = arg;
		front[n++] = *prog;
		err = args_replace_argv0(a, front, n);
		memcpy(prog_buf, name, strlen(name) + 1);
		*prog = prog_buf;
	}
	kfree(line);
	return err == 1 ? 0 : err;
}

static long
do_execve(const char *path, struct exec_args *a)
{
	struct task *t = current();
	struct loaded_elf prog = { 0 }, interp = { 0 };
	char *prog_buf = kmalloc(SCRIPT_LINE_MAX + 1);
	const char *prog_path;
	long err = prog_buf ? resolve_scripts(path, a, prog_buf, &prog_path) : -ENOMEM;

	if (!err && arguments_too_big(a, path))
		err = -E2BIG;
	if (!err)
		err = open_program(prog_path, &prog, &interp);
	kfree(prog_buf);
	if (err)
		return err;
	/* Not a file open for writing; and none may open it so until its areas hold the denial. */
	err = file_deny_write(prog.file);
	if (err)
		goto out;
	int map_err;
	struct mm *mm = build_address_space(&prog, &interp, initial_stack_size(a, path), &map_err);
	file_allow_write(prog.file);
	err = map_err;
	if (!mm)
		goto out;
	int old_pid = t->pid;
	err = exec_single_thread(t); /* the other threads run the old program: they go first */
	if (err) {
		mm_put(mm);
		goto out;
	}
	task_set_exe_file(t, prog.file); /* past the point of no return: /proc/<pid>/exe */
	session_exec(t);
	cred_exec(t->group_leader, prog.unreadable || interp.unreadable);
	keys_exec(t);
	start_program(t, mm, &prog, &interp, a, path);
	ptrace_exec(old_pid);
out:
	put_loaded(&interp);
	put_loaded(&prog);
	return err;
}

static struct exec_args *
args_alloc(void)
{
	struct exec_args *a = kzalloc(sizeof(*a));

	if (a && !(a->strings = kmalloc(ARG_MIN_BYTES))) {
		kfree(a);
		a = NULL;
	}
	if (a)
		a->capacity = ARG_MIN_BYTES;
	return a;
}

static void
args_free(struct exec_args *a)
{
	arg_buffer_free(a->strings, a->capacity);
	kfree(a);
}

SYSCALL3(execve, const char __user *, upath, const char *const __user *, uargv,
	 const char *const __user *, uenvp)
{
	char *path = kmalloc(4096);
	struct exec_args *a = args_alloc();
	long err = -ENOMEM;

	if (!path || !a)
		goto out;
	err = strncpy_from_user(path, upath, 4096);
	if (err < 0)
		goto out;
	err = args_copy_user_vector(a, uargv);
	if (err < 0)
		goto out;
	a->argc = (int)err;
	err = args_give_empty_argv0(a);
	if (err < 0)
		goto out;
	err = args_copy_user_vector(a, uenvp);
	if (err < 0)
		goto out;
	a->envc = (int)err;
	err = do_execve(path, a);
out:
	kfree(path);
	if (a)
		args_free(a);
	return err;
}

long
kernel_execve(const char *path, const char *const *argv, const char *const *envp)
{
	struct exec_args *a = args_alloc();
	long err;

	if (!a)
		return -ENOMEM;
	err = args_copy_kernel_vector(a, argv);
	if (err >= 0) {
		a->argc = (int)err;
		err = args_copy_kernel_vector(a, envp);
	}
	if (err >= 0) {
		a->envc = (int)err;
		err = do_execve(path, a);
	}
	args_free(a);
	return err;
}
