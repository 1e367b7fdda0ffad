# shellcheck shell=bash
# shared-objects.sh - what a dynamically linked host program needs to run
# in a guest: its interpreter and shared libraries, copied into the guest's
# root tree at the paths where this host's loader finds them. Sourced by
# tools/rewind-run (any program) and tools/xfs-repair-stage (regression 2's
# xfs_repair), so that both stage a program one way.
#
#   stage_shared_objects ROOT FILE...
#
# Libraries a program opens later by name (dlopen: plugins, NSS, gconv) are
# not found this way; the caller brings them.

# The files a dynamically linked ELF needs at run time, as the host's loader
# resolves them (ldd asks it: ld.so --list): the interpreter at the path
# PT_INTERP names and each library at the path the loader found, one a line.
# Nothing for a static file or one that is not ELF. With glibc comes the one
# library glibc itself opens by name: libgcc_s.so.1, beside libc.so.6, which
# pthread_exit and pthread_cancel load to unwind the thread's stack.
shared_objects_of() {	# shared_objects_of FILE
	readelf -lW "$1" 2>/dev/null | grep -q "Requesting program interpreter" || return 0
	ldd "$1" 2>/dev/null | awk '
		$2 == "=>" && $3 ~ /^\// { print $3 }
		$1 ~ /^\// { print $1 }
		$1 == "libc.so.6" && $3 ~ /^\// { sub(/libc\.so\.6$/, "libgcc_s.so.1", $3); print "?" $3 }' |
		while read -r so; do
			[[ $so != \?* ]] && echo "$so" && continue
			[ -e "${so#\?}" ] && echo "${so#\?}"
		done
}

# Copies them under ROOT at the same paths (their contents, not the host's
# symbolic links: the guest has no merged /usr), for every regular FILE.
stage_shared_objects() {	# stage_shared_objects ROOT FILE...
	local root=$1 f so
	shift
	for f in "$@"; do
		[ -f "$f" ] || continue
		shared_objects_of "$f"
	done | sort -u | while read -r so; do
		mkdir -p "$root$(dirname "$so")"
		cp -L "$so" "$root$so" || exit 1	# the loop's subshell: the pipeline fails
	done
}
