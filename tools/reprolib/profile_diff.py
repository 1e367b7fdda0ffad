"""profile_diff - what changed between two profiles of the same program
(say rwsem_spin=on, then off), for `profile-report --diff BEFORE AFTER`.

Each side is normalised by its own total samples before anything is
compared: the two runs took different numbers of samples, and a frame
that kept its share of the time has not changed, whatever its count did.
Changes are in percentage points of share.

    frame_changes(before, after)   {root-first tuple of names: change in inclusive share}
                                   for every frame of AFTER: what the differential flame
                                   graph (flamegraph.svg(change=...)) colours
    self_changes(before, after)    [(function, share before, share after)], the biggest
                                   change in self share (samples with it as the leaf) first
    table(rows, ...)               those rows as text

before and after are Counters of root-first ';' stacks (profile.counts_of).
"""
from collections import Counter


def path_shares(counts):
    """{root-first tuple: share (0 - 1) of the samples whose stack passes through it}."""
    total = sum(counts.values())
    shares = Counter()
    for stack, n in counts.items():
        frames = tuple(stack.split(";"))
        for depth in range(1, len(frames) + 1):
            shares[frames[:depth]] += n / total
    return shares


def self_shares(counts):
    """{function: share (0 - 1) of the samples taken in it, not in what it called}."""
    total = sum(counts.values())
    shares = Counter()
    for stack, n in counts.items():
        shares[stack.rsplit(";", 1)[-1]] += n / total
    return shares


def frame_changes(before, after):
    """Each frame of AFTER: its share there less its share in BEFORE, in points."""
    was, now = path_shares(before), path_shares(after)
    return {path: 100 * (share - was.get(path, 0.0)) for path, share in now.items()}


def self_changes(before, after, limit=20):
    """(function, percent before, percent after) for the limit functions whose
    self share moved most, in either direction; those of only one side too."""
    was, now = self_shares(before), self_shares(after)
    rows = [(name, 100 * was.get(name, 0.0), 100 * now.get(name, 0.0))
            for name in set(was) | set(now)]
    rows.sort(key=lambda r: (-abs(r[2] - r[1]), r[0]))
    return rows[:limit]


def table(rows, before_name, after_name, before_total, after_total):
    """The flat table of self_changes, a header naming the two sides first."""
    out = [f"# Differential profile: {before_name} ({before_total} samples) -> "
           f"{after_name} ({after_total} samples)",
           "# Self share of each function, each side over its own samples; change in points",
           "#   Before     After    Change  Symbol"]
    out += [f"  {b:7.2f}%  {a:7.2f}%  {a - b:+7.2f}   {name}" for name, b, a in rows]
    return "\n".join(out) + "\n"
