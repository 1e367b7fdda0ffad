"""load - how busy the host was while a figure was measured: the load
average (/proc/loadavg) at a boot's or step's start and end, and the share of
the host's CPU time stolen by its own hypervisor over a boot (/proc/stat's
steal; the guest's own steal is not known: rewind does not account it). On
a timed ground (TCG, KVM, the hosted programs) a host with more runnable
threads than CPUs slows the guest by turns, and the figures with it; the
icount ground (tools/qemu-run: ACCEL=icount) does not care, so the report
suggests it.

Not for: anything inside the guest.
"""
import os

DETERMINISTIC = "icount"	# the one ground whose figures the host's load cannot move


def loadavg():
    """The 1-minute load average, None where /proc/loadavg is not readable."""
    try:
        with open("/proc/loadavg") as f:
            return float(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def cpu_times():
    """(steal, total) jiffies of the host's CPUs since its boot; None if unknown."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return (fields[7] if len(fields) > 7 else 0), sum(fields[:8])


class Span:
    """The host's load over one boot or step: made at its start, end() at its end gives the record."""

    def __init__(self):
        self.load, self.times = loadavg(), cpu_times()

    def end(self):
        now = cpu_times()
        steal = None
        if self.times and now and now[1] > self.times[1]:
            steal = round((now[0] - self.times[0]) / (now[1] - self.times[1]) * 100, 1)
        return {"load_start": self.load, "load_end": loadavg(), "host_steal_pct": steal}


def worst(records):
    """The highest load average seen over a boot of a timed ground (or one of
    its steps), with the host's CPU count; (None, None) when none was recorded."""
    timed = {r["boot"]: r["machine"] for r in records
             if r["type"] == "boot" and r.get("machine", {}).get("accelerator") != DETERMINISTIC}
    peak, cpus = None, None
    for r in records:
        if r["type"] not in ("boot", "step") or r.get("boot") not in timed or not r.get("host_load"):
            continue
        for value in (r["host_load"].get("load_start"), r["host_load"].get("load_end")):
            if value is not None and (peak is None or value > peak):
                peak, cpus = value, timed[r["boot"]].get("host_cpus") or os.cpu_count()
    return peak, cpus


def loaded_warning(records):
    """The report's warning when a timed ground ran on a host busier than its CPUs, or None."""
    peak, cpus = worst(records)
    if peak is None or peak <= cpus:
        return None
    return (f"The host's load average reached {peak:.1f} on {cpus} CPUs while timed figures were "
            "measured: a guest (or host program) waited for a CPU by turns, and its figures moved with "
            "the load. `tools/reproduce --ground icount` gives figures that do not depend on the host.")
