# jobs.sh - busybox ash job control in a script (ash -m, run by tools/busybox-check
# under `busybox setsid -c`): a background job stopped, continued with bg, killed
# and waited for. Our own lines say what happened; ash's job notices may vary
# with timing, so the check looks for these lines, not the whole output.
stopped() { grep -q '^State:.T' /proc/$1/status; }
sleep 100 &
pid=$!
kill -STOP $pid
until stopped $pid; do :; done
echo "jobs: $(jobs %1)"
bg %1
while stopped $pid; do :; done
echo "continued: $(jobs %1)"
kill %1
wait %1
echo "killed: $?"
sleep 1 &
wait %%
echo "waited: $?"
