; switch.asm - the stack switch at the heart of a context switch, and the
; first instructions a new task runs.
;
; switch_stacks(&prev->saved_rsp, next->saved_rsp, prev) saves the
; callee-saved registers on the old stack, stores its stack pointer, loads
; the new one and restores that task's registers. It "returns" in the next
; task, handing back in rax the task that ran before (its third argument,
; which survives the switch in rdx), so the new context can finish the
; switch for it. Everything else a switch involves is C (kernel/sched/sched.c).
; The stack it leaves is C's struct switch_frame (kernel/sched/switch.h),
; which also builds new tasks' stacks: SWITCH_POP checks each register
; against that layout while assembling, so the two cannot drift apart.

bits 64
section .text
%include "asm-offsets.inc"

; SWITCH_POP reg, FIELD: pop reg from the frame slot rsp points at (sw_slot),
; after checking that struct switch_frame puts FIELD (SW_FIELD) there.
%macro SWITCH_POP 2
%if sw_slot != SW_%2
%error pop of %1 reads switch frame offset sw_slot, struct switch_frame (switch.h) has %2 at SW_%2
%endif
	pop %1
%assign sw_slot sw_slot + 8
%endmacro

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
%assign sw_slot 0
	SWITCH_POP r15, R15
	SWITCH_POP r14, R14
	SWITCH_POP r13, R13
	SWITCH_POP r12, R12
	SWITCH_POP rbx, RBX
	SWITCH_POP rbp, RBP
%if sw_slot != SW_RET
%error switch_stacks returns through frame offset sw_slot, struct switch_frame has ret at SW_RET
%endif
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
