; entry.asm - the first and last instructions of every exception and
; interrupt: one stub per vector, a common path that saves all registers
; into a struct trap_frame (kernel/x86/traps.h) and calls trap_dispatch(), and
; the iretq return; and the entry of the vsyscall page's int $0xcc.
;
; GS: the kernel runs with its per-CPU pointer in the GS base; user mode has
; its own. An entry from user mode (CS RPL 3) does swapgs on the way in and
; out. NMI, #DF and #MC can arrive anywhere, even between a user-mode entry
; and its swapgs, so they use the "paranoid" path: it reads the GS base MSR
; and swaps only if it does not already hold a kernel address.

bits 64
section .text

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

extern trap_dispatch

; The vector and error code are pushed: swapgs if from user mode, save
; every register, and hand the frame to C (rdi). Shared by the interrupt
; gate entries: every vector's, and the vsyscall page's int $0xcc.
%macro ENTER_FROM_GATE 0
	test qword [rsp + FRAME_CS_AFTER_VECTOR], 3
	jz %%from_kernel
	swapgs
%%from_kernel:
	SAVE_REGS
	cld
	CLEAR_AC
	mov rdi, rsp
%endmacro

trap_entry:
	ENTER_FROM_GATE
	call trap_dispatch
global trap_return
trap_return:
	cli				; from here to iretq: no interrupt may see a user GS
	RESTORE_REGS
	test qword [rsp + FRAME_CS_AFTER_VECTOR], 3
	jz .to_kernel
	swapgs
.to_kernel:
	add rsp, 16			; vector and error code
	iretq

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
; faithfully (rsp = the frame; its rcx/r11 equal its rip/rflags, rip is
; canonical: kernel/syscall/syscall.c, sysret_allowed). A trap handler may leave
; through here too instead of iretq (the vsyscall milestone's trap-sysret).
global sysret_return
sysret_return:
	cli
	RESTORE_REGS
	mov rsp, [rsp + 16 + 24]	; skip vector, error, rip, cs, rflags: the user rsp
	swapgs
	o64 sysret

; int $0xcc from the vsyscall page (vsyscall=trap or trap-sysret,
; kernel/vdso/vsyscall.c): the trap_entry path, except that the C side decides
; how to leave - sysret when it could make the frame fit (trap-sysret),
; else iretq. The IDT reaches it through trap_stubs below.
VSYSCALL_VECTOR equ 0xcc
extern vsyscall_int_from_user

vsyscall_int_entry:
	push 0				; error code
	push VSYSCALL_VECTOR
	ENTER_FROM_GATE			; from kernel mode: the C side reports a kernel bug
	call vsyscall_int_from_user	; returns 1 when leaving by sysret
	test eax, eax
	jz trap_return
	jmp sysret_return

section .rodata
global trap_stubs
align 8
trap_stubs:
%assign v 0
%rep 256
%if v == VSYSCALL_VECTOR
	dq vsyscall_int_entry
%else
	dq vector_%+v
%endif
%assign v v + 1
%endrep

section .note.GNU-stack noalloc noexec nowrite progbits
