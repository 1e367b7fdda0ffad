; switch.asm - the stack switch at the heart of a context switch, and the
; first instructions a new task runs.
;
; switch_stacks(&prev->saved_rsp, next->saved_rsp, prev) saves the
; callee-saved registers on the old stack, stores its stack pointer, loads
; the new one and restores that task's registers. It "returns" in the next
; task, handing back in rax the task that ran before (its third argument,
; which survives the switch in rdx), so the new context can finish the
; switch for it. Everything else a switch involves is C (kernel/sched/sched.c).

bits 64
section .text

global switch_stacks
switch_stacks:
	push rbp
	push rbx
	push r12
	push r13
	push r14
	push r15
	mov [rdi], rsp
	mov rsp, rsi
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbx
	pop rbp
	mov rax, rdx
	ret

; A new task's stack is built (kernel/sched/sched.c) so that switch_stacks "returns"
; here with the previous task in rax.
extern task_first_run
global task_entry
task_entry:
	mov rdi, rax
	xor ebp, ebp			; end of frame-pointer chains
	call task_first_run		; never returns

section .note.GNU-stack noalloc noexec nowrite progbits
