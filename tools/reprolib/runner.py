"""runner - boots the guests of an experiment and turns their consoles into
records: one rewind boot, and with --with-linux one Linux boot per entry of
the experiment's linux_boots, each running the whole interleaved plan.

The host follows each console as it grows. A step that runs far past its
estimate (or a guest that never starts one) is taken for a hang: the guest is
killed, its console tail shown, the steps it finished kept, and a new boot
resumes with the steps that never began, as long as each boot gets further.
Ctrl-C ends the boot in progress the same way and stops the run.

Not for: statistics or the report (outputs.py).
"""
import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass

from . import console, experiments, load, plan, profile, records

BOOT_SECONDS = {"rewind": 2, "linux": 8}	# guest boot and power-off, for estimates
BOOT_LIMIT = 120	# seconds to the first step, and from the last to power-off
# How much longer a guest second takes on a ground than the experiment files'
# estimates (timed TCG). icount runs every vCPU on one host thread and counts
# 1 ns per instruction: a boot with syscall_bench -q took 19.5 s against
# TCG's 3.4 s on this 2-core host (load 4), about 6x.
GROUND_SLOWDOWN = {"icount": 6.0}
LINUX_LIB = "tools/lib/linux-guest.sh"


@dataclass
class Options:
    top: str		# the source tree
    build: str		# the build directory (its rewind.iso and user/bin/)
    out: str		# this run's results directory
    cpus: int
    memory: str
    quick: bool
    repeat: int | None	# overrides the experiments' repeat counts
    step_timeout: int | None	# seconds a step may run; default from its estimate
    with_linux: bool
    ground: str = ""	# the accelerator every boot uses (qemu-run's ACCEL); "": its choice

    @property
    def slowdown(self):
        return GROUND_SLOWDOWN.get(self.ground, 1.0)

    def step_limit(self, step):
        return self.step_timeout or int(60 + 5 * self.slowdown * step.seconds)

    def boot_limit(self):
        return int(BOOT_LIMIT * self.slowdown)


@dataclass(frozen=True)
class Boot:
    experiment: object
    kernel: str		# "rewind" or "linux"
    linux_params: str	# Linux's extra parameters ("vsyscall=xonly"), "" for rewind
    id: str
    cpus: int | None = None	# the experiment's CPU count for this boot; None: --cpus
    build: object = None	# experiments.Build: a second rewind build; None: the main one

    def plan(self, opts):
        e = self.experiment
        return plan.steps(e, opts.quick, opts.repeat or e.repeats(opts.quick), self.kernel == "linux",
                          self.cpus, self.build.name if self.build else None, self.vcpus(opts))

    def iso(self, opts):
        return os.path.join(opts.build, self.build.dir if self.build else "", "rewind.iso")

    def describe(self):
        return self.kernel + (f" ({self.build.name} build)" if self.build else "")

    def vcpus(self, opts):
        return self.cpus or opts.cpus

    def memory(self, opts):
        """--mem, or the experiment's memory if that is more."""
        wanted = self.experiment.memory
        if wanted and experiments.memory_mib(wanted) > experiments.memory_mib(opts.memory):
            return wanted
        return opts.memory

    def estimate(self, opts):
        return opts.slowdown * (BOOT_SECONDS[self.kernel] + sum(s.seconds for s in self.plan(opts)))


def boots(experiment, with_linux, only_cpus=()):
    """The boots of an experiment: per CPU count it lists (or once, at --cpus),
    one rewind boot and with_linux one per linux_boots entry. only_cpus: of
    the counts it lists, boot only these (--only-cpus)."""
    out = []
    counts = experiment.cpus or (None,)
    if only_cpus and experiment.cpus:
        counts = [c for c in counts if c in only_cpus]
    for cpus in counts:
        tail = f"-cpus{cpus}" if cpus else ""
        out.append(Boot(experiment, "rewind", "", f"{experiment.name}-rewind{tail}", cpus))
        for b in experiment.builds:
            out.append(Boot(experiment, "rewind", "", f"{experiment.name}-rewind-{b.name}{tail}", cpus, b))
        if with_linux:
            for i, params in enumerate(experiment.linux_boots):
                out.append(Boot(experiment, "linux", params, f"{experiment.name}-linux{i + 1}{tail}", cpus))
    return out


def _pack(opts, root, archive):
    subprocess.run(["bash", "-c", '. "$0" && pack_cpio "$1" "$2"',
                    os.path.join(opts.top, LINUX_LIB), root, archive], check=True)


def _stage(boot, boot_id, opts, steps):
    """The guest's root overlay and the command that boots it."""
    guest = os.path.join(opts.out, "guest", boot_id)
    root = os.path.join(guest, "root")
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, "reproduce.sh"), "w") as f:
        f.write(plan.guest_script(boot.experiment, steps, boot.kernel == "linux", boot.build is None))
    if boot.experiment.stage:
        subprocess.run([os.path.join(opts.top, boot.experiment.stage), root], check=True)
    log = os.path.join(opts.out, "logs", boot_id + ".log")
    # qemu-run's own time-out: the last guard, should the host's watch fail
    tmo = 2 * opts.boot_limit() + sum(opts.step_limit(s) for s in steps)
    env = dict(os.environ, CPUS=str(boot.vcpus(opts)), MEM=boot.memory(opts))
    if boot.kernel == "rewind":
        archive = os.path.join(guest, "overlay.cpio")
        _pack(opts, root, archive)
        knobs = "" if boot.build else " ".join(plan.boot_knobs(boot.experiment))
        env.update(INITRD_EXTRA=archive, CMDLINE=f'loglevel=4 {knobs} run="/bin/sh /reproduce.sh"')
        command = [os.path.join(opts.top, "tools", "qemu-run"), "--iso",
                   boot.iso(opts), "--headless", "--log", log,
                   "--timeout", str(tmo)]
    else:
        os.makedirs(os.path.join(root, "etc"), exist_ok=True)
        os.makedirs(os.path.join(root, "bin"), exist_ok=True)
        with open(os.path.join(root, "etc", "run-command"), "w") as f:
            f.write("set -- /bin/sh /reproduce.sh\n")
        for bench in sorted({s.bench for s in steps}):
            shutil.copy(os.path.join(opts.build, "user", "bin", bench), os.path.join(root, "bin", bench))
        env.update(LIB=os.path.join(opts.top, LINUX_LIB))
        command = ["bash", "-c", '. "$LIB" && linux_boot "$@"', "reproduce", log, root, str(tmo),
                   *boot.linux_params.split()]
    return command, env, log, tmo


class _Watch:
    """Follows a growing console log for the step markers: progress, step
    times and the host's load over each, and whether the guest has hung."""

    def __init__(self, log, steps, opts, progress, label):
        self.log, self.steps, self.opts, self.progress, self.label = log, steps, opts, progress, label
        self.by_number = {s.number: s for s in steps}
        self.offset, self.partial = 0, ""
        self.current, self.since = None, time.monotonic()	# the step running, and since when
        self.began = {}	# step number -> when its marker was seen
        self.span, self.loads = None, {}	# the running step's load.Span; step number -> its record

    def poll(self):
        try:
            with open(self.log, "rb") as f:
                f.seek(self.offset)
                chunk = f.read()
        except OSError:
            return
        self.offset += len(chunk)
        lines = (self.partial + chunk.decode(errors="replace")).split("\n")
        self.partial = lines.pop()
        for line in lines:
            if (m := console.STEP_RE.search(line)) and int(m.group(1)) in self.by_number:
                self._begin(self.by_number[int(m.group(1))])
            elif (m := console.END_RE.search(line)) and self.current and int(m.group(1)) == self.current.number:
                self._end()

    def _begin(self, step):
        self._end()
        self.began[step.number] = self.since = time.monotonic()
        self.current, self.span = step, load.Span()
        self.progress.show(f"{self.label}: step {step.number + 1}/{len(self.steps)} "
                           f"{step.describe()}, repeat {step.repeat}")

    def _end(self):
        if self.current is not None:
            self.progress.advance(self.current.seconds * self.opts.slowdown)
            self.loads[self.current.number] = self.span.end()
            self.current, self.since = None, time.monotonic()

    def overdue(self):
        """Why the guest counts as hung, or None."""
        spent = time.monotonic() - self.since
        if self.current is not None:
            limit = self.opts.step_limit(self.current)
            if spent > limit:
                return f"step {self.current.number} ({self.current.describe()}) ran over {limit} s"
        elif spent > self.opts.boot_limit():
            return f"no step began or power-off came within {self.opts.boot_limit()} s"
        return None

    def finish(self):
        """Ends the watch; returns the seconds each step that was seen to begin took."""
        self._end()
        times = sorted(self.began.items(), key=lambda item: item[1]) + [(None, time.monotonic())]
        return {n: round(times[i + 1][1] - t, 2) for i, (n, t) in enumerate(times[:-1])}


def _kill_session(session, sig):
    """Signals every process of the boot's session. Not its process group:
    tools/qemu-run's `timeout` puts QEMU in a process group of its own."""
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rpartition(")")[2].split()
            if int(fields[3]) == session:	# the session id, after state, ppid and pgrp
                os.kill(int(entry), sig)
        except (OSError, ValueError, IndexError):
            continue	# not a process, or it has just ended


def _wait(child, watch):
    """QEMU's status, "interrupted" after Ctrl-C, or why the guest was taken for hung."""
    try:
        while child.poll() is None:
            watch.poll()
            if (hung := watch.overdue()):
                _kill_session(child.pid, signal.SIGKILL)
                child.wait()
                return f"hung: {hung}"
            time.sleep(0.5)
    except KeyboardInterrupt:
        _kill_session(child.pid, signal.SIGTERM)
        child.wait()
        return "interrupted"
    watch.poll()
    return child.returncode


def boot_status(qemu_status, log, steps):
    if isinstance(qemu_status, str):	# interrupted, or hung
        return qemu_status
    if all(log.steps.get(s.number) and log.steps[s.number].status is not None for s in steps):
        return "ok"
    if qemu_status == 124:
        return "timeout"
    return f"ended early (QEMU status {qemu_status})"


def _save_profiles(text, boot_id, steps, out_dir):
    """The /proc/profile text of each profiled step into profiles/<boot>-step<N>.txt;
    {step number: that path, relative to out_dir}. A step whose profile is
    missing or cut off gets none (the report says so)."""
    saved, wanted = {}, {s.number for s in steps if s.profile}
    for number, after in console.step_profiles(text).items():
        if number not in wanted:
            continue
        try:
            kept = profile.extract(after)
        except profile.ProfileError:
            continue
        rel = os.path.join("profiles", f"{boot_id}-step{number}.txt")
        os.makedirs(os.path.join(out_dir, "profiles"), exist_ok=True)
        with open(os.path.join(out_dir, rel), "w") as f:
            f.write(kept)
        saved[number] = rel
    return saved


def _boot_once(boot, boot_id, steps, opts, machine, progress, label):
    """One guest boot running steps; its records."""
    command, env, log_path, tmo = _stage(boot, boot_id, opts, steps)
    progress.show(f"{label}: booting")
    started, host = time.monotonic(), load.Span()
    child = subprocess.Popen(command, env=env, cwd=opts.top, stdin=subprocess.DEVNULL,
                             start_new_session=True)
    watch = _Watch(log_path, steps, opts, progress, label)
    qemu_status = _wait(child, watch)
    step_seconds = watch.finish()
    progress.advance(BOOT_SECONDS[boot.kernel] * opts.slowdown)
    try:
        with open(log_path, errors="replace") as f:
            text = f.read()
    except OSError:
        text = ""
    log = console.parse(text)
    status = boot_status(qemu_status, log, steps)
    machine = dict(machine, guest_cpus=boot.vcpus(opts), guest_memory=boot.memory(opts))
    profiles = _save_profiles(text, boot_id, steps, opts.out)
    head = {"boot": boot_id, "experiment": boot.experiment.name, "kernel": boot.kernel,
            "build": boot.build.name if boot.build else "",
            "linux_params": boot.linux_params, "status": status,
            "qemu_status": qemu_status if isinstance(qemu_status, int) else None,
            "seconds": round(time.monotonic() - started, 1), "timeout": tmo,
            "console_log": os.path.relpath(log_path, opts.out), "host_load": host.end()}
    out = records.boot_records(head, steps, log, machine, step_seconds, profiles, watch.loads)
    progress.say(f"{label}: {status}, {out[0]['steps_ok']} of {len(steps)} steps ok, {head['seconds']:.0f} s")
    if status not in ("ok", "interrupted"):
        progress.say(f"  console tail ({log_path}):")
        for line in console.tail(text, 15):
            progress.say("    | " + line)
    return out


def run_boot(boot, opts, machine, progress, label):
    """Runs a boot's plan, resuming in a new boot after a hang or crash as
    long as each boot gets further. Returns its records and whether the run
    was interrupted."""
    pending, out, attempt = boot.plan(opts), [], 1
    while True:
        boot_id = boot.id if attempt == 1 else f"{boot.id}-resume{attempt - 1}"
        got = _boot_once(boot, boot_id, pending, opts, machine, progress,
                         label if attempt == 1 else f"{label} (resumed)")
        status = got[0]["status"]
        began = {r["step"] for r in got if r["type"] == "step" and r["status"] != "not run"}
        rest = [s for s in pending if s.number not in began]
        if status == "interrupted" or not rest or not began:
            progress.advance(opts.slowdown * sum(s.seconds for s in rest))	# no longer ahead of us
            return out + got, status == "interrupted"
        # The steps that never began are the next boot's, not this one's.
        out += [r for r in got if not (r["type"] == "step" and r["status"] == "not run")]
        pending, attempt = rest, attempt + 1
