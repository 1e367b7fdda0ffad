# shellcheck shell=bash
# linux-guest.sh - boots Debian's Linux (linux-image-amd64) in the very VM
# rewind runs in (tools/qemu-run's accelerator, -cpu, CPUs, memory), with a
# small initramfs of busybox-static, tools/linux-guest-init and a caller's
# directory laid over it: the "Linux, same VM" column of every figure.
# Sourced by tools/rewind-run (one program) and used by tools/reproduce
# (an experiment script), so that both boot Linux one way.
#
#   linux_boot LOG ROOT TIMEOUT [KNOB=VALUE ...]
#
# ROOT must hold /etc/run-command, a line "set -- /bin/PROG 'ARG' ..." that
# the guest's /init sources and runs between "@run-begin" and "@exit N".
# KNOB=VALUE are rewind knobs: those Linux also has replace its defaults,
# the others are ignored with a warning. Environment: CPUS, MEM (as for
# qemu-run), LINUX_KERNEL=FILE boots another bzImage. Not for: rewind
# boots, or reading the guest's output (the callers parse LOG).

linux_guest_tools=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Linux's command line: the serial console; quiet, that is warnings and
# errors only (rewind gets loglevel=4); no reboot loop after a panic; and
# the TCG pitfalls of docs/design.md ("Linux in the same VM"): without
# tsc=reliable Linux drops the TSC and its vDSO falls back to syscalls, and
# Debian's kernel defaults to vsyscall=none where rewind emulates;
# norandmaps, because rewind places the vDSO at one address by default
# (randomize_va_space=0): under TCG the same code's cost depends on its address.
linux_defaults=(console=ttyS0 quiet panic=-1 tsc=reliable vsyscall=emulate norandmaps)
# rewind knobs that Linux has under the same name and meaning: "value" ones
# pass as name=value, "flag" ones become a bare name when true.
declare -A linux_knobs=([vsyscall]=value [loglevel]=value [nox2apic]=flag)

# QEMU 7.2's round-robin TCG under icount hands each vCPU in turn the
# whole time left to the next timer; a vCPU that never halts spends it all,
# and the next vCPU gets none. Linux's boot CPU busy-waits (schedule() in a
# loop) for the second to answer the SIPI, so the second never runs and the
# boot never ends (docs/grounds.md, "Linux on the icount ground"). There
# Linux keeps one CPU online (maxcpus=1); the @meta line's cpus says so.
linux_icount_params() {	# linux_icount_params: the parameters the icount ground needs, if any
	local accel
	accel=$("$linux_guest_tools/qemu-run" --print-accel) || exit 2
	if [ "$accel" = icount ] && [ "${CPUS:-2}" -gt 1 ]; then
		echo "${0##*/}: Linux: under ACCEL=icount its second vCPU never runs (QEMU 7.2, docs/grounds.md); booting with maxcpus=1" >&2
		echo maxcpus=1
	fi
}

linux_guest_die() {
	echo "${0##*/}: $*" >&2
	exit 2
}

pack_cpio() {	# pack_cpio DIR OUT: DIR's tree as a newc archive, owned by root, in name order
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$2"
}

linux_kernel() {	# prints the bzImage to boot: $LINUX_KERNEL, else the newest /boot/vmlinuz-*
	local k=${LINUX_KERNEL:-}
	[ -n "$k" ] || k=$(compgen -G '/boot/vmlinuz-*' | sort -V | tail -n 1)
	{ [ -n "$k" ] && [ -r "$k" ]; } ||
		linux_guest_die "cannot read a Linux kernel (${k:-no /boot/vmlinuz-*}); see tools/deps --linux-guest"
	echo "$k"
}

# build/linux-guest/skeleton.cpio: static busybox with a link for every
# applet (so that a program's system() finds /bin/sh), /init and the empty
# mount points. Rebuilt when busybox or the init script changes (a content
# key, since dpkg keeps a package's old mtimes); built aside and renamed,
# so that runs in parallel never read half an archive.
linux_skeleton() {	# prints the skeleton archive's path
	local dir=$linux_guest_tools/../build/linux-guest key tmp applet
	key=$(cat /bin/busybox "$linux_guest_tools/linux-guest-init" | sha256sum) || exit 2
	if [ -f "$dir/skeleton.cpio" ] && [ "$(cat "$dir/skeleton.key" 2>/dev/null)" = "$key" ]; then
		echo "$dir/skeleton.cpio"
		return
	fi
	mkdir -p "$dir" && tmp=$(mktemp -d "$dir/build.XXXXXX") || exit 2
	mkdir -p "$tmp"/root/{bin,dev,etc,proc,sys,tmp}
	cp /bin/busybox "$tmp/root/bin/busybox"
	for applet in $(/bin/busybox --list); do
		[ -e "$tmp/root/bin/$applet" ] || ln -s busybox "$tmp/root/bin/$applet"
	done
	install -m 755 "$linux_guest_tools/linux-guest-init" "$tmp/root/init"
	pack_cpio "$tmp/root" "$tmp/skeleton.cpio" || exit 2
	echo "$key" > "$tmp/skeleton.key"
	mv "$tmp/skeleton.cpio" "$dir/skeleton.cpio" && mv "$tmp/skeleton.key" "$dir/skeleton.key"
	rm -rf "$tmp"
	echo "$dir/skeleton.cpio"
}

linux_cmdline() {	# linux_cmdline [KNOB=VALUE ...]: Linux's parameters, the knobs Linux has in place of its defaults
	local params=("${linux_defaults[@]}") k kname value p kept
	for k in "$@"; do
		kname=${k%%=*} value=${k#*=}
		case ${linux_knobs[$kname]:-} in
		"") echo "${0##*/}: Linux: '$kname' is a rewind knob that Linux lacks; ignored" >&2
		    continue ;;
		flag) case $value in
		      1|on|yes|true|y) k=$kname ;;
		      *) k="" ;;
		      esac ;;
		esac
		kept=()
		for p in "${params[@]}"; do
			[ "${p%%=*}" = "$kname" ] || kept+=("$p")
		done
		params=("${kept[@]}")
		[ -n "$k" ] && params+=("$k")
	done
	echo "${params[*]}"
}

linux_boot() {	# linux_boot LOG ROOT TIMEOUT [KNOB=VALUE ...]: QEMU's status
	local log=$1 root=$2 tmo=$3 kernel skeleton work status=0
	shift 3
	"$linux_guest_tools/deps" --linux-guest || exit 2
	kernel=$(linux_kernel) || exit 2
	skeleton=$(linux_skeleton) || exit 2
	work=$(mktemp -d) || exit 2
	pack_cpio "$root" "$work/root.cpio" || exit 2
	# Linux unpacks concatenated archives in turn: ROOT lands over the skeleton.
	cat "$skeleton" "$work/root.cpio" > "$work/initramfs.cpio"
	CPUS=${CPUS:-2} MEM=${MEM:-512M} \
		"$linux_guest_tools/qemu-run" --kernel "$kernel" --initrd "$work/initramfs.cpio" \
		--append "$(linux_cmdline "$@") $(linux_icount_params)" --headless --log "$log" --timeout "$tmo" || status=$?
	rm -rf "$work"
	return $status
}
