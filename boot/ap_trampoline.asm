; ap_trampoline.asm - the first code an application processor runs.
;
; An AP starts in 16-bit real mode at the page named by the startup IPI.
; kernel/x86/smp.c copies this blob to AP_TRAMPOLINE (0x8000, a page below
; 1 MiB), fills in the parameter block at its end, and sends INIT-SIPI-SIPI.
; The code here goes real -> protected -> long mode with the temporary page
; tables the BSP prepared (the kernel half plus an identity map of the low
; 1 GiB, since paging is turned on while running from this low page), then
; jumps to ap_main(cpu) in the higher half on the AP's own stack.
;
; The blob is position-dependent on its destination: every address below
; is written as AP_TRAMPOLINE + (label - ap_trampoline_start).

AP_TRAMPOLINE equ 0x8000
%define ABS(label) (AP_TRAMPOLINE + (label) - ap_trampoline_start)

section .rodata
global ap_trampoline_start, ap_trampoline_end, ap_trampoline_params

bits 16
ap_trampoline_start:
	cli
	cld
	xor ax, ax
	mov ds, ax
	mov es, ax
	mov ss, ax
	lgdt [ABS(tramp_gdt_ptr)]
	mov eax, cr0
	or eax, 1			; PE
	mov cr0, eax
	jmp dword 0x08:ABS(tramp_pm32)

bits 32
tramp_pm32:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov eax, cr4
	or eax, (1 << 5) | (1 << 7)	; PAE, PGE
	mov cr4, eax
	mov eax, [ABS(param_cr3)]
	mov cr3, eax
	mov ecx, 0xc0000080		; EFER: long mode, NX
	rdmsr
	or eax, (1 << 8) | (1 << 11)
	wrmsr
	mov eax, cr0
	or eax, (1 << 31) | (1 << 16)	; PG, WP
	mov cr0, eax
	jmp 0x18:ABS(tramp_lm64)

bits 64
tramp_lm64:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov rsp, [ABS(param_stack)]
	mov rdi, [ABS(param_cpu)]
	xor ebp, ebp
	mov rax, [ABS(param_entry)]
	jmp rax				; ap_main(cpu): never returns

align 8
tramp_gdt:
	dq 0
	dq 0x00cf9a000000ffff		; 0x08: 32-bit code
	dq 0x00cf92000000ffff		; 0x10: data
	dq 0x00209a0000000000		; 0x18: 64-bit code
tramp_gdt_ptr:
	dw tramp_gdt_ptr - tramp_gdt - 1
	dd ABS(tramp_gdt)

; Filled in by kernel/x86/smp.c for each AP (struct ap_params).
align 8
ap_trampoline_params:
param_cr3:	dq 0
param_stack:	dq 0
param_entry:	dq 0
param_cpu:	dq 0
ap_trampoline_end:

section .note.GNU-stack noalloc noexec nowrite progbits
