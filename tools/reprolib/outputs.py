"""outputs - everything a results directory holds besides results.jsonl,
made from results.jsonl alone: summary.csv, plots/ and report.md. So a
report can be made again from a finished (or cut-off) run with
`tools/reproduce --report DIR`.

Not for: running guests (runner.py).
"""
import os

from . import flamegraph, plots, profile, records, report, summary
from .experiments import ExperimentError


def write(directory, registry):
    """Writes the outputs of a results directory; returns the reasons it is partial."""
    records_list, unreadable = records.load(os.path.join(directory, "results.jsonl"))
    run = next((r for r in records_list if r["type"] == "run"), {"started": "?", "command": "?"})
    names = run.get("experiments") or list(dict.fromkeys(r["experiment"] for r in records_list
                                                         if "experiment" in r))
    unknown = [n for n in names if n not in registry]
    if unknown:
        raise ExperimentError(f"results name experiments that are no longer registered: {', '.join(unknown)}")
    experiments = [registry[n] for n in names]
    groups = summary.group_figures(records_list)
    summary.account_steps(groups, records_list)
    summary.write_csv(os.path.join(directory, "summary.csv"), groups)
    plot_dir = os.path.join(directory, "plots")
    os.makedirs(plot_dir, exist_ok=True)
    drawn = {e.name: plots.draw(e, groups, plot_dir) for e in experiments}
    profiled = {e.name: draw_profiles(directory, e, records_list, plot_dir) for e in experiments}
    reasons = report.partial_reasons(records_list, unreadable)
    boots_run = sum(r["type"] == "boot" for r in records_list)
    if boots_run < run.get("boots_planned", 0):
        reasons.insert(0, f"only {boots_run} of {run['boots_planned']} boots ran")
    with open(os.path.join(directory, "report.md"), "w") as f:
        f.write(report.render(run, experiments, records_list, groups, drawn, reasons, profiled))
    return reasons


def draw_profiles(directory, experiment, records_list, plot_dir):
    """A flame graph per profiled step of the experiment (plots/flame-<boot>-step<N>.svg);
    per step (step record, SVG name or None, samples, {"share": of kernel samples
    in the experiment's profile_frames, "busy": the same outside the idle loop,
    "sampled": profile.sampled_fraction, "callers": profile.frame_callers}, why it was
    not drawn)."""
    out = []
    for step in records_list:
        if step["type"] != "step" or step["experiment"] != experiment.name or "profile" not in step:
            continue
        name = f"flame-{step['boot']}-step{step['step']}.svg"
        title = f"{experiment.name}: {step['program']} {step['variant']}" + \
            "".join(f" {k}={v}" for k, v in sorted(step["params"].items()))
        try:
            with open(os.path.join(directory, step["profile"]), errors="replace") as f:
                text = f.read()
            samples = flamegraph.write_flamegraph(text, os.path.join(plot_dir, name), title)
            parsed = profile.parse(text)
            frames, self_only = experiment.profile_frames, experiment.profile_self
            shares = {"share": profile.kernel_share(parsed, frames, self_only=self_only),
                      "busy": profile.kernel_share(parsed, frames, busy=True, self_only=self_only),
                      "sampled": profile.sampled_fraction(parsed, step.get("seconds")),
                      "callers": profile.frame_callers(parsed, frames, self_only)}
            out.append((step, name, samples, shares, None))
        except (OSError, profile.ProfileError) as e:
            out.append((step, None, 0, {}, str(e)))
    return out
