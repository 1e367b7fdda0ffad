# jobs.sh - busybox ash job control in a script (ash -m, run by tools/jobcontrol-check
# under `busybox setsid -c`): a background job stopped and continued, killed and
# waited for; what it prints is compared with the expected lines there.
stopped() { grep -q '^State:.T' /proc/$1/status; }
sleep 100 &
pid=$!
kill -STOP $pid
until stopped $pid; do :; done
jobs
kill -CONT $pid
while stopped $pid; do :; done
echo continued
kill $pid
wait $pid
echo "killed: $?"
sleep 1 &
wait %%
echo "waited: $?"
