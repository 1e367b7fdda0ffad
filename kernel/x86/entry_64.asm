; entry_64.asm - the first and last instructions of every exception,
; interrupt and system call: one stub per vector, a common path that saves
; all registers into a struct trap_frame (kernel/x86/traps.h) and calls
; trap_dispatch(); the syscall instruction's entry, which builds the same
; frame; and the two ways out, iretq and sysret. The C side of each entry
; from user mode is kernel/x86/entry.c, which also decides which way out a
; return takes: every entry calls C, then leaves by sysret when C returned
; 1, else by iretq - but for an exception inside the NMI handler, which
; must not unblock NMIs before the NMI's own iretq (return_within_nmi).
;
; GS: the kernel runs with its per-CPU pointer in the GS base; user mode has
; its own. An entry from user mode (CS RPL 3) does swapgs on the way in and
; out. NMI, #DF and #MC can arrive anywhere, even between a user-mode entry
; and its swapgs, so they use the "paranoid" path: it reads the GS base MSR
; and swaps only if it does not already hold a kernel address; it always
; leaves by iretq.
;
; Every offset into struct cpu and struct trap_frame, and every selector,
; vector and MSR number below, is a name from asm-offsets.inc, which the
; build generates from the C definitions (kernel/x86/asm-offsets.c). What
; no generated number can follow is the order of the pushes that build a
; frame: FRAME_PUSH and FRAME_POP check each one against the field's
; offset while assembling, so a frame reordered in C fails the build here.

bits 64
section .text
%include "asm-offsets.inc"
%include "kernel/x86/paravirt_asm.inc"

; vectors for which the CPU pushes an error code
%define HAS_ERROR(v) ((v) == VEC_DOUBLE_FAULT || ((v) >= VEC_INVALID_TSS && (v) <= VEC_PAGE_FAULT) || \
	(v) == VEC_ALIGNMENT_CHECK || (v) == VEC_CONTROL_PROTECTION || (v) == VEC_VMM_COMMUNICATION || \
	(v) == VEC_SECURITY)
%define PARANOID(v) ((v) == VEC_NMI || (v) == VEC_DOUBLE_FAULT || (v) == VEC_MACHINE_CHECK)

; The CPU's own part of the frame, rip to ss, is in the order it pushes it;
; the stubs push the error code and vector just below (VECTOR_STUB, checked there).
%if TF_CS != TF_RIP + 8 || TF_RFLAGS != TF_CS + 8 || TF_RSP != TF_RFLAGS + 8 || TF_SS != TF_RSP + 8 || \
	TF_SIZE != TF_SS + 8
%error "struct trap_frame (kernel/x86/traps.h) must end with the CPU's rip, cs, rflags, rsp, ss"
%endif

; FRAME_PUSH what, FIELD: push what into the frame slot below the previous
; push (frame_slot: the frame offset rsp points at), after checking at
; assembly time that struct trap_frame puts FIELD (TF_FIELD) there.
; FRAME_POP reg, FIELD is the reverse. FRAME_AT TF_FIELD starts a sequence.
%macro FRAME_AT 1
%assign frame_slot %1
%endmacro
%macro FRAME_PUSH 2
%assign frame_slot frame_slot - 8
%if frame_slot != TF_%2
%error push of %1 lands at frame offset frame_slot, struct trap_frame (traps.h) has %2 at TF_%2
%endif
	push %1
%endmacro
%macro FRAME_POP 2
%if frame_slot != TF_%2
%error pop of %1 reads frame offset frame_slot, struct trap_frame (traps.h) has %2 at TF_%2
%endif
	pop %1
%assign frame_slot frame_slot + 8
%endmacro

; below the vector (rsp = TF_VECTOR), every general register
%macro SAVE_REGS 0
	FRAME_AT TF_VECTOR
	FRAME_PUSH rax, RAX
	FRAME_PUSH rbx, RBX
	FRAME_PUSH rcx, RCX
	FRAME_PUSH rdx, RDX
	FRAME_PUSH rsi, RSI
	FRAME_PUSH rdi, RDI
	FRAME_PUSH rbp, RBP
	FRAME_PUSH r8, R8
	FRAME_PUSH r9, R9
	FRAME_PUSH r10, R10
	FRAME_PUSH r11, R11
	FRAME_PUSH r12, R12
	FRAME_PUSH r13, R13
	FRAME_PUSH r14, R14
	FRAME_PUSH r15, R15
%endmacro

; from the frame's start, every general register; then rsp = TF_VECTOR
%macro RESTORE_REGS 0
	FRAME_AT 0
	FRAME_POP r15, R15
	FRAME_POP r14, R14
	FRAME_POP r13, R13
	FRAME_POP r12, R12
	FRAME_POP r11, R11
	FRAME_POP r10, R10
	FRAME_POP r9, R9
	FRAME_POP r8, R8
	FRAME_POP rbp, RBP
	FRAME_POP rdi, RDI
	FRAME_POP rsi, RSI
	FRAME_POP rdx, RDX
	FRAME_POP rcx, RCX
	FRAME_POP rbx, RBX
	FRAME_POP rax, RAX
%if frame_slot != TF_VECTOR
%error "RESTORE_REGS must leave rsp at the vector"
%endif
%endmacro

; [rsp + FROM_VECTOR(FIELD)]: a field of the frame while rsp points at the
; vector (before SAVE_REGS, after RESTORE_REGS)
%define FROM_VECTOR(field) ((field) - TF_VECTOR)

; User mode may set RFLAGS.AC (popf, or through rt_sigreturn), and an
; interrupt gate keeps it: with SMAP on, the kernel would then run with user
; memory open. So every trap clears AC; iretq puts the interrupted value back.
; (The syscall instruction clears it through FMASK.) clac exists only where
; the CPU has SMAP, hence the test of mm/uaccess.c's flag.
extern uaccess_smap
%macro CLEAR_AC 0
	cmp byte [uaccess_smap], 0
	je %%done
	clac
%%done:
%endmacro

%macro VECTOR_STUB 1
align 16
vector_%1:
%if HAS_ERROR(%1)
	FRAME_AT TF_ERROR		; the CPU pushed the error code
%else
	FRAME_AT TF_RIP
	FRAME_PUSH 0, ERROR
%endif
	FRAME_PUSH %1, VECTOR
%if PARANOID(%1)
	jmp paranoid_entry
%else
	jmp trap_entry
%endif
%endmacro

%assign v 0
%rep 256
VECTOR_STUB v
%assign v v + 1
%endrep

; Everything from here to the tables is the entry hot path, kept together
; in .entry.text (kernel/x86/entry.h, __entry_text).
section .entry.text

extern trap_dispatch

; The vector and error code are pushed: swapgs if from user mode, save
; every register, and hand the frame to C.
trap_entry:
	test qword [rsp + FROM_VECTOR(TF_CS)], 3
	jz .from_kernel
	SWAPGS
.from_kernel:
	SAVE_REGS
	cld
	CLEAR_AC
	mov rdi, rsp
	call trap_dispatch		; enum trap_exit: 0 iretq, 1 sysret, 2 within an NMI
	cmp eax, 1
	je sysret_return
	ja return_within_nmi
global trap_return
trap_return:
	DISABLE_INTERRUPTS		; from here to iretq: no interrupt may see a user GS
	RESTORE_REGS
	test qword [rsp + FROM_VECTOR(TF_CS)], 3
	jz .to_kernel
	SWAPGS
.to_kernel:
	add rsp, FROM_VECTOR(TF_RIP)	; vector and error code
	INTERRUPT_RETURN

; An exception taken inside the NMI handler (a probe's fault, a #DB) goes
; back into it without iretq: iretq would unblock NMIs, and the next NMI,
; arriving on the same IST stack while this one still runs there, would
; write its frame over the running one's (Linux's "NMI nesting" problem,
; kernel/x86/traps.c). Same privilege, same stack: rip and rflags go just
; below the interrupted rsp (the kernel has no red zone), then popfq; ret.
; Those two words may overlap the frame's ss and rsp, so rsp is read first
; and the target kept in the error code's slot.
%define NMI_SCRATCH(field) (16 + FROM_VECTOR(field))	; below: rbx, rax
return_within_nmi:
	RESTORE_REGS
	push rax
	push rbx			; now: rbx rax vector error rip cs rflags rsp ss
	mov rax, [rsp + NMI_SCRATCH(TF_RSP)]	; the interrupted rsp
	sub rax, 16
	mov rbx, [rsp + NMI_SCRATCH(TF_RIP)]
	mov [rax + 8], rbx
	mov rbx, [rsp + NMI_SCRATCH(TF_RFLAGS)]
	mov [rax], rbx
	mov [rsp + NMI_SCRATCH(TF_ERROR)], rax
	pop rbx
	pop rax
	mov rsp, [rsp + FROM_VECTOR(TF_ERROR)]
	popfq
	ret

paranoid_entry:
	SAVE_REGS
	cld
	CLEAR_AC
	mov ecx, MSR_GS_BASE
	rdmsr
	xor ebx, ebx			; rbx (callee-saved): 1 = we swapped
	test edx, edx
	js .kernel_gs			; a kernel address: already the kernel's GS
	swapgs
	mov ebx, 1
.kernel_gs:
	mov rdi, rsp
	call trap_dispatch
	test ebx, ebx
	jz .no_swap
	swapgs
.no_swap:
	RESTORE_REGS
	add rsp, FROM_VECTOR(TF_RIP)
	iretq

; The syscall instruction: rip in rcx, rflags in r11, interrupts off (FMASK),
; still on the user stack. Switch to the task's kernel stack and build the
; same struct trap_frame as an interrupt would (vector VEC_SYSCALL_INSN), so
; that every later path - fork, execve, signals - sees one frame layout.
extern syscall_from_user

global syscall_entry
syscall_entry:
	swapgs
	mov [gs:CPU_USER_RSP], rsp
	mov rsp, [gs:CPU_KERNEL_RSP]
	FRAME_AT TF_SIZE
	FRAME_PUSH USER_DS, SS
	FRAME_PUSH qword [gs:CPU_USER_RSP], RSP
	FRAME_PUSH r11, RFLAGS
	FRAME_PUSH USER_CS, CS
	FRAME_PUSH rcx, RIP
	FRAME_PUSH 0, ERROR
	FRAME_PUSH VEC_SYSCALL_INSN, VECTOR
	SAVE_REGS
	cld				; (AC is already clear: FMASK)
	mov rdi, rsp
	call syscall_from_user		; returns 1 when the sysret fast path is allowed
	test eax, eax
	jz trap_return			; iretq: the general path

; The fast way back to user mode, for any frame that sysret can restore
; faithfully (rsp = the frame; kernel/x86/entry.c, sysret_allowed).
sysret_return:
	DISABLE_INTERRUPTS
	RESTORE_REGS
	mov rsp, [rsp + FROM_VECTOR(TF_RSP)]	; the user rsp
	USERGS_SYSRET64

; return_to_user(frame, by_sysret): a new task's first way out
; (kernel/x86/entry.c, first_return_to_user), through the frame at the top
; of its kernel stack.
global return_to_user
return_to_user:
	mov rsp, rdi
	test esi, esi
	jnz sysret_return
	jmp trap_return

section .rodata
global trap_stubs
align 8
trap_stubs:
%assign v 0
%rep 256
	dq vector_%+v
%assign v v + 1
%endrep

section .note.GNU-stack noalloc noexec nowrite progbits
