/*
 * coredump.c - the ELF core file a process leaves when a signal whose
 * default action is "Core" (signal(7)) kills it, as Linux's do_coredump and
 * elf_core_dump, so that gdb can show where it died.
 *
 * The process's other threads are gone first (exit.c, group_exit_dumping).
 * A core is written when RLIMIT_CORE is at least a page (Linux's
 * min_coredump) and the process is dumpable. Its name comes from
 * /proc/sys/kernel/core_pattern (default "core"; %p %P %i %I %u %g %s %t %h
 * %e %E %c %% expanded as core(5) says; ".<pid>" added when core_uses_pid is
 * set and the pattern has no %p), relative to the process's directory. A
 * pattern starting with '|' asks for a helper program, which rewind does
 * not start: no core, and a kernel log line says why. An old file of that
 * name is unlinked and the core made anew (O_EXCL, not through a symlink),
 * mode 0600 less the umask, owned by the fsuid. It stops at RLIMIT_CORE
 * bytes, and a core cut there still counts as written (WCOREDUMP), as on
 * Linux (LTP waitpid01 allows one page).
 *
 * The file: the ELF header (ET_CORE), a PT_NOTE, then one PT_LOAD per
 * memory area. The notes are the dumping thread's NT_PRSTATUS (registers,
 * signal, ids), NT_PRPSINFO (state, name, arguments), NT_SIGINFO,
 * NT_AUXV and NT_PRFPREG (the FXSAVE image). An area's contents follow page
 * by page from its own memory, as much of it as /proc/<pid>/coredump_filter
 * asks for its kind (area_dump_size); a page that cannot be read (PROT_NONE)
 * is left as a hole of zeros; areas marked MADV_DONTDUMP (VM_DONTDUMP) and
 * [vvar], whose pages are the kernel's, get a header with no contents.
 */
#include "fs/fs.h"
#include "fs/vfs.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/printk.h"
#include "kernel/process/coredump.h"
#include "kernel/process/elf.h"
#include "kernel/process/process.h"
#include "kernel/process/ptrace_internal.h"
#include "kernel/process/rlimit.h"
#include "kernel/process/task.h"
#include "kernel/process/uts_namespace.h"
#include "kernel/x86/fpu.h"
#include "locking/rwsem.h"
#include "locking/spinlock.h"
#include "mm/kmalloc.h"
#include "mm/uaccess.h"
#include "mm/vm.h"
#include "uapi/errno.h"
#include "uapi/fcntl.h"
#include "uapi/limits.h"
#include "uapi/ptrace.h"
#include "uapi/resource.h"
#include "uapi/signal.h"
#include "uapi/utsname.h"

int core_uses_pid;
static char core_pattern[CORE_PATTERN_MAX] = "core";
static struct spinlock core_pattern_lock = SPINLOCK_INIT("core_pattern");

bool
sig_dumps_core(int sig)
{
	switch (sig) {
	case SIGQUIT:
	case SIGILL:
	case SIGTRAP:
	case SIGABRT:
	case SIGBUS:
	case SIGFPE:
	case SIGSEGV:
	case SIGXCPU:
	case SIGXFSZ:
	case SIGSYS:
		return true;
	default:
		return false;
	}
}

/* ---- /proc/sys/kernel/core_pattern ---------------------------------------------------- */

void
core_pattern_get(char out[CORE_PATTERN_MAX])
{
	u64 flags = spin_lock_irqsave(&core_pattern_lock);

	memcpy(out, core_pattern, CORE_PATTERN_MAX);
	spin_unlock_irqrestore(&core_pattern_lock, flags);
}

/* The value up to its first newline, cut to the room there is, as Linux's proc_dostring. */
int
core_pattern_set(const char *value)
{
	size_t n = 0;

	while (value[n] && value[n] != '\n' && n < CORE_PATTERN_MAX - 1)
		n++;
	u64 flags = spin_lock_irqsave(&core_pattern_lock);
	memcpy(core_pattern, value, n);
	core_pattern[n] = '\0';
	spin_unlock_irqrestore(&core_pattern_lock, flags);
	return 0;
}

/* ---- the file's name ------------------------------------------------------------------- */

struct core_name {
	char buf[PATH_MAX];
	size_t len;
	bool truncated;
};

/* Appends s; a '/' inside an expansion would make a directory of it: '!' instead, as Linux's. */
static void
name_append(struct core_name *cn, const char *s, bool expansion)
{
	for (; *s; s++) {
		if (cn->len + 1 >= sizeof(cn->buf)) {
			cn->truncated = true;
			return;
		}
		cn->buf[cn->len++] = expansion && *s == '/' ? '!' : *s;
	}
	cn->buf[cn->len] = '\0';
}

static void
name_append_number(struct core_name *cn, u64 n)
{
	char digits[24];

	ksnprintf(digits, sizeof(digits), "%lu", n);
	name_append(cn, digits, true);
}

/* The program's path with '/' as '!' (%E), or its name when it has none. */
static void
name_append_exe(struct core_name *cn, struct task *t)
{
	char *path = kmalloc(PATH_MAX);

	if (path && t->exe_file) {
		file_path(t->exe_file, path, PATH_MAX);
		name_append(cn, path, true);
	} else {
		name_append(cn, t->comm, true);
	}
	kfree(path);
}

/* One %x of the pattern, for the process of t killed by sig. */
static void
name_expand(struct core_name *cn, char spec, struct task *t, int sig, bool *has_pid)
{
	struct task *leader = t->group_leader;
	struct kernel_utsname uts;

	switch (spec) {
	case '%':
		name_append(cn, "%", false);
		break;
	case 'p':
	case 'P':
		*has_pid = true;
		name_append_number(cn, (u64)t->tgid);
		break;
	case 'i':
	case 'I':
		name_append_number(cn, (u64)t->pid);
		break;
	case 'u':
		name_append_number(cn, leader->uids.real);
		break;
	case 'g':
		name_append_number(cn, leader->gids.real);
		break;
	case 's':
		name_append_number(cn, (u64)sig);
		break;
	case 't':
		name_append_number(cn, (u64)fs_now().sec);
		break;
	case 'h':
		uts_read_names(&uts);
		name_append(cn, uts.nodename, true);
		break;
	case 'e':
		name_append(cn, t->comm, true);
		break;
	case 'E':
		name_append_exe(cn, t);
		break;
	case 'c':
		name_append_number(cn, rlimit(RLIMIT_CORE));
		break;
	default: /* unknown, or the pattern's last character: dropped, as Linux's */
		break;
	}
}

/* The core file's name from the pattern: 0, or -EPERM for a '|' pattern (no helper here). */
static int
core_name_make(struct core_name *cn, struct task *t, int sig)
{
	char pattern[CORE_PATTERN_MAX];
	bool has_pid = false;

	core_pattern_get(pattern);
	if (pattern[0] == '|') {
		pr_notice_ratelimited(
			"pid %d (%s): core_pattern pipes to a helper, which rewind "
			"does not run: no core\n",
			t->tgid, t->comm);
		return -EPERM;
	}
	cn->len = 0;
	cn->buf[0] = '\0';
	cn->truncated = false;
	for (const char *p = pattern; *p; p++) {
		if (*p != '%') {
			char one[2] = { *p, '\0' };
			name_append(cn, one, false);
		} else if (p[1]) {
			name_expand(cn, *++p, t, sig, &has_pid);
		}
	}
	if (READ_ONCE(core_uses_pid) && !has_pid) {
		name_append(cn, ".", false);
		name_append_number(cn, (u64)t->tgid);
	}
	return cn->len && !cn->truncated ? 0 : -ENAMETOOLONG;
}

/* ---- writing the file ------------------------------------------------------------------ */

/* A core being written: where, how far, and a page of the process's own to copy through. */
struct core_out {
	struct file *f;
	u64 pos;
	u64 limit; /* RLIMIT_CORE */
	char __user *scratch;
	int err; /* the first failure: the rest is not written */
};

static void
out_fail(struct core_out *o, int err)
{
	if (!o->err)
		o->err = err;
}

/* How many of n more bytes at o->pos fit under the limit: the rest is cut. */
static size_t
out_room(struct core_out *o, size_t n)
{
	return o->pos >= o->limit ? 0 : MIN(n, o->limit - o->pos);
}

static void
out_write_user(struct core_out *o, const char __user *src, size_t n)
{
	while (n && !o->err) {
		long w = vfs_write(o->f, src, n, &o->pos);
		if (w <= 0) {
			out_fail(o, w ? (int)w : -EIO);
			return;
		}
		src += w;
		n -= (size_t)w;
	}
}

/* Kernel bytes: through the scratch page, the one way into the file's user-copying write. */
static void
out_emit(struct core_out *o, const void *buf, size_t n)
{
	const char *p = buf;

	n = out_room(o, n);
	while (n && !o->err) {
		size_t chunk = MIN(n, TRANSFER_CHUNK);
		if (copy_to_user(o->scratch, p, chunk)) {
			out_fail(o, -EFAULT);
			return;
		}
		out_write_user(o, o->scratch, chunk);
		p += chunk;
		n -= chunk;
	}
}

/* Zeros up to pos: a hole, the file's size catching up at the end (out_finish). */
static void
out_skip_to(struct core_out *o, u64 pos)
{
	pos = MIN(pos, o->limit);
	if (pos > o->pos)
		o->pos = pos;
}

/* An area's pages from the process's memory; one that cannot be read stays a hole. */
static void
out_memory(struct core_out *o, u64 start, u64 end)
{
	for (u64 va = start; va < end && !o->err; va += PAGE_SIZE) {
		if (READ_ONCE(current()->killed)) { /* SIGKILL stops a dump, as Linux's */
			out_fail(o, -EINTR);
			return;
		}
		size_t n = out_room(o, PAGE_SIZE);
		if (!n)
			return; /* the limit */
		long w = vfs_write(o->f, (const char __user *)va, n, &o->pos);
		if (w == -EFAULT)
			o->pos += n;
		else if (w != (long)n && !o->err)
			out_fail(o, w < 0 ? (int)w : -EIO);
	}
}

/* The holes at the end still count: the file is as long as what was laid out. */
static void
out_finish(struct core_out *o)
{
	if (file_size(o->f) < o->pos) {
		int err = vfs_truncate(o->f->inode, o->pos);
		if (err)
			out_fail(o, err);
	}
}

/*
 * Opens the core as Linux does: an old file of the name goes, the new one
 * is made exclusively (a symlink planted there is not followed), mode 0600
 * less the umask.
 */
static int
core_file_open(const char *name, struct file **out)
{
	int err;

	vfs_unlinkat(AT_FDCWD, name); /* if it is not there, or cannot go, the open says */
	err = file_open_at(AT_FDCWD, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_LARGEFILE,
			   0600 & ~current_umask(), out);
	if (err)
		return err;
	if (!S_ISREG((*out)->inode->mode)) {
		file_put(*out);
		return -EINVAL;
	}
	return 0;
}

/* ---- the ELF image --------------------------------------------------------------------- */

#define ET_CORE	    4
#define EM_X86_64   62
#define PT_LOAD	    1
#define PT_NOTE	    4
#define NT_PRPSINFO 3
#define NT_AUXV	    6
#define NT_SIGINFO  0x53494749 /* "SIGI" */

struct elf64_ehdr {
	u8 ident[16];
	u16 type, machine;
	u32 version;
	u64 entry, phoff, shoff;
	u32 flags;
	u16 ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct elf64_phdr {
	u32 type, flags;
	u64 offset, vaddr, paddr, filesz, memsz, align;
};

struct elf64_nhdr {
	u32 namesz, descsz, type;
};

/* struct elf_prstatus of Linux x86-64 (336 bytes). */
struct core_prstatus {
	int si_signo, si_code, si_errno;
	short cursig;
	u16 pad0;
	u64 sigpend, sighold;
	int pid, ppid, pgrp, sid;
	struct {
		s64 sec, usec;
	} utime, stime, cutime, cstime;
	struct kernel_user_regs regs;
	int fpvalid;
	int pad1;
};

/* struct elf_prpsinfo of Linux x86-64 (136 bytes). */
struct core_prpsinfo {
	char state, sname, zomb, nice;
	u32 pad0;
	u64 flag;
	u32 uid, gid;
	int pid, ppid, pgrp, sid;
	char fname[16];
	char psargs[80];
};

/* One memory area as the dump lays it out: its first dump_size bytes go in the file. */
struct core_area {
	u64 start, end;
	u32 flags;
	u64 dump_size;
	bool elf_header_only; /* a private file area's first page, if it is an ELF header */
};

/* The notes, built in the kernel before anything is written. */
struct core_notes {
	u8 *buf;
	size_t len, cap;
};

static size_t
note_size(size_t desc)
{
	return sizeof(struct elf64_nhdr) + 8 + ALIGN_UP(desc, 4); /* "CORE\0" padded to 8 */
}

static void
note_add(struct core_notes *n, u32 type, const void *desc, size_t size)
{
	struct elf64_nhdr h = { .namesz = 5, .descsz = (u32)size, .type = type };
	u8 *p = n->buf + n->len;

	memcpy(p, &h, sizeof(h));
	memset(p + sizeof(h), 0, 8 + ALIGN_UP(size, 4));
	memcpy(p + sizeof(h), "CORE", 5);
	memcpy(p + sizeof(h) + 8, desc, size);
	n->len += note_size(size);
}

static void
fill_prstatus(struct core_prstatus *s, struct task *t, const struct kernel_siginfo *info)
{
	struct task *leader = t->group_leader;

	memset(s, 0, sizeof(*s));
	s->si_signo = info->signo;
	s->cursig = (short)info->signo;
	s->sighold = t->sig_blocked;
	s->pid = t->pid;
	s->ppid = READ_ONCE(leader->parent_tgid);
	s->pgrp = leader->pgid;
	s->sid = leader->sid;
	ptrace_get_regs(t, &s->regs);
	s->fpvalid = 1;
}

/* The arguments as ps shows them: the first 80 bytes, NULs as spaces. */
static void
fill_prpsinfo(struct core_prpsinfo *p, struct task *t)
{
	struct task *leader = t->group_leader;
	struct mm *mm = t->mm;

	memset(p, 0, sizeof(*p));
	p->sname = 'R';
	p->uid = leader->uids.real;
	p->gid = leader->gids.real;
	p->pid = t->tgid;
	p->ppid = READ_ONCE(leader->parent_tgid);
	p->pgrp = leader->pgid;
	p->sid = leader->sid;
	memcpy(p->fname, t->comm, MIN(sizeof(p->fname) - 1, strnlen(t->comm, TASK_COMM_LEN)));
	size_t n = MIN(mm->arg_end - mm->arg_start, sizeof(p->psargs) - 1);
	if (copy_from_user(p->psargs, (const void __user *)mm->arg_start, n))
		n = 0;
	for (size_t i = 0; i < n; i++)
		if (!p->psargs[i])
			p->psargs[i] = ' ';
	while (n && p->psargs[n - 1] == ' ') /* the last argument's NUL */
		p->psargs[--n] = '\0';
}

/* The dying thread's FPU and SSE registers, live in the CPU (nothing else used them since user mode). */
static void
note_add_fpregs(struct core_notes *n)
{
	struct fpu_state fpu = { 0 };

	fpu_save(&fpu);
	note_add(n, NT_PRFPREG, &fpu, FXSAVE_SIZE);
}

/* The notes of the dumping thread: 0 or -ENOMEM. */
static int
notes_build(struct core_notes *n, struct task *t, const struct kernel_siginfo *info)
{
	struct mm *mm = t->mm;
	size_t auxv_len = mm->auxv_end - mm->auxv_start;

	n->cap = note_size(sizeof(struct core_prstatus)) + note_size(sizeof(struct core_prpsinfo)) +
		 note_size(sizeof(*info)) + note_size(auxv_len) + note_size(FXSAVE_SIZE);
	n->len = 0;
	n->buf = kmalloc(n->cap);
	struct core_prstatus *status = kmalloc(sizeof(*status));
	struct core_prpsinfo *ps = kmalloc(sizeof(*ps));
	void *auxv = kmalloc(auxv_len ? auxv_len : 1);
	int err = n->buf && status && ps && auxv ? 0 : -ENOMEM;

	if (!err) {
		fill_prstatus(status, t, info);
		note_add(n, NT_PRSTATUS, status, sizeof(*status));
		fill_prpsinfo(ps, t);
		note_add(n, NT_PRPSINFO, ps, sizeof(*ps));
		note_add(n, NT_SIGINFO, info, sizeof(*info));
		if (copy_from_user(auxv, (const void __user *)mm->auxv_start, auxv_len))
			memset(auxv, 0, auxv_len);
		note_add(n, NT_AUXV, auxv, auxv_len);
		note_add_fpregs(n);
	}
	kfree(status);
	kfree(ps);
	kfree(auxv);
	return err;
}

/*
 * How much of an area the core holds, as Linux's vma_dump_size: nothing of
 * MADV_DONTDUMP's or the kernel's [vvar]; otherwise as the process's
 * coredump_filter says of its kind. A shared file that has no name left
 * (MAP_SHARED | MAP_ANONYMOUS memory) counts as anonymous; a writable
 * private file area as anonymous too, as its written pages are the
 * process's own (Linux asks whether any page was written: rewind does not
 * know, so the writable ones are taken whole).
 */
static void
area_dump_size(const struct vma *v, u32 filter, struct core_area *a)
{
	u64 size = v->end - v->start;
	u32 kind;

	a->dump_size = 0;
	a->elf_header_only = false;
	if (v->flags & VM_DONTDUMP)
		return;
	if (v->special) {
		a->dump_size = strcmp(v->special->name, "[vvar]") ? size : 0;
		return;
	}
	if (v->flags & VM_HUGETLB) /* huge pages are a kind of their own, as Linux's */
		kind = v->flags & VM_SHARED ? COREDUMP_HUGE_SHARED : COREDUMP_HUGE_PRIVATE;
	else if (v->flags & VM_SHARED)
		kind = v->file && v->file->inode->nlink ? COREDUMP_FILE_SHARED
							: COREDUMP_ANON_SHARED;
	else if (!v->file || (v->flags & VM_WRITE))
		kind = COREDUMP_ANON_PRIVATE;
	else
		kind = COREDUMP_FILE_PRIVATE;
	if (filter & kind)
		a->dump_size = size;
	else if (kind == COREDUMP_FILE_PRIVATE && (filter & COREDUMP_ELF_HEADERS) && !v->pgoff &&
		 (v->flags & VM_READ))
		a->elf_header_only = true;
}

/* A candidate's first page goes in if it starts with the ELF magic (read with no lock held). */
static void
area_check_elf_header(struct core_area *a)
{
	u8 magic[4];

	if (a->elf_header_only && !copy_from_user(magic, (const void __user *)a->start, 4) &&
	    !memcmp(magic,
		    "\x7f"
		    "ELF",
		    4))
		a->dump_size = PAGE_SIZE;
}

/* The areas as they are now (no other thread is left to change them): NULL when out of memory. */
static struct core_area *
areas_snapshot(struct mm *mm, unsigned *count)
{
	struct core_area *areas = NULL;
	struct list_head *pos;
	unsigned n = 0;

	down_read(&mm->mmap_lock);
	list_for_each(pos, &mm->vmas)
		n++;
	up_read(&mm->mmap_lock);
	areas = kmalloc(sizeof(*areas) * (n ? n : 1));
	if (!areas)
		return NULL;
	*count = 0;
	down_read(&mm->mmap_lock);
	list_for_each(pos, &mm->vmas) {
		struct vma *v = list_entry(pos, struct vma, link);
		if (*count == n)
			break;
		struct core_area *a = &areas[(*count)++];
		*a = (struct core_area){ .start = v->start, .end = v->end, .flags = v->flags };
		area_dump_size(v, READ_ONCE(current()->group_leader->coredump_filter), a);
	}
	up_read(&mm->mmap_lock);
	for (unsigned i = 0; i < *count; i++)
		area_check_elf_header(&areas[i]);
	return areas;
}

static u32
phdr_flags(u32 vm_flags)
{
	return (vm_flags & VM_READ ? PF_R : 0) | (vm_flags & VM_WRITE ? PF_W : 0) |
	       (vm_flags & VM_EXEC ? PF_X : 0);
}

/* The ELF header, the program headers and the notes, the memory after them page-aligned. */
static void
write_headers(struct core_out *o, const struct core_notes *notes, const struct core_area *areas,
	      unsigned count)
{
	u64 phoff = sizeof(struct elf64_ehdr);
	u64 notes_off = phoff + sizeof(struct elf64_phdr) * (count + 1);
	u64 data_off = ALIGN_UP(notes_off + notes->len, PAGE_SIZE);
	struct elf64_ehdr eh = {
		.ident = { 0x7f, 'E', 'L', 'F', 2 /* 64-bit */, 1 /* LSB */, 1 /* version */ },
		.type = ET_CORE,
		.machine = EM_X86_64,
		.version = 1,
		.phoff = phoff,
		.ehsize = sizeof(struct elf64_ehdr),
		.phentsize = sizeof(struct elf64_phdr),
		.phnum = (u16)(count + 1),
	};
	struct elf64_phdr note = { .type = PT_NOTE, .offset = notes_off, .filesz = notes->len };

	out_emit(o, &eh, sizeof(eh));
	out_emit(o, &note, sizeof(note));
	for (unsigned i = 0; i < count; i++) {
		u64 size = areas[i].end - areas[i].start;
		struct elf64_phdr load = { .type = PT_LOAD,
					   .flags = phdr_flags(areas[i].flags),
					   .offset = data_off,
					   .vaddr = areas[i].start,
					   .filesz = areas[i].dump_size,
					   .memsz = size,
					   .align = PAGE_SIZE };
		out_emit(o, &load, sizeof(load));
		data_off += load.filesz;
	}
	out_emit(o, notes->buf, notes->len);
	out_skip_to(o, ALIGN_UP(o->pos, PAGE_SIZE));
}

static int
write_core(struct file *f, struct task *t, const struct kernel_siginfo *info, u64 limit)
{
	struct core_out o = { .f = f, .limit = limit };
	struct core_notes notes = { 0 };
	unsigned count = 0;
	struct core_area *areas = areas_snapshot(t->mm, &count);
	int err = areas ? notes_build(&notes, t, info) : -ENOMEM;

	if (!err && !(o.scratch = transfer_buffer_get()))
		err = -ENOMEM;
	if (!err) {
		write_headers(&o, &notes, areas, count);
		for (unsigned i = 0; i < count && !o.err; i++)
			out_memory(&o, areas[i].start, areas[i].start + areas[i].dump_size);
		out_finish(&o);
		transfer_buffer_put(o.scratch);
		err = o.err;
	}
	kfree(notes.buf);
	kfree(areas);
	return err;
}

int
coredump_write(const struct kernel_siginfo *info)
{
	struct task *t = current();
	u64 limit = rlimit(RLIMIT_CORE);
	struct core_name *cn;
	struct file *f;
	int err;

	if (limit < PAGE_SIZE || READ_ONCE(t->group_leader->not_dumpable) || !t->mm)
		return -EPERM;
	if (!(cn = kmalloc(sizeof(*cn))))
		return -ENOMEM;
	err = core_name_make(cn, t, info->signo);
	if (!err)
		err = core_file_open(cn->buf, &f);
	if (!err) {
		err = write_core(f, t, info, limit);
		file_put(f);
	}
	kfree(cn);
	return err;
}
