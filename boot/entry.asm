; entry.asm - multiboot2 header and the 32-bit entry that enters long mode.
;
; GRUB (or any multiboot2 loader) jumps to _start in 32-bit protected mode
; with paging off, EAX = 0x36d76289 and EBX = the physical address of the
; boot information. This code checks that it was really started that way and
; that the CPU can run a 64-bit kernel, builds provisional page tables, turns
; on long mode and jumps to the higher-half kernel (kernel/main.c).
;
; The provisional tables identity-map the low 4 GiB (everything a 32-bit
; loader can hand over lies there) and map the kernel image at
; 0xffffffff80000000. mm/paging.c replaces them with the real ones.
;
; A failed check prints one line to COM1 and to VGA text memory and halts;
; it never triple-faults.

MB2_MAGIC         equ 0xe85250d6
MB2_BOOT_MAGIC    equ 0x36d76289
MB2_ARCH_I386     equ 0
KERNEL_VMA        equ 0xffffffff80000000
COM1              equ 0x3f8

section .multiboot2 align=8
mb2_header:
	dd MB2_MAGIC
	dd MB2_ARCH_I386
	dd mb2_header_end - mb2_header
	dd 0x100000000 - (MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))
	; framebuffer request (type 5), optional: 1024x768x32, so that a UEFI
	; machine without VGA text mode still shows the console.
	align 8
	dw 5, 1
	dd 20
	dd 1024, 768, 32
	; page-align modules (type 6)
	align 8
	dw 6, 0
	dd 8
	; end tag
	align 8
	dw 0, 0
	dd 8
mb2_header_end:

section .boot.text progbits alloc exec nowrite
bits 32
global _start
_start:
	cli
	cld
	mov esp, boot32_stack_top
	mov edi, eax			; keep the loader's magic and info pointer
	mov esi, ebx
	rdtsc				; boot time zero, for printk timestamps
	mov [entry_tsc], eax
	mov [entry_tsc + 4], edx

	cmp edi, MB2_BOOT_MAGIC
	jne .not_multiboot2

	; CPUID itself exists on every CPU that can run this; check the
	; extended leaf for long mode (bit 29) and NX (bit 20).
	mov eax, 0x80000000
	cpuid
	cmp eax, 0x80000001
	jb .no_long_mode
	mov eax, 0x80000001
	cpuid
	test edx, 1 << 29
	jz .no_long_mode
	test edx, 1 << 20
	jz .no_nx

	call build_boot_page_tables

	mov eax, cr4
	or eax, 1 << 5			; PAE
	mov cr4, eax
	mov eax, boot_pml4
	mov cr3, eax
	mov ecx, 0xc0000080		; EFER
	rdmsr
	or eax, (1 << 8) | (1 << 11)	; LME, NXE
	wrmsr
	mov eax, cr0
	or eax, (1 << 31) | (1 << 16)	; PG, WP
	mov cr0, eax

	lgdt [boot_gdt_ptr]
	jmp 0x08:long_mode_entry

.not_multiboot2:
	mov ebx, msg_not_mb2
	jmp boot_fail
.no_long_mode:
	mov ebx, msg_no_lm
	jmp boot_fail
.no_nx:
	mov ebx, msg_no_nx
	jmp boot_fail

; Identity map 0..4 GiB and map 0..1 GiB again at KERNEL_VMA, with 2 MiB pages.
build_boot_page_tables:
	mov eax, boot_pdpt_low
	or eax, 3
	mov [boot_pml4], eax
	mov eax, boot_pdpt_high
	or eax, 3
	mov [boot_pml4 + 511 * 8], eax
	xor ecx, ecx
.pdpt:
	mov eax, ecx
	shl eax, 12
	add eax, boot_pd
	or eax, 3
	mov [boot_pdpt_low + ecx * 8], eax
	inc ecx
	cmp ecx, 4
	jb .pdpt
	mov eax, boot_pd
	or eax, 3
	mov [boot_pdpt_high + 510 * 8], eax
	xor ecx, ecx
.pd:
	mov eax, ecx
	shl eax, 21
	or eax, 0x83			; present, writable, 2 MiB
	mov [boot_pd + ecx * 8], eax
	mov eax, ecx
	shr eax, 11			; bits 32+ of the physical address
	mov [boot_pd + ecx * 8 + 4], eax
	inc ecx
	cmp ecx, 2048
	jb .pd
	ret

; Print the NUL-terminated string at EBX on COM1 and the VGA screen, then halt.
boot_fail:
	mov dx, COM1 + 3
	mov al, 0x80			; DLAB on: divisor 1 = 115200 baud
	out dx, al
	mov dx, COM1
	mov al, 1
	out dx, al
	mov dx, COM1 + 1
	xor al, al
	out dx, al
	mov dx, COM1 + 3
	mov al, 3			; 8N1, DLAB off
	out dx, al
	mov edi, 0xb8000
.next:
	mov al, [ebx]
	test al, al
	jz .halt
	mov ah, 0x4f			; white on red
	mov [edi], ax
	add edi, 2
	mov ah, al
	mov dx, COM1 + 5
.wait:
	in al, dx
	test al, 0x20
	jz .wait
	mov dx, COM1
	mov al, ah
	out dx, al
	inc ebx
	jmp .next
.halt:
	hlt
	jmp .halt

bits 64
long_mode_entry:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor ax, ax
	mov fs, ax
	mov gs, ax
	; boot_stack is a struct static_stack (mm/kstack_static.h): a 4 KiB
	; guard page, then KSTACK_SIZE (16 KiB) of stack.
	mov rsp, boot_stack + 4096 + 16384
	xor ebp, ebp			; terminates frame-pointer backtraces
	mov edi, edi			; upper halves are undefined after the mode switch
	mov esi, esi
	mov rdx, [abs entry_tsc]
	mov rax, kernel_main
	call rax			; kernel_main(magic, info_phys, entry_tsc); never returns
.hang:
	hlt
	jmp .hang

extern kernel_main
extern boot_stack

section .boot.data progbits alloc noexec write align=16
boot_gdt:
	dq 0
	dq 0x00209a0000000000		; 0x08: 64-bit code
	dq 0x0000920000000000		; 0x10: data
boot_gdt_ptr:
	dw boot_gdt_ptr - boot_gdt - 1
	dd boot_gdt
	align 8
entry_tsc:	dq 0
msg_not_mb2:	db "rewind: not started by a multiboot2 loader (bad magic in EAX); halting", 13, 10, 0
msg_no_lm:	db "rewind: this CPU has no 64-bit long mode; rewind needs an x86-64 CPU; halting", 13, 10, 0
msg_no_nx:	db "rewind: NX (no-execute) is unavailable or disabled in firmware; halting", 13, 10, 0

section .boot.bss nobits alloc noexec write align=4096
boot_pml4:	resb 4096
boot_pdpt_low:	resb 4096
boot_pdpt_high:	resb 4096
boot_pd:	resb 4 * 4096
		resb 4096
boot32_stack_top:

section .note.GNU-stack noalloc noexec nowrite progbits
