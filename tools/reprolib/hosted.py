"""hosted - an experiment's hosted ground (docs/grounds.md, "The hosted
ground"): host programs built from tests/hosted/ that compile the kernel
code a regression lives in, unchanged, into a user-mode program, so that it
runs on this CPU's real caches and predictors where TCG models none. Each
program is run once per repeat on the host, as a "boot" of kernel "hosted"
whose steps are those runs; its @result figures become records like a
guest's (variant "hosted"), and the ratios get a column of their own.

The program switches the experiment's policies itself and names its metrics
as the guest benchmark does (fstime_host: write_kbps_b256_always ...), so
one seed ratio reads all grounds.

Not for: guests (runner.py), statistics (summary.py).
"""
import json
import os
import subprocess
import time

from . import console, load


def estimate(experiment, quick):
    """Seconds the hosted runs of the experiment should take."""
    return sum(h.seconds_for(quick) for h in experiment.hosted) * experiment.repeats(quick)


def _results(text):
    """The @result figures of a program's output (console.py's reading of them)."""
    out = []
    for line in text.splitlines():
        r = console.parse_result(line)
        if r is not None:
            out.append(r)
    return out


def _step(head, number, h, repeat, opts, log):
    """One run of program h: its step record and figure records."""
    path = os.path.join(opts.build, h.program)
    args = (h.quick_args if opts.quick else h.args).split()
    limit = int(60 + 5 * h.seconds_for(opts.quick))
    started, host = time.monotonic(), load.Span()
    try:
        done = subprocess.run([path] + args, capture_output=True, text=True, timeout=limit,
                              stdin=subprocess.DEVNULL)
        status, text = ("ok" if done.returncode == 0 else f"exit {done.returncode}"), done.stdout + done.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ""
        status, text = "truncated", out.decode(errors="replace") if isinstance(out, bytes) else out
    except OSError as e:
        status, text = "not run", str(e)
    log.write(f"@repro-step {number} {h.program} {' '.join(args)}\n{text}@repro-end {number} {status}\n")
    program = os.path.basename(h.program)
    where = {"experiment": head["experiment"], "kernel": "hosted", "boot": head["boot"], "step": number,
             "program": program, "variant": "hosted", "knobs": {}, "repeat": repeat, "params": {}}
    figures = [dict({"type": "figure"}, **where, bench=r["bench"], metric=r["metric"], value=r["value"],
                    unit=r["unit"], complete=status == "ok", guest_variant=r["variant"],
                    machine=head["machine"]) for r in _results(text)]
    step = dict({"type": "step"}, **where, args=" ".join(args), status=status, figures=len(figures),
                seconds=round(time.monotonic() - started, 1), host_load=host.end())
    return step, figures


def run(experiment, opts, machine, progress, label):
    """The records of the experiment's hosted ground: a boot record, then steps and figures."""
    boot_id = f"{experiment.name}-hosted"
    log_path = os.path.join(opts.out, "logs", f"{boot_id}.log")
    machine = dict(machine, accelerator="none (host program)", guest_cpus=None, guest_memory=None)
    head = {"type": "boot", "boot": boot_id, "experiment": experiment.name, "kernel": "hosted",
            "linux_params": "", "qemu_status": None, "timeout": None, "garbled_lines": 0,
            "outside_figures": 0, "console_log": os.path.relpath(log_path, opts.out), "machine": machine}
    steps, figures = [], []
    started, host = time.monotonic(), load.Span()
    with open(log_path, "w") as log:
        for repeat in range(1, experiment.repeats(opts.quick) + 1):
            for h in experiment.hosted:
                progress.show(f"{label}: {h.program}, repeat {repeat}")
                step, figs = _step(head, len(steps), h, repeat, opts, log)
                steps.append(step)
                figures += figs
                progress.advance(h.seconds_for(opts.quick))
    ok = sum(s["status"] == "ok" for s in steps)
    head.update(status="ok" if ok == len(steps) else "failed", steps=len(steps), steps_ok=ok,
                seconds=round(time.monotonic() - started, 1), host_load=host.end())
    progress.say(f"{label}: {head['status']}, {ok} of {len(steps)} runs ok, {head['seconds']:.0f} s")
    return [head] + steps + figures
