/*
 * exec.c - execve: load a static ELF executable into a fresh address space
 * and start it with the Linux initial stack.
 *
 * Steps, in an order that keeps failure cheap: copy the arguments out of
 * the old program, open and validate the file (any error so far returns to
 * the old program), build the new address space - file-backed private
 * mappings for the segments (so they come through the page cache), zeroed
 * memory for bss, an 8 MiB stack, the vDSO - then end the process's other
 * threads (exec_single_thread: the new program runs alone, with the
 * process's pid) and switch to it (the point of no return), write the
 * initial stack and reset the registers. While its segments are mapped, the
 * file cannot be written (VM_DENYWRITE, fs/write_access.c: ETXTBSY).
 *
 * The initial stack, from the top (System V x86-64 psABI §3.4.1):
 *   strings (argv, envp, "x86_64", the file name), 16 random bytes,
 *   padding to 16, the auxiliary vector (AT_NULL last), NULL, envp[],
 *   NULL, argv[], argc  <- rsp
 */
#include "kernel/process/exec.h"
#include "kernel/process/rlimit.h"
#include "kernel/process/session.h"
#include "kernel/process/elf.h"
#include "uapi/errno.h"
#include "kernel/x86/fpu.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/process/process.h"
#include "kernel/random.h"
#include "kernel/signal/signal.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/syscall.h"
#include "kernel/process/task.h"
#include "kernel/x86/traps.h"
#include "kernel/vdso/vdso.h"
#include "kernel/x86/x86.h"
#include "fs/fs.h"
#include "mm/kmalloc.h"
#include "mm/page_alloc.h"
#include "mm/vm.h"
#include "uapi/auxvec.h"
#include "uapi/param.h"

#define ARG_MAX_BYTES (128 * 1024) /* argv + envp strings, as Linux's MAX_ARG_STRLEN era */
#define ARG_MAX_COUNT 4096
#define PIE_LOAD_BIAS 0x555555554000ul /* Linux's ELF_ET_DYN_BASE on x86-64 */

/* The strings of argv and envp, packed, plus their counts. */
struct exec_args {
	char *strings; /* argc + envc NUL-terminated strings, back to back */
	size_t bytes;
	int argc, envc;
};

static int
args_append(struct exec_args *a, const char *s, size_t len)
{
	if (a->bytes + len + 1 > ARG_MAX_BYTES || a->argc + a->envc >= ARG_MAX_COUNT)
		return -E2BIG;
	memcpy(a->strings + a->bytes, s, len + 1);
	a->bytes += len + 1;
	return 0;
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
		long len = strncpy_from_user(a->strings + a->bytes, (const char __user *)p,
					     ARG_MAX_BYTES - a->bytes);
		if (len < 0)
			return len == -ENAMETOOLONG ? -E2BIG : (int)len;
		if (a->argc + a->envc + n >= ARG_MAX_COUNT)
			return -E2BIG;
		a->bytes += (size_t)len + 1;
	}
	return n;
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

static int
map_segment(struct mm *mm, struct file *f, const struct elf_segment *s, u64 bias)
{
	u64 start = ALIGN_DOWN(s->vaddr + bias, PAGE_SIZE);
	u64 file_end = ALIGN_UP(s->vaddr + bias + s->filesz, PAGE_SIZE);
	u64 mem_end = ALIGN_UP(s->vaddr + bias + s->memsz, PAGE_SIZE);
	u32 flags = segment_vm_flags(s->flags);
	int err = 0;

	if (s->filesz) /* the program's pages: the file stays unwritable while they are mapped */
		err = vm_map_fixed(mm, start, file_end - start, flags | VM_DENYWRITE, f,
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

/*
 * Too many argument bytes for the stack: more than a quarter of
 * RLIMIT_STACK (at most 6 MiB, always 128 KiB), as Linux's get_arg_page.
 */
static bool
arguments_too_big(const struct exec_args *a, const char *path)
{
	u64 limit = MAX(MIN(USER_STACK_SIZE / 4 * 3, rlimit(RLIMIT_STACK) / 4), 32 * PAGE_SIZE);

	return initial_stack_bytes(a, path) > limit;
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

static struct mm *
build_address_space(struct file *f, const struct elf_image *img, u64 bias, u64 stack_size, int *err)
{
	struct mm *mm = mm_create();

	*err = -ENOMEM;
	if (!mm)
		return NULL;
	for (int i = 0; i < img->nsegments; i++) {
		*err = map_segment(mm, f, &img->segments[i], bias);
		if (*err)
			goto fail;
	}
	*err = vm_map_fixed(mm, USER_STACK_TOP - stack_size, stack_size,
			    VM_READ | VM_WRITE | VM_GROWSDOWN | (img->exec_stack ? VM_EXEC : 0),
			    NULL, 0, "[stack]");
	if (*err)
		goto fail;
	*err = vdso_map(mm);
	if (*err)
		goto fail;
	vm_brk_init(mm, highest_segment_end(img, bias));
	record_segments(mm, img, bias);
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

static u64
write_initial_stack(const struct exec_args *a, const struct elf_image *img, u64 bias, struct mm *mm,
		    const char *path, int *err)
{
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
		{ AT_BASE, 0 },
		{ AT_FLAGS, 0 },
		{ AT_ENTRY, img->entry + bias },
		{ AT_UID, current()->group_leader->uid },
		{ AT_EUID, current()->group_leader->euid },
		{ AT_GID, 0 },
		{ AT_EGID, 0 },
		{ AT_PLATFORM, platform },
		{ AT_HWCAP, cpuid(1, 0).edx },
		{ AT_CLKTCK, USER_HZ },
		{ AT_SECURE, 0 },
		{ AT_RANDOM, at_random },
		{ AT_EXECFN, execfn },
		{ AT_NULL, 0 },
	};
	/* argc, argv[], NULL, envp[], NULL, auxv: keep rsp 16-byte aligned at argc. */
	size_t words = 1 + (size_t)a->argc + 1 + (size_t)a->envc + 1 + 2 * ARRAY_SIZE(auxv);
	if (words % 2)
		push_word(&b, 0);
	push_bytes(&b, auxv, sizeof(auxv));

	/* The vectors point into the string block, whose layout mirrors a->strings. */
	u64 *vec = kmalloc(sizeof(u64) * (size_t)(a->argc + a->envc + 3));
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
	kfree(vec);
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

static int
open_executable(const char *path, struct file **out, struct elf_image *img, u8 *hdr)
{
	const char *why;
	int err = kernel_open(path, 0 /* O_RDONLY */, out);

	if (err)
		return err;
	if (!file_is_executable(*out)) {
		file_put(*out);
		return -EACCES;
	}
	long n = kernel_read(*out, hdr, ELF_HEADER_READ, 0);
	err = n < 0 ? (int)n : elf_parse(hdr, (size_t)n, file_size(*out), img, &why);
	if (err == -ENOEXEC)
		pr_info_ratelimited("exec: %s: %s\n", path, why);
	if (err)
		file_put(*out);
	return err;
}

/* Everything after the point of no return; a failure here kills the process. */
static void
start_program(struct task *t, struct mm *mm, const struct elf_image *img, u64 bias,
	      const struct exec_args *a, const char *path)
{
	struct mm *old = task_swap_mm(t, mm);
	int err = 0;

	mm_activate(mm);
	if (old)
		mm_put(old);
	for (int i = 0; i < img->nsegments && !err; i++)
		err = clear_partial_bss(&img->segments[i], bias);
	u64 sp = err ? 0 : write_initial_stack(a, img, bias, mm, path, &err);
	mm->start_stack = sp;
	if (err) {
		pr_warn_ratelimited(
			"exec: %s: could not set up the new program (%d); killing pid %d\n", path,
			err, t->pid);
		task_exit(11 /* SIGSEGV */);
	}
	reset_user_frame(task_user_frame(t), img->entry + bias, sp);
	fpu_reset_state(&t->fpu);
	fpu_restore(&t->fpu);
	t->fs_base = 0;
	wrmsr(MSR_FS_BASE, 0);
	files_close_on_exec(t->files);
	signal_exec(t);
	set_comm(t, path);
}

static long
do_execve(const char *path, struct exec_args *a)
{
	struct task *t = current();
	struct elf_image img;
	struct file *f;
	u8 *hdr = kmalloc(ELF_HEADER_READ);

	if (!hdr)
		return -ENOMEM;
	if (arguments_too_big(a, path)) {
		kfree(hdr);
		return -E2BIG;
	}
	long err = open_executable(path, &f, &img, hdr);
	kfree(hdr);
	if (err)
		return err;
	u64 bias = img.relocatable ? PIE_LOAD_BIAS : 0;
	if (!fits_in_user_space(&img, bias)) {
		pr_info_ratelimited(
			"exec: %s: segments do not fit in user space at the load bias\n", path);
		file_put(f);
		return -ENOEXEC;
	}
	/* Not a file open for writing; and none may open it so until its areas hold the denial. */
	err = file_deny_write(f);
	if (err) {
		file_put(f);
		return err;
	}
	int map_err;
	struct mm *mm = build_address_space(f, &img, bias, initial_stack_size(a, path), &map_err);
	file_allow_write(f);
	if (!mm) {
		file_put(f);
		return map_err;
	}
	err = exec_single_thread(t); /* the other threads run the old program: they go first */
	if (err) {
		file_put(f);
		mm_put(mm);
		return err;
	}
	task_set_exe_file(t, f); /* past the point of no return: /proc/<pid>/exe */
	session_exec(t);
	start_program(t, mm, &img, bias, a, path);
	file_put(f);
	return 0;
}

static struct exec_args *
args_alloc(void)
{
	struct exec_args *a = kzalloc(sizeof(*a));

	if (a && !(a->strings = kmalloc(ARG_MAX_BYTES))) {
		kfree(a);
		a = NULL;
	}
	return a;
}

static void
args_free(struct exec_args *a)
{
	kfree(a->strings);
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
