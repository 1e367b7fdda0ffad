"""compare - two results directories figure by figure (`tools/reproduce
--compare A B`), as pyperf's compare_to does: for every figure both hold
(metric x variant x sweep value x kernel), B's median over A's with an
interval (intervals.of_quotient: the repeats of two runs do not pair) and a
verdict. "no change" when the interval straddles 1 or lies wholly within
the threshold of 1; else faster or slower where the unit says which way is
better (times: lower; rates, "/s": higher), higher or lower where it does not.
The table goes to the terminal and to A/compare-<name of B>.md.

Not for: seed verdicts (ratios.py).
"""
import os

from . import intervals, records, summary
from .numbers import readable

TIME_UNITS = ("ns", "us", "µs", "ms", "s", "cycles")


def better(group):
    """"lower" or "higher" when the unit says which is better, else None."""
    if group.unit in TIME_UNITS:
        return "lower"
    if group.unit.endswith("/s") or "per_s" in group.metric or "kbps" in group.metric:
        return "higher"
    return None


def verdict(interval, direction, threshold):
    if interval is None:
        return "not measured"
    if not (interval.above(1) or interval.below(1)) or interval.within(1 / (1 + threshold), 1 + threshold):
        return "no change"
    up = interval.above(1)
    if direction is None:
        return "higher" if up else "lower"
    return "slower" if up == (direction == "lower") else "faster"


def _groups(directory):
    found, _ = records.load(os.path.join(directory, "results.jsonl"))
    groups = summary.group_figures(found)
    summary.account_steps(groups, found)
    return {(g.experiment, g.kernel, g.bench, g.variant, g.params, g.metric): g for g in groups}


def _kept(group):
    """The group's per-repeat figures, without failed or zero repeats (no quotient
    stands on a zero); and how many repeats were dropped, missing ones included."""
    ended = [v for r, v in group.by_repeat().items() if r not in group.failed]
    kept = [v for v in ended if v > 0]
    return kept, len(group.failed) + len(group.missing) + len(ended) - len(kept)


def rows(a_dir, b_dir, threshold):
    """(figure, A, B, change, interval, verdict, dropped) per figure both runs hold; and the
    number of figures only one of them holds."""
    a, b = _groups(a_dir), _groups(b_dir)
    out = []
    for key in (k for k in a if k in b):
        (before, lost_a), (after, lost_b) = _kept(a[key]), _kept(b[key])
        interval = intervals.of_quotient(after, before)
        g = a[key]
        name = "@".join(filter(None, [g.metric, g.variant, g.params_text().replace(" ", ","), g.kernel]))
        change = "-" if interval is None else f"{(interval.value - 1) * 100:+.1f} %"
        spread = "-" if interval is None else \
            f"{readable(interval.low)} - {readable(interval.high)} ({interval.describe()})"
        out.append((f"{g.experiment}: {name}", f"{readable(g.median)} {g.unit}", f"{readable(b[key].median)} {g.unit}",
                    change, spread, verdict(interval, better(g), threshold), f"{lost_a} / {lost_b}"))
    return out, len(set(a) ^ set(b))


def render(a_dir, b_dir, threshold):
    """The comparison as Markdown lines."""
    found, unmatched = rows(a_dir, b_dir, threshold)
    header = ["figure", "A", "B", "B / A", "interval of B / A", "verdict", "dropped repeats A / B"]
    lines = [f"# Compare: B = `{b_dir}` against A = `{a_dir}`", "",
             f"No change: the interval straddles 1 or lies within {threshold:.0%} of it. "
             f"Figures only one run holds: {unmatched}.", "",
             "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in found]
    return lines


def write(a_dir, b_dir, threshold):
    """Writes A/compare-<B>.md; returns its path and its text."""
    text = "\n".join(render(a_dir, b_dir, threshold)) + "\n"
    path = os.path.join(a_dir, f"compare-{os.path.basename(os.path.normpath(b_dir))}.md")
    with open(path, "w") as f:
        f.write(text)
    return path, text
