"""controls - the ratios an experiment's verdicts stand on ([[control]] in
experiments/README.md): each must lie within its bounds on the ground that
measured it, or the verdicts it guards mean nothing. A control that fails
(its whole interval outside the bounds) voids them, with its figure and
bound as the reason; one that straddles a bound, or was not measured, makes
them inconclusive: nothing says the ground was sound. A control row guards
the ratio rows of the same sweep value and CPU count (and variant, when it
is taken per variant); the hosted column's verdicts by its hosted figure.

Not for: the seed ratios' own verdicts (ratios.py).
"""
from dataclasses import dataclass

from . import ratios

HOLDS, FAILS, UNSETTLED = "holds", "fails", "unsettled"


@dataclass
class ControlRow:
    control: object	# experiments.Control
    pair: ratios.Pair
    state: str
    hosted: ratios.Estimate
    hosted_state: str


def bounds_text(control):
    parts = ([f">= {control.at_least:g}"] if control.at_least else []) + \
        ([f"<= {control.at_most:g}"] if control.at_most != float("inf") else [])
    return " and ".join(parts)


def state(control, interval):
    if interval is None:
        return ratios.NOT_MEASURED
    if interval.within(control.at_least, control.at_most):
        return HOLDS
    if interval.above(control.at_most) or interval.below(control.at_least):
        return FAILS
    return UNSETTLED


def rows(groups, control):
    hosted = ratios.pooled(groups, control.numerator, control.denominator, "hosted")
    hosted_state = state(control, hosted.interval)
    return [ControlRow(control, p, state(control, p.estimate.interval), hosted, hosted_state)
            for p in ratios.pairs(groups, control.numerator, control.denominator)] or \
        [ControlRow(control, ratios.Pair("", (None, ()), ratios.Estimate(None), False),
                    ratios.NOT_MEASURED, hosted, hosted_state)]


def covers(control_key, ratio_key):
    """Whether a control row (or a modes row, modes.py) speaks for a ratio row: its
    sweep values and CPU count are among the ratio's, and its variant, if taken per
    variant, the same."""
    (c_variant, c_params), (r_variant, r_params) = control_key, ratio_key
    return set(c_params) <= set(r_params) and (c_variant is None or r_variant is None or c_variant == r_variant)


def _reason(control, found, estimate):
    """Why a control that does not hold leaves a verdict void or inconclusive."""
    if found == FAILS:
        i = estimate.interval
        return (f"void: control \"{control.name}\" failed ({i.value:.3g}, {i.low:.3g} - {i.high:.3g}; "
                f"must be {bounds_text(control)})")
    return f"inconclusive: control \"{control.name}\" {found}"


def _guarded(verdict, against):
    """The verdict under the (control, state, estimate) guarding it: the first
    failed control voids it, else the first unsettled one makes it inconclusive."""
    if verdict == ratios.NOT_MEASURED:
        return verdict
    for wanted in (FAILS, UNSETTLED, ratios.NOT_MEASURED):
        for control, found, estimate in against:
            if found == wanted:
                return _reason(control, found, estimate)
    return verdict


def apply(ratio_rows, control_rows):
    """Rewrites the verdicts of ratio_rows that a control row guards and does not hold."""
    for row in ratio_rows:
        mine = [c for c in control_rows if row.ratio.name in c.control.guards]
        row.verdict = _guarded(row.verdict, [(c.control, c.state, c.pair.estimate) for c in mine
                                             if covers(c.pair.key, row.pair.key)])
        row.hosted_verdict = _guarded(row.hosted_verdict, [(c.control, c.hosted_state, c.hosted) for c in mine])


def judge(experiment, groups):
    """The experiment's ratio rows, their verdicts under its controls, and the control rows."""
    control_rows = [c for control in experiment.controls for c in rows(groups, control)]
    ratio_rows = [r for ratio in experiment.ratios for r in ratios.rows(groups, ratio)]
    apply(ratio_rows, control_rows)
    return ratio_rows, control_rows
