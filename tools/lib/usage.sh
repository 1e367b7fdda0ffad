# shellcheck shell=sh
# usage.sh - a tool's usage message is its header comment: the comment
# lines after "#!", up to the first line that is not one, without their
# "# ". Sourced by the tools that take arguments, so that the message
# cannot drift from the comment that documents them. The message begins
# with a "usage: " line for each synopsis line of the header (an indented
# line whose first word is the tool's name), as argparse's do in the
# Python tools (reprolib/usage.py). Plain sh, so that sh tools source it too.
#
#   usage [ARG]    ARG -h or --help: the message on stdout, exit status 0;
#                  otherwise a bad command line: on stderr, exit status 2

usage() {	# usage [ARG]: the argument that stopped the parse, if any
	case ${1:-} in
	-h | --help)
		usage_text
		exit 0
		;;
	*)
		usage_text >&2
		exit 2
		;;
	esac
}

usage_header() {
	awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0" | sed 's/^# \{0,1\}//'
}

usage_text() {
	usage_header | awk -v tool="${0##*/}" '/^[ \t]/ && $1 == tool { sub(/^[ \t]+/, ""); print "usage: " $0 }'
	echo
	usage_header
}
