"""machine - the facts about where a run happened that the host can tell
(docs/grounds.md, "Measurement rules": every figure names its ground). The
guest's own facts (its TSC rate, what CPU it sees) come from its console
(console.py).

Not for: choosing the accelerator: tools/qemu-run decides, this only asks it.
"""
import os
import subprocess


def _output(args, cwd=None):
    try:
        done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def host_cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def facts(top, cpus, memory):
    """The host side of the "machine" of every record."""
    qemu = _output(["qemu-system-x86_64", "--version"])
    return {
        "host_cpu_model": host_cpu_model(),
        "host_cpus": os.cpu_count(),
        "qemu_version": qemu.splitlines()[0].removeprefix("QEMU emulator version ") if qemu else None,
        "accelerator": _output([os.path.join(top, "tools", "qemu-run"), "--print-accel"]),
        "git_revision": _output(["git", "describe", "--always", "--dirty", "--abbrev=12"], cwd=top),
        "guest_cpus": cpus,
        "guest_memory": memory,
    }
