"""onboard - reads the console logs of boots that ran rewind's in-boot
runner (/bin/experiment, user/bin/experiment.c: the USB stick's GRUB
entries) into results.jsonl records, so that `tools/reproduce
--from-console LOG...` makes one report of several such boots.

Why: one boot runs one kernel, and some ratios span two kernel builds (the
paravirt experiment's patched / PARAVIRT=n). On a real machine each build is
a boot of its own, its @result lines on the serial port. The runner says,
per experiment, which plan it ran (an @experiment line: name, kernel build,
quick, repeats); this module makes the same plan again with reprolib.plan,
as tools/onboard-plans did at build time, so that step numbers name the
same steps, and the boots' figures pair by repeat exactly as tools/reproduce
pairs its own boot of a second build (ratios.py).

Not for: logs of tools/reproduce's own boots (runner.py reads those).
"""
import json
import os
import re

from . import console, plan, records
from .experiments import ExperimentError

HEADER_RE = re.compile(r"@experiment (\{.*\})")
DEFAULT_BUILD = "default"	# kernel/sys_info.h's name for the default build
# @meta's hypervisor (the CPUID signature, "none" on bare metal) as report.py's accelerator.
GROUNDS = {"none": "bare metal", "TCGTCGTCGTCG": "tcg", "KVMKVMKVM": "kvm"}


def segments(text):
    """(header, text) per experiment the runner ran in this log: from its
    @experiment line to the next one or to the report, whose median @result
    lines are not figures of a step."""
    lines = console.clean_lines(text)
    out, current = [], None
    for line in lines:
        m = HEADER_RE.search(line)
        if m:
            try:
                header = json.loads(m.group(1))
            except ValueError:
                raise ExperimentError(f"an @experiment line that does not parse: {line}")
            current = (header, [])
            out.append(current)
        elif "@report-begin" in line:
            current = None
        elif current:
            current[1].append(line)
    return [(h, "\n".join(body)) for h, body in out]


def _machine(log, header):
    return {"accelerator": GROUNDS.get(log.hypervisor, log.hypervisor or "?"),
            "host_cpu_model": log.cpu_model, "host_cpus": None, "qemu_version": None,
            "git_revision": log.release, "guest_cpus": None, "guest_memory": None,
            "build": header["build"]}


def boot_records(path, text, registry, seen):
    """The records of every experiment in one console log. seen: boot ids so
    far (a boot id is experiment-build, numbered when several logs have one)."""
    out = []
    for header, body in segments(text):
        name, build = header.get("experiment"), header.get("build")
        if name not in registry:
            raise ExperimentError(f"{path}: experiment '{name}' is not registered here")
        e = registry[name]
        second = None if build == DEFAULT_BUILD else build
        if second and second not in {b.name for b in e.builds}:
            raise ExperimentError(f"{path}: experiment {name} has no kernel build '{build}'")
        steps = [s for s in plan.steps(e, bool(header.get("quick")), int(header.get("repeats", 0)),
                                       build=second) if not s.profile]
        if len(steps) != header.get("steps"):
            raise ExperimentError(f"{path}: {name} on {build} ran {header.get('steps')} steps, this "
                                  f"tree plans {len(steps)}: the log is of another revision")
        log = console.parse(body)
        if log.builds - {build}:
            raise ExperimentError(f"{path}: {name}'s @meta lines name kernel builds "
                                  f"{sorted(log.builds)}, the runner said {build}")
        boot_id = f"{name}-stick-{build}"
        n = sum(1 for b in seen if b == boot_id or b.startswith(boot_id + "-"))
        seen.append(boot_id)
        ended = all(log.steps.get(s.number) and log.steps[s.number].status is not None for s in steps)
        head = {"boot": boot_id + (f"-{n + 1}" if n else ""), "experiment": name, "kernel": "rewind",
                "build": second or "", "linux_params": "", "status": "ok" if ended else "ended early",
                "qemu_status": None, "seconds": 0, "timeout": None, "console_log": os.path.abspath(path)}
        out += records.boot_records(head, steps, log, _machine(log, header))
    return out


def results(paths, registry):
    """(records, experiment names) of console logs, in the order given."""
    out, seen = [], []
    for path in paths:
        with open(path, errors="replace") as f:
            got = boot_records(path, f.read(), registry, seen)
        if not got:
            raise ExperimentError(f"{path}: no @experiment line: not a log of /bin/experiment")
        out += got
    names = list(dict.fromkeys(r["experiment"] for r in out))
    return out, names
