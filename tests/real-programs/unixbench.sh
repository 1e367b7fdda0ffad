#!/bin/busybox sh
# unixbench.sh - UnixBench 5.1's fstime, syscall, pipe, context1, spawn and
# execl, then fs_mark 3.3 with docs/seeds.md's seed 000 options scaled down, in one boot of
# rewind or Linux: a line "== PROGRAM ARGS", the program's own output,
# "-- status N". The programs, built unmodified (docs/real-programs.md), are
# in /ub, which execl finds through UB_BINDIR. Run with tools/rewind-run
# [--linux] --env UB_BINDIR=/ub --add DIR:/ub --add tests/real-programs:/rp
# /bin/busybox sh /rp/unixbench.sh
cd /tmp
run() { echo "== $*"; busybox timeout 240 "$@" 2>&1; echo "-- status $?"; }
U=/ub
run $U/fstime -c -t 5 -d /tmp -b 1024 -m 2000
run $U/fstime -r -t 5 -d /tmp -b 1024 -m 2000
run $U/fstime -w -t 5 -d /tmp -b 1024 -m 2000
run $U/syscall 5
run $U/syscall 5 getpid
run $U/pipe 5
run $U/context1 5
run $U/spawn 5
run $U/execl 5
busybox mkdir -p /tmp/fsm0 /tmp/fsm1 /tmp/fsm2 /tmp/fsm3
run $U/fs_mark -D 100 -S0 -n 1000 -s 0 -L 3 -d /tmp/fsm0 -d /tmp/fsm1 -d /tmp/fsm2 -d /tmp/fsm3
echo "== done"
