#!/bin/busybox sh
# lmbench.sh - runs the lmbench3 programs (those that need no
# network) one after the other, in one boot of rewind or Linux: a line
# "== PROGRAM ARGS", the program's own output, "-- status N". The programs,
# built unmodified (docs/real-programs.md), are in /lmb; `lat_proc exec`
# runs /tmp/hello. ENOUGH in the environment is lmbench's time per figure
# (microseconds). Run with tools/rewind-run [--linux] --env ENOUGH=200000
# --add DIR:/lmb --add tests/real-programs:/rp /bin/busybox sh /rp/lmbench.sh
cp /lmb/hello /tmp/hello
cd /tmp
busybox dd if=/dev/zero of=/tmp/XXX bs=1024 count=8192 2>/dev/null
run() { echo "== $*"; busybox timeout 240 "$@" 2>&1; echo "-- status $?"; }
L=/lmb
run $L/lat_syscall null
run $L/lat_syscall read
run $L/lat_syscall write
run $L/lat_syscall stat /tmp/XXX
run $L/lat_syscall fstat /tmp/XXX
run $L/lat_syscall open /tmp/XXX
run $L/lat_sig install
run $L/lat_sig catch
run $L/lat_sig prot /tmp/XXX
run $L/lat_pipe
run $L/lat_proc fork
run $L/lat_proc exec
run $L/lat_proc shell
run $L/lat_ctx -s 0 2 4
run $L/lat_pagefault /tmp/XXX
run $L/lat_mmap 8m /tmp/XXX
run $L/lat_fs /tmp
run $L/lat_select -n 100 file
run $L/lat_fcntl
run $L/bw_file_rd 8m io_only /tmp/XXX
run $L/bw_file_rd 8m open2close /tmp/XXX
run $L/bw_mmap_rd 8m mmap_only /tmp/XXX
run $L/bw_mmap_rd 8m open2close /tmp/XXX
run $L/bw_pipe
run $L/bw_mem 8m rd
run $L/bw_mem 8m wr
run $L/bw_mem 8m bcopy
echo "== done"
