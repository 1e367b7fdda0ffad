"""ratios - our ratios next to the seed's, and whether the regression
reproduced. Ours is median(numerator) / median(denominator) over the
repeats of one variant (a ratio of medians, as DESIGN.md §4 asks); the range
beside it is that of the per-repeat ratios (each repeat's median over
the other side's median in the same repeat). Linux's column pools every
Linux boot of the experiment, since its metric names carry the mode; the
hosted column (hosted.py) pools the host programs' runs the same way.

Verdict: the direction holds when the ratio is on the seed's side of 1 ("same":
within the tolerance factor of 1); the magnitude holds when the effect,
log(ratio), is within the tolerance factor of the seed's log(seed), so that
+17 % asks for roughly +8 % to +37 %, and 11x for roughly 3.4x to 128x.

Not for: formatting (report.py).
"""
import math
import statistics
from dataclasses import dataclass


@dataclass
class RatioRow:
    ratio: object		# experiments.Ratio
    label: str			# the variant (and sweep value) it was taken in; "" if explicit
    ours: float | None
    low: float | None		# per-repeat range
    high: float | None
    complete: bool
    linux: float | None
    verdict: str
    hosted: float | None = None	# the hosted ground's ratio (this CPU, user mode)


def _matches(group, ref, kernel):
    return (group.kernel == kernel and group.metric == ref.metric
            and (ref.bench is None or group.bench == ref.bench)
            and (kernel != "rewind" or ref.variant is None or group.variant == ref.variant))


def _pair_key(group, ref):
    """Numerator and denominator groups pair when these agree."""
    return (group.variant if ref.variant is None else "*", group.params)


def _quotient(a, b):
    return a / b if b else None


def _by_repeat(group):
    """Each repeat's median of the group's figures: a step may print a metric
    more than once (a figure per loop), and a repeat is one measurement."""
    figures = {}
    for (_, repeat), v in group.samples:
        figures.setdefault(repeat, []).append(v)
    return {repeat: statistics.median(vs) for repeat, vs in figures.items()}


def _per_repeat(num, den):
    """The ratio in each repeat: by repeat number, so that figures of two
    boots (an experiment's second build) pair too."""
    dens = _by_repeat(den)
    return [q for repeat, v in _by_repeat(num).items() if repeat in dens
            and (q := _quotient(v, dens[repeat])) is not None]


def verdict(ratio, ours):
    if ours is None or ours <= 0:
        return "not measured"
    if ratio.expect == "same":
        return "yes" if 1 / ratio.tolerance <= ours <= ratio.tolerance else "no (not about 1)"
    if (ours > 1) != (ratio.expect == "higher") or ours == 1:
        return "no (wrong direction)"
    effect = math.log(ours) / math.log(ratio.seed)
    if 1 / ratio.tolerance <= effect <= ratio.tolerance:
        return "yes"
    return f"direction only ({'larger' if effect > 1 else 'smaller'} effect)"


def _pooled_ratio(groups, ratio, kernel):
    """The ratio of one ground other than rewind's guest, its figures pooled."""
    def pooled(ref):
        values = [v for g in groups if _matches(g, ref, kernel) for v in g.values]
        return statistics.median(values) if values else None
    num, den = pooled(ratio.numerator), pooled(ratio.denominator)
    return _quotient(num, den) if num is not None and den else None


def rows(groups, ratio):
    """The rows of one seed ratio: one per variant (and sweep value) that has both figures."""
    linux = _pooled_ratio(groups, ratio, "linux")
    hosted = _pooled_ratio(groups, ratio, "hosted")
    dens = {_pair_key(g, ratio.denominator): g for g in groups if _matches(g, ratio.denominator, "rewind")}
    out = []
    for num in (g for g in groups if _matches(g, ratio.numerator, "rewind")):
        den = dens.get(_pair_key(num, ratio.numerator))
        if den is None:
            continue
        ours = _quotient(num.median, den.median)
        each = _per_repeat(num, den)
        explicit = ratio.numerator.variant and ratio.denominator.variant
        label = " ".join(filter(None, ["" if explicit else num.variant, num.params_text()]))
        out.append(RatioRow(ratio, label, ours, min(each, default=None), max(each, default=None),
                            num.complete and den.complete, linux, verdict(ratio, ours), hosted))
    return out or [RatioRow(ratio, "", None, None, None, False, linux, "not measured", hosted)]
