; vdso_image.asm - the user-mode code the kernel maps, built from
; user/vdso/ (user/vdso/vdso.mk) and embedded here, page-aligned, so that
; its pages can be mapped into user mode as they are:
;   vdso_image            the vDSO shared object (kernel/vdso/vdso.c)
;   vsyscall_legacy_page  the vsyscall page of vsyscall=legacy (kernel/vdso/vsyscall.c)

; Page alignment with zero padding: no other kernel data shares a page mapped to user mode.
section .rodata align=4096

global vdso_image, vdso_image_end
align 4096, db 0
vdso_image:
	incbin "vdso.so"
vdso_image_end:

global vsyscall_legacy_page
align 4096, db 0
vsyscall_legacy_page:
	incbin "vsyscall_legacy.bin"

section .note.GNU-stack noalloc noexec nowrite progbits
