"""summary - the figures of a run grouped per (experiment, kernel, benchmark,
variant, sweep value, metric), with median, min, max and spread, and
summary.csv. A comparison is a median over repeats (docs/grounds.md,
"Measurement rules"); the spread, (max - min) / median, says how far to
trust it on a shared host.
Each group also knows the repeats its steps were planned in and those whose
step did not end well, so that no repeat drops out of a figure unsaid.

Not for: comparing with the seeds (ratios.py).
"""
import csv
import statistics
from dataclasses import dataclass, field

CSV_FIELDS = ["experiment", "kernel", "bench", "variant", "params", "metric", "unit",
              "n", "median", "min", "max", "spread_pct", "complete",
              "repeats_planned", "repeats_failed", "repeats_missing"]


@dataclass
class Group:
    experiment: str
    kernel: str
    bench: str
    variant: str
    params: tuple	# ((name, value), ...)
    metric: str
    unit: str
    samples: list = field(default_factory=list)	# ((boot, repeat), value)
    complete: bool = True
    planned: set = field(default_factory=set)	# repeats a step was planned to feed it in
    failed: set = field(default_factory=set)	# repeats whose step did not end well

    @property
    def values(self):
        return [v for _, v in self.samples]

    @property
    def median(self):
        return statistics.median(self.values)

    @property
    def spread_pct(self):
        m = self.median
        return (max(self.values) - min(self.values)) / m * 100 if m else 0.0

    def params_text(self):
        return " ".join(f"{k}={v}" for k, v in self.params)

    def by_repeat(self):
        """Each repeat's median of the group's figures: a step may print a metric
        more than once (a figure per loop), and a repeat is one measurement."""
        figures = {}
        for (_, repeat), v in self.samples:
            figures.setdefault(repeat, []).append(v)
        return {repeat: statistics.median(vs) for repeat, vs in figures.items()}

    @property
    def missing(self):
        """Planned repeats that ended well yet gave no figure."""
        return self.planned - self.failed - set(self.by_repeat())


def group_figures(records):
    """Groups in the order their first figure appears."""
    groups = {}
    for r in records:
        if r["type"] != "figure":
            continue
        params = tuple(sorted(r["params"].items()))
        key = (r["experiment"], r["kernel"], r["bench"], r["variant"], params, r["metric"], r["unit"])
        g = groups.get(key) or groups.setdefault(key, Group(*key))
        g.samples.append(((r["boot"], r["repeat"]), r["value"]))
        g.complete &= r["complete"]
    return list(groups.values())


def account_steps(groups, records):
    """Each group's planned and failed repeats, from the step records that
    should have fed it; a group with a failed repeat is incomplete."""
    steps = {}
    for r in records:
        if r["type"] == "step":
            key = (r["experiment"], r["kernel"], r["program"], r["variant"], tuple(sorted(r["params"].items())))
            steps.setdefault(key, []).append(r)
    programs = {(r["experiment"], r["kernel"], r["bench"], r["variant"]): r["program"]
                for r in records if r["type"] == "figure"}
    for g in groups:
        program = programs[(g.experiment, g.kernel, g.bench, g.variant)]
        for step in steps.get((g.experiment, g.kernel, program, g.variant, g.params), []):
            g.planned.add(step["repeat"])
            if step["status"] != "ok":
                g.failed.add(step["repeat"])
                g.complete = False


def write_csv(path, groups):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(CSV_FIELDS)
        for g in groups:
            w.writerow([g.experiment, g.kernel, g.bench, g.variant, g.params_text(), g.metric, g.unit,
                        len(g.samples), f"{g.median:.6g}", f"{min(g.values):.6g}",
                        f"{max(g.values):.6g}", f"{g.spread_pct:.1f}", "yes" if g.complete else "no",
                        len(g.planned), len(g.failed), len(g.missing)])
