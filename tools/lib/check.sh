# shellcheck shell=bash
# check.sh - the verdict lines of the shell checkers (tools/busybox-check,
# dynamic-check, fuzz-check, ptrace-check, rewind-run-check, strace-check,
# torture-check, trinity-check): a line per check, "  [TAG] ok   NAME" or
# "  [TAG] FAIL NAME: DETAIL", and last the counts, "N passed, N failed",
# the line tools/test-all adds up into make test's own last line. Sourced,
# so that every checker words and counts its verdicts one way.
#
#   check NAME STATUS DETAIL    STATUS 0 passes; DETAIL says why it failed
#   check_summary               the counts line; status 0 when nothing failed
#
# TAG is the checker's name without "-check" (busybox-check: busybox);
# passed and failed hold the counts so far.

check_tag=${0##*/}
check_tag=${check_tag%-check}
passed=0 failed=0

check() {	# check NAME STATUS DETAIL
	if [ "$2" = 0 ]; then
		echo "  [$check_tag] ok   $1"
		passed=$((passed + 1))
	else
		echo "  [$check_tag] FAIL $1: $3"
		failed=$((failed + 1))
	fi
}

check_summary() {	# a checker's last line and, as its last command, its exit status
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
