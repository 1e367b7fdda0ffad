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

bits 64
section .text
%include "kernel/x86/paravirt_asm.inc"

MSR_GS_BASE equ 0xc0000101

; vectors for which the CPU pushes an error code
%define HAS_ERROR(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || (v) == 17 || (v) == 21 || (v) == 29 || (v) == 30)
%define PARANOID(v) ((v) == 2 || (v) == 8 || (v) == 18)

%macro SAVE_REGS 0
	push rax
	push rbx
	push rcx
	push rdx
	push rsi
	push rdi
	push rbp
	push r8
	push r9
	push r10
	push r11
	push r12
	push r13
	push r14
	push r15
%endmacro

%macro RESTORE_REGS 0
	pop r15
	pop r14
	pop r13
	pop r12
	pop r11
	pop r10
	pop r9
	pop r8
	pop rbp
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rbx
	pop rax
%endmacro

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

; offset of the saved CS once the vector and error code are pushed
FRAME_CS_AFTER_VECTOR equ 24

%macro VECTOR_STUB 1
align 16
vector_%1:
%if !HAS_ERROR(%1)
	push 0
%endif
	push %1
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
	test qword [rsp + FRAME_CS_AFTER_VECTOR], 3
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
	test qword [rsp + FRAME_CS_AFTER_VECTOR], 3
	jz .to_kernel
	SWAPGS
.to_kernel:
	add rsp, 16			; vector and error code
	INTERRUPT_RETURN

; An exception taken inside the NMI handler (a probe's fault, a #DB) goes
; back into it without iretq: iretq would unblock NMIs, and the next NMI,
; arriving on the same IST stack while this one still runs there, would
; write its frame over the running one's (Linux's "NMI nesting" problem,
; kernel/x86/traps.c). Same privilege, same stack: rip and rflags go just
; below the interrupted rsp (the kernel has no red zone), then popfq; ret.
; Those two words may overlap the frame's ss and rsp, so rsp is read first
; and the target kept in the error code's slot.
return_within_nmi:
	RESTORE_REGS
	push rax
	push rbx			; now: rbx rax vector error rip cs rflags rsp ss
	mov rax, [rsp + 56]		; the interrupted rsp
	sub rax, 16
	mov rbx, [rsp + 32]		; rip
	mov [rax + 8], rbx
	mov rbx, [rsp + 48]		; rflags
	mov [rax], rbx
	mov [rsp + 24], rax
	pop rbx
	pop rax
	mov rsp, [rsp + 8]
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
	add rsp, 16
	iretq

; The syscall instruction: rip in rcx, rflags in r11, interrupts off (FMASK),
; still on the user stack. Switch to the task's kernel stack and build the
; same struct trap_frame as an interrupt would (vector SYSCALL_VECTOR), so
; that every later path - fork, execve, signals - sees one frame layout.
SYSCALL_VECTOR equ 0x100
USER_DS equ 0x23
USER_CS equ 0x2b
extern syscall_from_user

global syscall_entry
syscall_entry:
	swapgs
	mov [gs:8], rsp			; struct cpu.user_rsp
	mov rsp, [gs:16]		; struct cpu.kernel_rsp
	push USER_DS			; ss
	push qword [gs:8]		; rsp
	push r11			; rflags
	push USER_CS			; cs
	push rcx			; rip
	push 0				; error code
	push SYSCALL_VECTOR
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
	mov rsp, [rsp + 16 + 24]	; skip vector, error, rip, cs, rflags: the user rsp
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
