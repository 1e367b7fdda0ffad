# applets.sh - Debian's busybox as a tool set: --install -s, then the shell
# (pipes, redirections, here-documents, &, wait), files and links, text
# tools, processes and signals, /proc and the mounts, mount and umount. tools/busybox-check
# runs it on rewind (with --linux on Linux too); its output must be
# applets.expected on both kernels, so every line depends on behaviour
# only, never on pids, sizes or times.
echo "== applets"
b=/tmp/bbin
busybox mkdir $b && busybox --install -s $b
echo "install: $? $(busybox readlink $b/sed) $(busybox ls $b | busybox wc -l)"
export PATH=$b:$PATH
cd /tmp

echo "== shell"
echo "pipe: $(printf 'b\na\nc\n' | sort | tr '\n' ' ')"
echo one > f; echo two >> f; wc -l < f; cat f nosuch 2>/dev/null | wc -l
cat nosuch 2>&1 | sed 's/^cat: //'
{ echo out; echo err >&2; } > both 2>&1; cat both | tr '\n' ' '; echo
x=world
cat <<END
heredoc: hello $x $(echo sub)
END
cat <<'END'
quoted: hello $x
END
sleep 3 & p=$!; echo "bg running: $(kill -0 $p && echo yes)"; wait $p; echo "wait: $?"
(exit 3) & wait $!; echo "wait status: $?"

echo "== files"
mkdir -p d/e; echo data > d/e/g; ln -s e d/l; ln d/e/g d/h
find d | sort | tr '\n' ' '; echo
find d -type l; find d -name g -follow | sort | tr '\n' ' '; echo
echo "links: $(readlink d/l) $(cat d/l/g) $(stat -c %h d/h) $(stat -L -c %F d/l) $(stat -c %F d/l)"
ln -s loop2 loop1; ln -s loop1 loop2; cat loop1 2>&1
find d -type f | xargs cat
find d -type f -print0 | xargs -0 -n 1 echo file: | sort
seq 1 7 | xargs -n 3 echo
tar cf t.tar d && tar tf t.tar | sort | tr '\n' ' '; echo
mkdir x && tar xf t.tar -C x && cat x/d/l/g && readlink x/d/l
tar czf t.tgz d && tar tzf t.tgz | wc -l

echo "== text"
printf '3 c\n1 a\n2 b\n10 j\n' > n
sort n | tr '\n' ' '; echo; sort -n n | tr '\n' ' '; echo; sort -k2 -r n | head -1
sed -n '2p' n; sed 's/[0-9]*/<&>/' n | tail -1; sed -i 's/a/A/' n; grep A n
awk '{ s += $1; w = w $2 } END { print "sum", s, w, NR }' n
printf 'x\ny\nx\n' | sort | uniq -c | awk '{print $1 $2}' | tr '\n' ' '; echo

echo "== processes"
timeout 1 sleep 10; echo "timeout: $?"
timeout -s KILL 1 sleep 10; echo "timeout -s KILL: $?"
timeout 5 true; echo "timeout in time: $?"
# ash's own notice of a background job's death ("Terminated") comes out only when
# wait reaps it, not when an earlier command did: a race on Linux too, so it goes.
sleep 10 & p=$!; { kill $p; wait $p; } 2>/dev/null; echo "kill: $?"
sleep 10 & p=$!; kill -STOP $p
until grep -q '^State:.T' /proc/$p/status; do :; done; echo "stopped: $(grep State /proc/$p/status | cut -f2)"
kill -CONT $p
while grep -q '^State:.T' /proc/$p/status; do :; done; echo "continued"
{ kill -9 $p; wait $p; } 2>/dev/null; echo "kill -9: $?"
sleep 30 & p=$!
# Shown once it has run as far as its sleep (ash starts it through /proc/self/exe; busybox renames it).
until grep -q '^Name:.sleep$' /proc/$p/status && grep -q '^State:.S' /proc/$p/status; do :; done
ps -o pid,stat,args | awk -v p=$p '$1 == p { $1 = ""; print "ps:" $0 }'
ps | awk -v p=$p '$1 == p { print "ps default:", $3, $4 }'
top -b -n 1 | awk -v p=$p 'NR <= 3 { print "top:", $1 } $1 == p { print "top row:", $NF, $(NF-1) }'
echo "exe: $(readlink /proc/$p/exe) cwd: $(readlink /proc/$p/cwd) cmdline: $(tr '\0' ' ' < /proc/$p/cmdline)"
{ kill $p; wait $p; } 2>/dev/null
free | awk 'NR == 1 { print "free:", $1, $2, $3 } NR == 2 { print "free:", $1, ($2 > 0) }'
uptime | grep -q 'load average: [0-9.]*, [0-9.]*, [0-9.]*$' && echo "uptime: load average"
[ "$(uname -r)" = "$(cat /proc/sys/kernel/osrelease)" ] && echo "uname -r: osrelease"

echo "== mounts"
df /proc | tr -s ' ' | tail -1
df | head -1 | tr -s ' '
mount | grep ' /proc '
grep -c '^proc /proc proc ' /proc/mounts /proc/self/mounts
echo "== mount"
# A tmpfs of its own: a file in it, df, its /proc/mounts line (",inode64" is
# a kernel configuration's), EBUSY while the shell is inside, read-only after
# a remount, then a proc instance and an unknown type.
m=/tmp/m
mkdir $m && mount -t tmpfs -o size=1m none $m; echo "mount tmpfs: $?"
echo hello > $m/f; cat $m/f
df $m | tr -s ' ' | tail -1
df | grep " $m\$" | tr -s ' '
grep " $m " /proc/mounts | sed 's/,inode64//'
mount | grep " $m " | sed 's/,inode64//'
cd $m; umount $m 2>&1; echo "umount busy: $?"; cd /tmp
mount -o remount,ro $m; (echo ro > $m/g) 2>&1 | sed "s/.*: //"; grep " $m " /proc/mounts | cut -d" " -f4 | sed "s/,inode64//"
umount $m; echo "umount: $? $(ls $m | wc -l)"
mount -t proc proc $m && [ -d $m/self ] && echo "proc at $m: $(grep -c " $m proc " /proc/mounts)"
umount $m; mount -t nosuchfs none $m 2>&1; rmdir $m
echo "== done"
