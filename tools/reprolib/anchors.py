"""anchors - rewind's figures set against Linux 6.1's own in the same VM: an
experiment's [[anchor]] rows (coreops: lmbench's core latencies) name one
metric each, and the ratio is rewind's figure over Linux's, taken per repeat
(rewind's boot and Linux's paired by repeat number, as ratios.py pairs two
builds) with its interval. Linux is the anchor: a ratio below 1 means rewind
is faster. A row's goal (at_most, issue 30's 0.8) is met when the whole
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


def row(groups, anchor):
    """One anchor's row: its figures on both kernels and their ratio."""
    mine = [g for g in groups if ratios.matches(g, anchor.metric, "rewind")]
    linux = [g for g in groups if ratios.matches(g, anchor.metric, "linux")]
    estimate = ratios.estimate(mine, linux)
    unit = next((g.unit for g in mine + linux), "")
    return AnchorRow(anchor, _median(mine), _median(linux), unit, estimate,
                     state(anchor, estimate.interval))


def rows(experiment, groups):
    return [row(groups, a) for a in experiment.anchors]
