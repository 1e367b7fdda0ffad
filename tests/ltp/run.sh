#!/bin/busybox sh
# run.sh - runs a selection of LTP's system-call tests one after the
# other in one boot of rewind or Linux, each under `busybox timeout`, for
# tools/ltp. /ltp/bin holds the test programs (built by `tools/ltp
# --build`), /ltp/list the selection in LTP's runtest format: "TAG COMMAND
# [ARGS...]" a line. For each it prints "@ltp-begin TAG", the test's own
# output and "@ltp-end TAG STATUS"; tools/ltp reads the statuses.
#
# A small runner rather than LTP's runltp or kirk: those need perl or
# python in the guest, and the judgement they make (the exit status's
# TFAIL/TBROK/TWARN/TCONF bits) is one line of tools/ltp. The outer time
# limit LTP_TEST_TIMEOUT (seconds) catches a test that hangs despite LTP's
# own limit (30 s plus the test's runtime). The tests that run for a set
# time (LTP's max_runtime: races tried over and over, up to minutes each)
# run a tenth of it (LTP_RUNTIME_MUL), so that the selection takes one
# boot of an hour or so under TCG; the environment may say otherwise.
limit=${LTP_TEST_TIMEOUT:-60}
export LTP_RUNTIME_MUL=${LTP_RUNTIME_MUL:-0.1}
export LTPROOT=/ltp PATH=/ltp/bin:$PATH TMPDIR=/tmp LTP_COLORIZE_OUTPUT=0
cd /tmp || exit 1
while read -r tag cmd; do
	case $tag in '' | '#'*) continue ;; esac
	echo "@ltp-begin $tag"
	# A session of its own: a test that fails early may kill(0, SIGKILL)
	# with a pid it never set (recv01 without AF_INET), which must end the
	# test's process group, not this runner.
	busybox timeout -s KILL "$limit" busybox setsid busybox sh -c "$cmd" </dev/null 2>&1
	echo "@ltp-end $tag $?"
done </ltp/list
echo "@ltp-done"
