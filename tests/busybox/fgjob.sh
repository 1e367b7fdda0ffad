# fgjob.sh - a job for tools/busybox-check's console: it waits until its
# process group is the terminal's foreground group (fields 5 and 8 of
# /proc/self/stat), says so, then sleeps. A key typed once that line shows
# reaches the job, never the shell: `fg` prints the job's name before it
# hands the terminal over, so that name is no sign to type at.
until busybox awk '{ exit $5 != $8 }' /proc/self/stat; do busybox usleep 10000; done
echo "in the foreground"
exec busybox sleep 100
