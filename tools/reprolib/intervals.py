"""intervals - how far a ratio can be trusted: an interval around it from
its repeats, which the verdicts (ratios.py, controls.py) and comparisons
(compare.py) judge instead of one median.

Few repeats (under BOOTSTRAP_FROM) give no distribution to resample, so the
interval is their whole range, min - max: a verdict must hold in every
repeat. From BOOTSTRAP_FROM repeats on it is a percentile bootstrap of the
median (95 %), drawn with a fixed seed so that the same results always give
the same report.

Not for: verdicts (ratios.py) or formatting (report.py).
"""
import random
import statistics
from dataclasses import dataclass

BOOTSTRAP_FROM = 8	# repeats; fewer: min - max
RESAMPLES = 2000
LEVEL = 0.95
SEED = 23	# any fixed seed, so a report is reproducible from its results


@dataclass(frozen=True)
class Interval:
    value: float	# the median
    low: float
    high: float
    method: str		# "min-max" or "bootstrap"
    n: int		# the values it stands on

    def describe(self):
        how = "min-max" if self.method == "min-max" else f"bootstrap {LEVEL:.0%} of the median"
        return f"{how} of {self.n}"

    def above(self, bound):
        return self.low > bound

    def below(self, bound):
        return self.high < bound

    def within(self, low, high):
        return low <= self.low and self.high <= high


def _percentiles(draws):
    draws = sorted(draws)
    cut = (1 - LEVEL) / 2
    return draws[int(cut * (len(draws) - 1))], draws[int((1 - cut) * (len(draws) - 1))]


def of_values(values):
    """The interval of the median of values (per-repeat ratios); None when there are none."""
    if not values:
        return None
    median = statistics.median(values)
    if len(values) < BOOTSTRAP_FROM:
        return Interval(median, min(values), max(values), "min-max", len(values))
    rng = random.Random(SEED)
    draws = [statistics.median(rng.choices(values, k=len(values))) for _ in range(RESAMPLES)]
    low, high = _percentiles(draws)
    return Interval(median, min(low, median), max(high, median), "bootstrap", len(values))


def of_quotient(after, before):
    """The interval of median(after) / median(before) for two independent
    samples (two runs, whose repeats do not pair): every quotient of a value
    of one over a value of the other when few, else a bootstrap resampling
    each sample on its own."""
    if not after or not before or min(before) <= 0:
        return None
    value = statistics.median(after) / statistics.median(before)
    n = min(len(after), len(before))
    if n < BOOTSTRAP_FROM:
        return Interval(value, min(after) / max(before), max(after) / min(before), "min-max", n)
    rng = random.Random(SEED)
    draws = [statistics.median(rng.choices(after, k=len(after)))
             / statistics.median(rng.choices(before, k=len(before))) for _ in range(RESAMPLES)]
    low, high = _percentiles(draws)
    return Interval(value, min(low, value), max(high, value), "bootstrap", n)
