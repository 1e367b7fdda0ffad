"""records - results.jsonl: one JSON object per line, of four types.

    {"type": "run", ...}      first: when, the command, the boots planned
    {"type": "boot", ...}     one guest boot: kernel, status, console log, machine
    {"type": "step", ...}     one planned step: benchmark, variant, repeat, status
    {"type": "figure", ...}   one raw @result figure, with its step's variant,
                              the boot and the machine it was measured on

A step's status is "ok", "exit N" (the benchmark or a knob failed), "truncated"
(it began but the boot ended first: a hang or a crash) or "not run". A figure
is "complete" when its step is ok; the others are kept, marked.

Not for: statistics (summary.py).
"""
import json


def step_status(output):
    if output is None or not output.began:
        return "not run"
    if output.status is None:
        return "truncated"
    return "ok" if output.status == 0 else f"exit {output.status}"


def boot_records(boot, plan, log, machine, step_seconds=None, profiles=None, step_loads=None):
    """The records of one boot: boot is a dict (id, experiment, kernel, status ...);
    step_seconds the host's wall time of each step seen to begin; profiles the
    saved /proc/profile file of each profiled step (a step record's "profile");
    step_loads the host's load over each step (load.Span's record)."""
    machine = dict(machine, guest_tsc_mhz=log.tsc_mhz, guest_cpu_model=log.cpu_model,
                   guest_release=log.release)
    common = {"experiment": boot["experiment"], "kernel": boot["kernel"], "boot": boot["boot"]}
    steps, figures = [], []
    for step in plan:
        output = log.steps.get(step.number)
        status = step_status(output)
        where = dict(common, step=step.number, program=step.bench, variant=step.variant,
                     knobs=step.knobs, repeat=step.repeat, params=step.params)
        results = output.results if output else []
        steps.append(dict({"type": "step"}, **where, args=step.args, status=status, figures=len(results),
                          seconds=(step_seconds or {}).get(step.number),
                          host_load=(step_loads or {}).get(step.number),
                          **({"profile": profiles[step.number]} if step.number in (profiles or {}) else {})))
        for r in results:
            figures.append(dict({"type": "figure"}, **where, bench=r["bench"], metric=r["metric"],
                                value=r["value"], unit=r["unit"], complete=status == "ok",
                                guest_variant=r["variant"], machine=machine))
    ok = sum(s["status"] == "ok" for s in steps)
    head = dict({"type": "boot"}, **boot, steps=len(plan), steps_ok=ok,
                garbled_lines=len(log.garbled), outside_figures=len(log.outside), machine=machine)
    return [head] + steps + figures


def append(path, records):
    with open(path, "a") as f:
        for r in records:
            f.write(json.dumps(r, sort_keys=True) + "\n")


def load(path):
    """The records of a results.jsonl, and how many lines did not parse (a cut-off write)."""
    records, bad = [], 0
    with open(path) as f:
        for line in f:
            try:
                r = json.loads(line)
            except ValueError:
                bad += 1
                continue
            if isinstance(r, dict) and r.get("type") in ("run", "boot", "step", "figure"):
                records.append(r)
            else:
                bad += 1
    return records, bad
