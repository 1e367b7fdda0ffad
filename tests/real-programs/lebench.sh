#!/bin/busybox sh
# lebench.sh - runs LEBench's benchmark program (OS_Eval, from the SOSP'19
# study of Linux's core operations) in one boot of rewind or Linux, without
# the study's kernel-installing driver (run.py): OS_Eval finds its files
# through LEBENCH_DIR, its AF_UNIX socket at $LEBENCH_DIR/TEST_DIR/socket
# (and removes /TEST_DIR/socket: so LEBENCH_DIR is /), its test file in the
# working directory, and writes its figures to $LEBENCH_DIR/output.NAME.csv,
# which this prints after "== csv". Should OS_Eval die first (its
# calc_k_closest returns NULL when the sorted samples of a test end
# without two neighbours under a second and within 5 % of each other,
# which few slow, noisy samples under TCG can do), its unrenamed
# new_output_file.csv is printed instead: the figures stdio had flushed.
# Argument: the OS_Eval binary (built as docs/real-programs.md says).
# Run with tools/rewind-run [--linux]
# --add DIR:/leb --add tests/real-programs:/rp /bin/busybox sh /rp/lebench.sh
# /leb/OS_Eval
bin=${1:-/leb/OS_Eval}
mkdir -p /TEST_DIR
cd /TEST_DIR || exit 1
echo "== $bin 0 run"
LEBENCH_DIR=/ "$bin" 0 run 2>&1
echo "-- status $?"
echo "== csv"
cat /output.run.csv 2>/dev/null || cat /new_output_file.csv
echo "== done"
