"""plots - the experiment's declared plots, drawn by gnuplot as PNG, SVG and
a vector PDF (for a paper).

A plot names metrics. Without a sweep they become bars, one cluster per
metric and one bar per variant (and Linux), at the median with an error bar
from min to max; metrics of a sweep run become lines over the swept
parameter (threads, CPUs ...), one per variant and metric. Both axes are
labelled, with the unit; the caption under the plot says n (the repeats a
point stands on) and what the bars are (min-max: the raw spread, not
intervals.py's interval of a ratio); a variant is named by the knobs it
sets (rwsem_spin=osq), as a reader of the kernel knows it, and a second
kernel build by its make variables (PARAVIRT=n build); a plot of one
series has no legend. On a log scale a zero has no place, so it is drawn
at the axis' floor (a tenth of the smallest positive value) and the caption
says so, instead of vanishing and leaving its error bar's cap afloat. The generated
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
PDF_SIZE = "7in,3.9in"	# the PNG's shape, a page's width


def knob_names(experiment):
    """{variant name: "knob=value,..."}: a variant as the knobs it sets, and a
    second kernel build's as the make variables that built it (PARAVIRT=n build)."""
    names = {v.name: ",".join(f"{k}={val}" for k, val in sorted(v.knobs.items()))
             for run in experiment.runs for v in run.variants if v.knobs}
    names.update({b.name: " ".join(b.make) + " build" for b in experiment.builds})
    return names


def _series_name(group, knobs):
    if group.kernel == "linux":
        return LINUX_TITLE
    if group.variant == "default":
        return "rewind"
    return f"rewind, {knobs.get(group.variant, group.variant)}"


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


def _stats(values, floor):
    """median, min, max as data columns, none below floor; "-" (missing) for none."""
    if not values:
        return ["-"] * 3
    return [f"{max(v, floor):.6g}" for v in (statistics.median(values), min(values), max(values))]


def _bars(plot, groups, base, knobs, floor):
    """(data, plot command, series count) for a bar chart."""
    metrics = [ref.metric for ref in plot.metrics if any(g.metric == ref.metric for g in groups)]
    series = list(dict.fromkeys(_series_name(g, knobs) for g in groups))
    cell = {}
    for g in groups:	# Linux boots pool into one series
        cell.setdefault((g.metric, _series_name(g, knobs)), []).extend(g.values)
    rows = []
    for metric, label in zip(metrics, short_labels(metrics)):
        row = [_label(label)]
        for s in series:
            row += _stats(cell.get((metric, s), []), floor)
        rows.append(" ".join(row))
    using = [f"using {2 + 3 * i}:{3 + 3 * i}:{4 + 3 * i}" + (":xtic(1)" if i == 0 else "")
             + f" title {_quote(s)}" for i, s in enumerate(series)]
    command = ("set style data histograms\nset style histogram errorbars gap 2 lw 1\n"
               "set style fill solid 0.75 border -1\nset xtics rotate by -25\n"
               f"set xlabel {_quote('metric (' + ', '.join(sorted({g.bench for g in groups})) + ')')}\n"
               f"plot {_quote(base + '.dat')} " + ", '' ".join(using))
    return "\n".join(rows) + "\n", command, len(series)


def _lines(plot, groups, base, knobs, floor):
    """(data, plot command, series count) for lines over a swept parameter."""
    param = next(g.params[0][0] for g in groups if g.params)
    several = len({g.metric for g in groups}) > 1
    series = {}
    for g in groups:
        name = f"{g.metric} {_series_name(g, knobs)}" if several else _series_name(g, knobs)
        series.setdefault(name, {}).setdefault(dict(g.params).get(param), []).extend(g.values)
    blocks, using = [], []
    for i, (name, points) in enumerate(series.items()):
        block = [f"# {name}"]
        for x in sorted(p for p in points if p is not None):
            block.append(" ".join([str(x)] + _stats(points[x], floor)))
        blocks.append("\n".join(block))
        using.append(f"index {i} using 1:2:3:4 with yerrorlines title {_quote(name)}")
    xs = sorted({x for points in series.values() for x in points if x is not None})
    command = (f"set xlabel {_quote(param)}\nset xtics ({', '.join(map(str, xs))})\n"
               + ("set logscale x 2\n" if xs[0] > 0 and xs[-1] / xs[0] >= 8 else "")
               + f"plot {_quote(base + '.dat')} " + ", '' ".join(using))
    return "\n\n\n".join(blocks) + "\n", command, len(series)


def caption(groups, floor):
    """n, what the bars are, and where a zero went."""
    counts = sorted({len(g.values) for g in groups})
    n = str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
    text = f"n = {n} repeats per point; point: median, bars: min-max"
    if floor and any(v <= 0 for g in groups for v in g.values):
        text += f"; 0 drawn at {floor:.3g} (log scale)"
    return text


def _script(experiment, plot, groups, base):
    lines = any(g.params for g in groups if g.kernel == "rewind")
    positive = [v for g in groups for v in g.values if v > 0]
    log_y = bool(positive) and max(positive) / min(positive) > 30
    floor = min(positive) / 10 if log_y else float("-inf")
    data, command, series = (_lines if lines else _bars)(plot, groups, base, knob_names(experiment), floor)
    units = " / ".join(sorted({g.unit for g in groups}))
    setup = "\n".join([
        f"set title {_quote(f'{experiment.name}: {plot.title}')} noenhanced",
        f"set ylabel {_quote(f'median ({units})')}",
        f"set label 1 {_quote(caption(groups, floor if log_y else 0))} at screen 0.01,0.02 noenhanced",
        "set bmargin 8",
        'set datafile missing "-"', "set key top left noenhanced" if series > 1 else "set key off",
        "set grid ytics",
        f"set logscale y\nset yrange [{floor:.6g}:*]" if log_y else "set yrange [0:*]"])
    body = f"{setup}\n{command}\n"
    script = (f"set terminal pngcairo size {SIZE} noenhanced font ',10'\n"
              f"set output {_quote(base + '.png')}\n{body}"
              f"set terminal svg size {SIZE} noenhanced\nset output {_quote(base + '.svg')}\nreplot\n"
              f"set terminal pdfcairo size {PDF_SIZE} noenhanced font ',8'\n"
              f"set output {_quote(base + '.pdf')}\nreplot\n")
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
