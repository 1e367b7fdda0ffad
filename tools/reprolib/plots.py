"""plots - the experiment's declared plots, drawn by gnuplot as PNG and SVG.

A plot names metrics. Without a sweep they become bars, one cluster per
metric and one bar per variant (and Linux), at the median with an error bar
from min to max; metrics of a sweep run become lines over the swept
parameter (threads, CPUs ...), one per variant and metric. The generated
.gp and .dat files are kept beside the images, so a plot can be restyled by
hand and redrawn with `gnuplot NAME.gp`.

Not for: choosing what to plot (the experiment file does).
"""
import os
import shutil
import statistics
import subprocess

LINUX_TITLE = "Linux 6.1, same VM"
SIZE = "1000,560"


def _series_name(group):
    if group.kernel == "linux":
        return LINUX_TITLE
    return "rewind" if group.variant == "default" else f"rewind, {group.variant}"


def _matching(groups, plot):
    return [g for g in groups if any(
        g.metric == ref.metric and (ref.bench is None or g.bench == ref.bench)
        and (ref.variant is None or g.kernel != "rewind" or g.variant == ref.variant)
        for ref in plot.metrics)]


def short_labels(metrics):
    """Metric names without their common prefix and a common _batchmin suffix."""
    parts = [m.split("_") for m in metrics]
    if len(parts) > 1:
        while all(len(p) > 1 and p[0] == parts[0][0] for p in parts):
            parts = [p[1:] for p in parts]
    if all(len(p) > 1 and p[-1] == "batchmin" for p in parts):
        parts = [p[:-1] for p in parts]
    return ["_".join(p) for p in parts]


def _quote(text):
    """A string in a gnuplot command."""
    return "'" + text.replace("'", "''") + "'"


def _label(text):
    """A string in a gnuplot data file."""
    return '"' + text.replace('"', "'") + '"'


def _stats(values):
    """median, min, max as data columns; "-" (missing) for none."""
    if not values:
        return ["-"] * 3
    return [f"{v:.6g}" for v in (statistics.median(values), min(values), max(values))]


def _bars(plot, groups, base):
    """(data, plot command) for a bar chart."""
    metrics = [ref.metric for ref in plot.metrics if any(g.metric == ref.metric for g in groups)]
    series = list(dict.fromkeys(_series_name(g) for g in groups))
    cell = {}
    for g in groups:	# Linux boots pool into one series
        cell.setdefault((g.metric, _series_name(g)), []).extend(g.values)
    rows = []
    for metric, label in zip(metrics, short_labels(metrics)):
        row = [_label(label)]
        for s in series:
            row += _stats(cell.get((metric, s), []))
        rows.append(" ".join(row))
    using = [f"using {2 + 3 * i}:{3 + 3 * i}:{4 + 3 * i}" + (":xtic(1)" if i == 0 else "")
             + f" title {_quote(s)}" for i, s in enumerate(series)]
    command = ("set style data histograms\nset style histogram errorbars gap 2 lw 1\n"
               "set style fill solid 0.75 border -1\nset xtics rotate by -25\n"
               f"plot {_quote(base + '.dat')} " + ", '' ".join(using))
    return "\n".join(rows) + "\n", command


def _lines(plot, groups, base):
    """(data, plot command) for lines over a swept parameter."""
    param = next(g.params[0][0] for g in groups if g.params)
    several = len({g.metric for g in groups}) > 1
    series = {}
    for g in groups:
        name = f"{g.metric} {_series_name(g)}" if several else _series_name(g)
        series.setdefault(name, {}).setdefault(dict(g.params).get(param), []).extend(g.values)
    blocks, using = [], []
    for i, (name, points) in enumerate(series.items()):
        block = [f"# {name}"]
        for x in sorted(p for p in points if p is not None):
            block.append(" ".join([str(x)] + _stats(points[x])))
        blocks.append("\n".join(block))
        using.append(f"index {i} using 1:2:3:4 with yerrorlines title {_quote(name)}")
    xs = sorted({x for points in series.values() for x in points if x is not None})
    command = (f"set xlabel {_quote(param)}\nset xtics ({', '.join(map(str, xs))})\n"
               + ("set logscale x 2\n" if xs[0] > 0 and xs[-1] / xs[0] >= 8 else "")
               + f"plot {_quote(base + '.dat')} " + ", '' ".join(using))
    return "\n\n\n".join(blocks) + "\n", command


def _script(experiment, plot, groups, base):
    lines = any(g.params for g in groups if g.kernel == "rewind")
    data, command = (_lines if lines else _bars)(plot, groups, base)
    values = [v for g in groups for v in g.values if v > 0]
    log_y = values and max(values) / min(values) > 30
    setup = "\n".join([
        f"set title {_quote(f'{experiment.name}: {plot.title}')} noenhanced",
        f"set ylabel {_quote(' / '.join(sorted({g.unit for g in groups})))}",
        'set datafile missing "-"', "set key top left noenhanced", "set grid ytics",
        "set logscale y" if log_y else "set yrange [0:*]"])
    body = f"{setup}\n{command}\n"
    script = (f"set terminal pngcairo size {SIZE} noenhanced font ',10'\n"
              f"set output {_quote(base + '.png')}\n{body}"
              f"set terminal svg size {SIZE} noenhanced\nset output {_quote(base + '.svg')}\nreplot\n")
    return data, script


def draw(experiment, groups, directory):
    """Draws the experiment's plots; returns (plot, image base name or None, problem or None)."""
    out = []
    for plot in experiment.plots:
        mine = _matching([g for g in groups if g.experiment == experiment.name], plot)
        if not mine:
            out.append((plot, None, "no figures"))
            continue
        if not shutil.which("gnuplot"):
            out.append((plot, None, "gnuplot is missing (tools/deps installs gnuplot-nox)"))
            continue
        base = f"{experiment.name}-{plot.name}"
        data, script = _script(experiment, plot, mine, base)
        with open(os.path.join(directory, base + ".dat"), "w") as f:
            f.write(data)
        with open(os.path.join(directory, base + ".gp"), "w") as f:
            f.write(script)
        done = subprocess.run(["gnuplot", base + ".gp"], cwd=directory, capture_output=True, text=True)
        problem = None
        if done.returncode:
            problem = (done.stderr.strip().splitlines() or [f"gnuplot failed ({done.returncode})"])[-1]
        out.append((plot, None if problem else base, problem))
    return out
