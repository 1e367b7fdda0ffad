# rewind profile v1
# profile=997: samples per second per CPU, by LAPIC timer NMI (now off); hz=1000
# stacks: frame pointers, at most 32 frames, leaf first, named in the kernel (function names)
# modes: k kernel, K kernel with interrupts off, u user (the frame is the user rip)
# cpu 0: 111 samples, 0 lost
3 0 k lapic_send_ipi smp_send_reschedule sched_start_task do_clone sys_fork syscall_dispatch syscall_from_user syscall_entry
1 0 k smp_call_mask tlb_flush_kernel_range unmap_and_free kstack_free task_free sys_wait4 syscall_dispatch syscall_from_user syscall_entry
1 0 k lapic_send_ipi smp_call_mask tlb_flush_kernel_range unmap_and_free kstack_free task_free sys_wait4 syscall_dispatch syscall_from_user syscall_entry
8 0 K finish_wait syscall_dispatch syscall_from_user syscall_entry
1 0 k sched_start_task do_clone sys_fork syscall_dispatch syscall_from_user syscall_entry
1 0 u 0x402200
1 0 K dequeue_signal signal_deliver do_work_before_user exit_to_user syscall_from_user syscall_entry
1 0 k up_write mm_fork do_clone sys_fork syscall_dispatch syscall_from_user syscall_entry
89 0 k sched_idle_loop kernel_main
5 0 K timers_run sched_tick lapic_tick irq_dispatch trap_dispatch trap_entry.from_kernel kernel_main
# cpu 1: 104 samples, 0 lost
6 1 K exit_to_user syscall_from_user syscall_entry
1 1 K exit_to_user user_trap trap_dispatch trap_entry.from_kernel
1 1 u 0x407386
2 1 K lapic_send_ipi smp_send_reschedule wake_up_task wake_up_all task_exit group_exit sys_exit_group syscall_dispatch syscall_from_user syscall_entry
4 1 K syscall_entry
3 1 k ratelimit_allow syscall_dispatch syscall_from_user syscall_entry
1 1 k knob_format_current procfs_format_knob show_knob proc_file_open file_open_dentry file_open_at openat_user sys_open syscall_dispatch syscall_from_user syscall_entry
7 1 k sched_idle_loop ap_main
1 1 K textgrid_flush fbcon_write console_write_all tty_write vfs_rw rwv_fd sys_writev syscall_dispatch syscall_from_user syscall_entry
1 1 K enter_from_user user_trap trap_dispatch trap_entry.from_kernel
1 1 k dput file_put fd_close sys_close syscall_dispatch syscall_from_user syscall_entry
1 1 K signal_work_on_return syscall_from_user syscall_entry
4 1 K trap_entry.from_kernel
1 1 K cputime_enter_kernel syscall_from_user syscall_entry
3 1 u 0x401277
2 1 u 0x401543
1 1 K do_work_before_user exit_to_user user_trap trap_dispatch trap_entry.from_kernel
1 1 K cputime_exit_kernel exit_to_user user_trap trap_dispatch trap_entry.from_kernel
1 1 u 0x407f00
9 1 k syscall_from_user syscall_entry
8 1 K syscall_from_user syscall_entry
1 1 k syscall_dispatch user_trap trap_dispatch trap_entry.from_kernel
3 1 u 0x401297
1 1 k proc_lookup walk_component path_parent path_lookup file_open_at openat_user sys_open syscall_dispatch syscall_from_user syscall_entry
1 1 K serial_write tty_write vfs_rw rwv_fd sys_writev syscall_dispatch syscall_from_user syscall_entry
1 1 u 0x408bcc
1 1 k sys_getppid user_trap trap_dispatch trap_entry.from_kernel
1 1 K fbdraw_glyph draw_glyph textgrid_flush fbcon_write console_write_all tty_write vfs_rw rwv_fd sys_writev syscall_dispatch syscall_from_user syscall_entry
1 1 u 0x406820
1 1 u 0x401220
1 1 u 0x40be3c
1 1 u 0x406612
1 1 u 0x40960b
1 1 K trap_return
1 1 u 0x401a40
1 1 u 0x4044d9
1 1 K send_signal signal_notify_parent task_exit group_exit sys_exit_group syscall_dispatch syscall_from_user syscall_entry
5 1 k syscall_dispatch syscall_from_user syscall_entry
6 1 K vector_128
1 1 k sys_getppid syscall_dispatch user_trap trap_dispatch trap_entry.from_kernel
1 1 u 0x401f18
1 1 k elf_parse do_execve sys_execve syscall_dispatch syscall_from_user syscall_entry
1 1 u 0x4089d0
1 1 k do_execve sys_execve syscall_dispatch syscall_from_user syscall_entry
1 1 u 0x404814
2 1 u 0x401285
2 1 k enter_from_user trap_dispatch trap_entry.from_kernel
1 1 u 0x405b70
1 1 u 0x7fffff7fd492
1 1 u 0x401270
1 1 u 0x4088fd
1 1 u 0x4095fd
1 1 K smp_send_reschedule wake_up_all task_exit group_exit sys_exit_group syscall_dispatch syscall_from_user syscall_entry
# end
