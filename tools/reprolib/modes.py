"""modes - repeats that fall into two modes instead of spreading around one
value ([[modes]] in experiments/README.md). On the icount ground an `osq`
run of xfs_repair either collapses or runs as `off` does, as the vCPUs'
turns fall (docs/regressions/rwsem.md): the median of three then shows one
mode and hides the other, and its interval only says "somewhere between".
A test ratio sorts each repeat (above the threshold: in the mode, else not);
each ratio the declaration splits gets its figures per mode, so that the
report can say "1 of 3 collapsed" and give both medians.

Not for: verdicts (ratios.py, controls.py), formatting (report.py).
"""
from dataclasses import dataclass

from . import controls, ratios


@dataclass
class Split:
    """One ratio's per-repeat values on either side of the threshold."""
    name: str		# the ratio's name (the test's own for the first split)
    inside: list	# its values in the repeats in the mode
    outside: list	# its values in the others
    unsorted: int	# repeats it has a value for but the test has not


@dataclass
class ModesRow:
    """One [[modes]] declaration at one CPU count (and sweep value)."""
    modes: object	# experiments.Modes
    label: str		# where the test was taken (ratios.Pair.label)
    key: tuple		# ratios.Pair.key, to match the ratio rows it speaks for
    inside: frozenset	# repeats in the mode
    outside: frozenset	# repeats not in it
    splits: list	# of Split: the test first, then the ratios named in splits

    def count(self):
        """"k of N": repeats in the mode, of those the test sorted."""
        return f"{len(self.inside)} of {len(self.inside) + len(self.outside)}"


def _ref_text(ref):
    return ref.metric + (f"@{ref.variant}" if ref.variant else "")


def threshold_text(modes):
    """The test as the report states it."""
    return f"{_ref_text(modes.numerator)} / {_ref_text(modes.denominator)} above {modes.above:g}"


def _split(name, values, inside, outside):
    return Split(name, [values[r] for r in sorted(inside) if r in values],
                 [values[r] for r in sorted(outside) if r in values],
                 sum(r not in inside and r not in outside for r in values))


def rows(experiment, groups):
    """One ModesRow per declaration and test pair (CPU count, sweep value) measured."""
    by_name = {r.name: r for r in experiment.ratios}
    out = []
    for modes in experiment.modes:
        for test in ratios.pairs(groups, modes.numerator, modes.denominator):
            values = test.estimate.by_repeat
            inside = frozenset(r for r, v in values.items() if v > modes.above)
            outside = frozenset(values) - inside
            splits = [_split(threshold_text(modes), values, inside, outside)]
            for name in modes.splits:
                ratio = by_name[name]
                for pair in ratios.pairs(groups, ratio.numerator, ratio.denominator):
                    if controls.covers(test.key, pair.key):
                        shown = name if pair.label in ("", test.label) else f"{name} ({pair.label})"
                        splits.append(_split(shown, pair.estimate.by_repeat, inside, outside))
            out.append(ModesRow(modes, test.label, test.key, inside, outside, splits))
    return out


def note(mode_rows, ratio_row):
    """What the modes say beside a seed ratio's row ("collapsed in 1 of 3"), or ""."""
    return "; ".join(f"{m.modes.name} in {m.count()}" for m in mode_rows
                     if ratio_row.ratio.name in m.modes.splits and controls.covers(m.key, ratio_row.pair.key))
