#!/bin/busybox sh
# lmbench-ipc.sh - runs lmbench3's socket and select programs (lat_unix,
# bw_unix, lat_unix_connect, lat_select on files and on TCP) in one boot of
# rewind or Linux, in lmbench.sh's format: "== PROGRAM ARGS", the program's
# own output, "-- status N". The programs, built unmodified
# (docs/real-programs.md), are in /lmb. lat_select tcp connects to
# "localhost", so the loopback is brought up and named where the guest has
# not done it (Linux's initramfs). ENOUGH in the environment is lmbench's
# time per figure (microseconds). Run with tools/rewind-run [--linux]
# --env ENOUGH=200000 --add DIR:/lmb --add tests/real-programs:/rp
# /bin/busybox sh /rp/lmbench-ipc.sh
cd /tmp || exit 1
busybox ip link set lo up 2>/dev/null
[ -s /etc/hosts ] || echo "127.0.0.1 localhost" >/etc/hosts
run() { echo "== $*"; busybox timeout 240 "$@" 2>&1; echo "-- status $?"; }
L=/lmb
run $L/lat_unix
run $L/bw_unix
$L/lat_unix_connect -s &
busybox sleep 1
run $L/lat_unix_connect
run $L/lat_unix_connect -S
wait
run $L/lat_select -n 10 file
run $L/lat_select -n 100 file
run $L/lat_select -n 10 tcp
run $L/lat_select -n 100 tcp
echo "== done"
