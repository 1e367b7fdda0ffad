"""anchors - rewind's figures set against Linux 6.1's own in the same VM: an
experiment's [[anchor]] rows (coreops: lmbench's core latencies) name one
metric each, and the ratio is rewind's figure over Linux's, taken per repeat
(rewind's boot and Linux's paired by repeat number, as ratios.py pairs two
builds) with its interval. Linux is the anchor: a ratio below 1 means rewind's
figure is the smaller, ahead for a time, behind for a rate or a scaling ratio
(the anchor's `better`). An experiment booted at several CPU counts gives a
row per count (a figure's "cpus" parameter), never one pooled over them.
A row's goal (at_most, issue 30's 0.8) is met when the whole
interval lies at or below it, missed when the whole interval lies above it,
and unsettled otherwise.

Not for: ratios within one kernel (ratios.py), formatting (report.py).
"""
from dataclasses import dataclass

from . import ratios

MET, MISSED, UNSETTLED = "met", "missed", "unsettled"


@dataclass
class AnchorRow:
    anchor: object		# experiments.Anchor
    label: str		# the anchor's name, and its parameters when it has rows per value
    rewind: float | None	# median of rewind's figures
    linux: float | None	# median of Linux's figures
    unit: str
    estimate: ratios.Estimate	# rewind / Linux per repeat
    state: str


def _median(groups):
    values = sorted(v for g in groups for v in g.by_repeat().values())
    if not values:
        return None
    mid = len(values) // 2
    return values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2


def state(anchor, interval):
    """Whether the goal holds on the whole interval (see the header)."""
    if interval is None:
        return ratios.NOT_MEASURED
    if interval.high <= anchor.at_most:
        return MET
    if interval.low > anchor.at_most:
        return MISSED
    return UNSETTLED


def row(groups, anchor, params=None):
    """One anchor's row: its figures on both kernels and their ratio; params:
    only the groups of these parameters (one CPU count), None: all."""
    def chosen(kernel):
        return [g for g in groups if ratios.matches(g, anchor.metric, kernel)
                and (params is None or g.params == params)]
    mine, linux = chosen("rewind"), chosen("linux")
    estimate = ratios.estimate(mine, linux)
    unit = next((g.unit for g in mine + linux), "")
    label = anchor.name + (f" ({' '.join(f'{k}={v}' for k, v in params)})" if params else "")
    return AnchorRow(anchor, label, _median(mine), _median(linux), unit, estimate,
                     state(anchor, estimate.interval))


def rows(experiment, groups):
    """Each anchor's rows: one per parameter set its figures were measured at."""
    out = []
    for a in experiment.anchors:
        measured = [g.params for g in groups if ratios.matches(g, a.metric, g.kernel)]
        each = list(dict.fromkeys(measured))
        out += [row(groups, a, p) for p in each] if len(each) > 1 else [row(groups, a)]
    return out
