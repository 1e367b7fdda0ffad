"""ratios - our ratios next to the seed's, and whether the regression
reproduced. A ratio is taken in each repeat (that repeat's numerator over
the same repeat's denominator, paired by repeat number so that two boots, an
experiment's second build, pair too); ours is the median of those per-repeat
ratios, with an interval around it (intervals.py). A repeat that failed, is
missing on either side or gave a zero is dropped, and counted. Linux's column
pools every Linux boot of the experiment by repeat, since its metric names
carry the mode; the hosted column (hosted.py) pools the host programs' runs
the same way.

Verdict, judged on the whole interval, never one median: the direction holds
only when the interval lies on the seed's side of 1; "inconclusive" when it
straddles 1, "no (wrong direction)" only when it lies wholly on the other
side ("same": within the tolerance factor of 1, or wholly outside it). The
magnitude holds when the effect log(ratio) at some point of the interval is
within the tolerance factor of the seed's log(seed), so that +17 % asks for
roughly +8 % to +37 %, and 11x for roughly 3.4x to 128x.

Not for: controls (controls.py), formatting (report.py).
"""
import math
import statistics
from dataclasses import dataclass, field

from . import intervals

NOT_MEASURED = "not measured"
DROP_REASONS = ("failed", "missing", "zero")	# why a repeat gave no ratio


@dataclass
class Estimate:
    """A ratio over the repeats: its interval (None when no repeat gave one),
    the repeats dropped, by reason, and the ratio of each repeat that gave one."""
    interval: intervals.Interval | None
    dropped: dict = field(default_factory=dict)	# reason -> repeats
    by_repeat: dict = field(default_factory=dict)	# repeat -> ratio

    @property
    def value(self):
        return self.interval.value if self.interval else None


@dataclass
class Pair:
    """A numerator group and its denominator group, and their estimate."""
    label: str		# the variant (and sweep value) it was taken in; "" if explicit
    key: tuple		# (variant or None when explicit, params): what controls match on
    estimate: Estimate
    complete: bool


@dataclass
class RatioRow:
    ratio: object		# experiments.Ratio
    pair: Pair
    linux: Estimate
    hosted: Estimate		# the hosted ground's ratio (this CPU, user mode)
    verdict: str
    hosted_verdict: str

    @property
    def ours(self):
        return self.pair.estimate.value

    @property
    def label(self):
        return self.pair.label

    @property
    def low(self):
        return self.pair.estimate.interval.low if self.pair.estimate.interval else None

    @property
    def high(self):
        return self.pair.estimate.interval.high if self.pair.estimate.interval else None


def matches(group, ref, kernel):
    """Whether a group of figures is the one ref names, on that kernel."""
    return (group.kernel == kernel and group.metric == ref.metric
            and (ref.bench is None or group.bench == ref.bench)
            and (kernel != "rewind" or ref.variant is None or group.variant == ref.variant))


def _pair_key(group, ref):
    """Numerator and denominator groups pair when these agree."""
    return (group.variant if ref.variant is None else None, group.params)


def _side(groups):
    """Groups pooled: {repeat: median figure}, the planned and the failed repeats."""
    figures = {}
    for g in groups:
        for repeat, v in g.by_repeat().items():
            figures.setdefault(repeat, []).append(v)
    planned = set(figures).union(*(g.planned for g in groups))
    failed = set().union(*(g.failed for g in groups))
    return {r: statistics.median(vs) for r, vs in figures.items()}, planned, failed


def estimate(nums, dens):
    """The per-repeat ratios of numerator groups over denominator groups."""
    num, num_planned, num_failed = _side(nums)
    den, den_planned, den_failed = _side(dens)
    dropped, values = {}, {}
    for repeat in sorted(num_planned | den_planned):
        if repeat in num_failed | den_failed:
            reason = "failed"
        elif repeat not in num or repeat not in den:
            reason = "missing"
        elif num[repeat] <= 0 or den[repeat] <= 0:
            reason = "zero"
        else:
            values[repeat] = num[repeat] / den[repeat]
            continue
        dropped[reason] = dropped.get(reason, 0) + 1
    return Estimate(intervals.of_values(list(values.values())), dropped, values)


def pairs(groups, numerator, denominator):
    """One Pair per variant (and sweep value) of rewind's figures that has both sides."""
    dens = {_pair_key(g, denominator): g for g in groups if matches(g, denominator, "rewind")}
    explicit = numerator.variant and denominator.variant
    out = []
    for num in (g for g in groups if matches(g, numerator, "rewind")):
        key = _pair_key(num, numerator)
        den = dens.get(key)
        if den is None:
            continue
        label = " ".join(filter(None, ["" if explicit else num.variant, num.params_text()]))
        out.append(Pair(label, key, estimate([num], [den]), num.complete and den.complete))
    return out


def pooled(groups, numerator, denominator, kernel):
    """The ratio of one ground other than rewind's guest, its figures pooled by repeat."""
    return estimate([g for g in groups if matches(g, numerator, kernel)],
                    [g for g in groups if matches(g, denominator, kernel)])


def verdict(ratio, interval):
    """Whether the interval reproduces the seed's ratio (see the header)."""
    if interval is None:
        return NOT_MEASURED
    if ratio.expect == "same":
        low, high = 1 / ratio.tolerance, ratio.tolerance
        if interval.within(low, high):
            return "yes"
        if interval.below(low) or interval.above(high):
            return "no (not about 1)"
        return "inconclusive (interval reaches past the tolerance)"
    higher = ratio.expect == "higher"
    if interval.below(1) if higher else interval.above(1):
        return "no (wrong direction)"
    if not (interval.above(1) if higher else interval.below(1)):
        return "inconclusive (interval straddles 1)"
    effects = sorted(math.log(end) / math.log(ratio.seed) for end in (interval.low, interval.high))
    if effects[1] < 1 / ratio.tolerance:
        return "direction only (smaller effect)"
    if effects[0] > ratio.tolerance:
        return "direction only (larger effect)"
    return "yes"


def rows(groups, ratio):
    """The rows of one seed ratio: one per variant (and sweep value) that has both figures."""
    linux = pooled(groups, ratio.numerator, ratio.denominator, "linux")
    hosted = pooled(groups, ratio.numerator, ratio.denominator, "hosted")
    hosted_verdict = verdict(ratio, hosted.interval)
    found = pairs(groups, ratio.numerator, ratio.denominator) or \
        [Pair("", (None, ()), Estimate(None), False)]
    return [RatioRow(ratio, p, linux, hosted, verdict(ratio, p.estimate.interval), hosted_verdict)
            for p in found]
