"""report - report.md: where the run stood, and per regression our ratios
next to the seed's and Linux's, the verdict, the figures behind them, the
plots, and every step that did not end well (partial results are shown,
marked, never dropped).

Not for: computing anything (summary.py, ratios.py) or drawing (plots.py).
"""
import statistics

from . import anchors, controls, load, modes, ratios

TCG_NOTE = ("TCG executes every instruction faithfully but models no caches, write combining "
            "or branch prediction, and its costs are not hardware costs: these figures show "
            "*instruction-path* differences (trap vs system call vs vDSO, spin vs sleep) only.")
KVM_NOTE = "KVM with hardware virtualization: figures include the host CPU's micro-architecture."
BARE_NOTE = ("Bare metal (the USB stick, `tools/reproduce --from-console`): the figures measure that "
             "machine's CPU, caches and memory; the host CPU above is that machine's.")
ICOUNT_NOTE = ("icount, the deterministic ground (`--ground icount`): TCG whose clocks count "
               "instructions, every one costing the same 1 ns. It shows instruction paths and counts; "
               "it cannot show caches, memory latency or any micro-architecture. Its vCPUs take turns "
               "on one host thread, so a vCPU spinning on a lock burns its turn while the holder waits "
               "for its own: spinning (rwsem's osq and its fixes) looks costlier than on real SMP. "
               "The host's load cannot move a figure: work on one vCPU repeats within 0.5 % from run to "
               "run (`make test` holds it to that); threads contending across vCPUs (the rwsem storms, "
               "fs_mark's CPU split) follow how QEMU interleaves the vCPUs, up to 2x for `osq` "
               "(docs/grounds.md), so the spread between repeats is the workload's own, not the host's.")
NOTES = {"tcg": TCG_NOTE, "kvm": KVM_NOTE, "bare metal": BARE_NOTE, "icount": ICOUNT_NOTE}


def ground(boots):
    """The accelerator of the run's guests (rewind's first), or None."""
    guests = [b for b in boots if b["kernel"] != "hosted"]
    rewind = next((b for b in guests if b["kernel"] == "rewind"), guests[0] if guests else None)
    return rewind["machine"].get("accelerator", "?") if rewind else None


def _fmt(value):
    if value is None:
        return "-"
    return f"{value:.3g}" if abs(value) < 1000 else f"{value:.0f}"


def _dropped(estimate):
    return ", ".join(f"{estimate.dropped[r]} {r}" for r in ratios.DROP_REASONS if estimate.dropped.get(r))


def _estimate(estimate):
    """"median (low - high, method of n; dropped: ...)": a figure never without its interval and losses."""
    dropped = _dropped(estimate)
    i = estimate.interval
    if i is None:
        return "-" + (f" (dropped: {dropped})" if dropped else "")
    return (f"{_fmt(i.value)} ({_fmt(i.low)} - {_fmt(i.high)}, {i.describe()}"
            + (f"; dropped: {dropped}" if dropped else "") + ")")


def _repeats(group):
    """"have of planned" repeats of a figure, with the failed and missing ones."""
    have = len(group.by_repeat())
    losses = ", ".join(f"{n} {what}" for what, n in (("failed", len(group.failed)), ("missing", len(group.missing)))
                       if n)
    return f"{have} of {len(group.planned | set(group.by_repeat()))}" + (f" ({losses})" if losses else "")


def _host_load(record):
    h = record.get("host_load") or {}
    if h.get("load_start") is None:
        return "-"
    steal = f", steal {h['host_steal_pct']:g} %" if h.get("host_steal_pct") else ""
    return f"{h['load_start']:g} - {h['load_end']:g}{steal}"


def _table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |" for row in rows]
    return lines


def _machine_section(boots):
    guests = [b for b in boots if b["kernel"] != "hosted"]
    rewind = next((b for b in guests if b["kernel"] == "rewind"), guests[0] if guests else None)
    if rewind is None:
        return ["No guest booted."]
    m = rewind["machine"]
    linux = [b for b in boots if b["kernel"] == "linux"]
    accel = m.get("accelerator", "?")
    rows = [
        ("host CPU", f"{m.get('host_cpu_model', '?')} ({m.get('host_cpus', '?')} CPUs)"),
        ("accelerator", accel.upper()),
        ("QEMU", m.get("qemu_version", "?")),
        ("guest", f"{m.get('guest_cpus', '?')} vCPUs, {m.get('guest_memory', '?')}, "
                  f"TSC {_fmt(m.get('guest_tsc_mhz'))} MHz"),
        ("rewind", f"git {m.get('git_revision', '?')}"),
        ("Linux column", linux[0]["machine"].get("guest_release") or "Linux (release not seen)"
         if linux else "not run (`--with-linux` adds it)"),
    ]
    if any(b["kernel"] == "hosted" for b in boots):
        rows.append(("hosted column", f"{m.get('host_cpu_model', '?')}: kernel code in host "
                     "programs (tests/hosted/), user mode, real caches"))
    peak, cpus = load.worst(boots)
    if peak is not None:
        rows.append(("host load", f"load average up to {peak:g} over the timed boots ({cpus} CPUs)"))
    rows = [(k, str(v).replace("None", "-")) for k, v in rows]	# a run read from consoles has no QEMU
    return _table(["", ""], rows)


def _boots_section(boots):
    rows = [(b["boot"], b["status"], f"{b['steps_ok']} of {b['steps']}", f"{b['seconds']:.0f}",
             b["garbled_lines"], f"[log]({b['console_log']})", _host_load(b)) for b in boots]
    return _table(["boot", "status", "steps ok", "seconds", "garbled lines", "console",
                   "host load (start - end)"], rows)


def _seed(ratio):
    return f"{ratio.seed:g}" + (f": {ratio.seed_text}" if ratio.seed_text else "")


def _ratio_section(experiment, ratio_rows, mode_rows=()):
    rows = []
    for r in ratio_rows:
        ours = _estimate(r.pair.estimate) + ("" if r.pair.complete or r.ours is None else " *partial*")
        in_modes = modes.note(mode_rows, r)
        ours += f"; {in_modes} (see Modes)" if in_modes else ""
        row = (r.ratio.name, r.pair.label, _seed(r.ratio), ours, _estimate(r.linux))
        hosted = _estimate(r.hosted) + (f" ({r.hosted_verdict})" if r.hosted.interval else "")
        rows.append(row + ((hosted,) if experiment.hosted else ()) + (r.verdict,))
    if not rows:
        return ["No seed ratios are declared for this experiment."]
    hosted = ["hosted: this CPU, user mode (reproduced?)"] if experiment.hosted else []
    return (_table(["ratio", "variant", "seed", "ours: median (interval; dropped repeats)",
                    "Linux 6.1, same VM"] + hosted + ["reproduced"], rows)
            + ["", "Each ratio is taken per repeat; ours is their median, the interval their min - max "
               "under 8 repeats, else a bootstrap 95 % interval of the median (fixed seed). Reproduced: "
               "the whole interval on the seed's side of 1 and the effect (the log of the ratio) within "
               "the ratio's tolerance factor of the seed's (default 2) somewhere in it; inconclusive "
               "when the interval straddles 1; wrong direction only when all of it lies on the other "
               "side. A failed control voids the verdicts it guards. Repeats that failed, are missing "
               "or gave a zero are dropped and counted. Ratios of the fastest-batch medians where the "
               "metric is `_batchmin`."])


def _values(values):
    """"median (min - max) of n" of one mode's per-repeat values, or "-"."""
    if not values:
        return "-"
    spread = f" ({_fmt(min(values))} - {_fmt(max(values))})" if len(values) > 1 else ""
    return f"{_fmt(statistics.median(values))}{spread} of {len(values)}"


def _modes_section(mode_rows):
    if not mode_rows:
        return []
    out = ["", "### Modes", "",
           "Repeats that fall into two modes rather than spread around one value: a test ratio sorts "
           "each repeat, and each ratio is given per mode, median (min - max) of the repeats in it, "
           "beside its median over all. The median of all alone would show one mode and hide the other."]
    for m in mode_rows:
        where = f" ({m.label})" if m.label else ""
        out += ["", f"**{m.modes.name}{where}: {m.count()} repeats**, sorted by {modes.threshold_text(m.modes)}: "
                f"{m.modes.why}", ""]
        rows = [(s.name, _values(s.inside), _values(s.outside), _values(s.inside + s.outside)
                 + (f"; {s.unsorted} not sorted (no test figure)" if s.unsorted else ""))
                for s in m.splits]
        out += _table(["ratio", m.modes.name, f"not {m.modes.name}", "all"], rows)
    return out


def _anchor_section(experiment, groups):
    if not experiment.anchors:
        return []
    rows = [(r.label, f"{_fmt(r.rewind)} {r.unit}", f"{_fmt(r.linux)} {r.unit}", _estimate(r.estimate),
             r.anchor.better, "-" if r.anchor.at_most == float("inf") else f"at most {r.anchor.at_most:g}",
             r.state)
            for r in anchors.rows(experiment, groups)]
    return ["", "### Against Linux 6.1 (the anchor)", "",
            "Each figure on rewind over the same figure on Linux 6.1 in the same VM, taken per repeat "
            "(the two boots paired by repeat number). Where lower is better (a time), below 1 puts rewind "
            "ahead; where higher is better (a rate, a scaling ratio), above 1 does. The goal is met when "
            "the whole interval lies at or below it, missed when all of it lies above. Linux's figures "
            "come with `--with-linux`; a row per CPU count when the experiment boots several.", ""] + \
        _table(["row", "rewind (median)", "Linux 6.1 (median)", "rewind / Linux (interval)", "better", "goal",
                "goal met?"], rows)


def _controls_section(experiment, control_rows):
    if not control_rows:
        return []
    rows = [(c.control.name, c.pair.label, controls.bounds_text(c.control), _estimate(c.pair.estimate),
             c.state) + ((f"{_estimate(c.hosted)} ({c.hosted_state})",) if experiment.hosted else ())
            + (c.control.why,) for c in control_rows]
    return ["", "### Controls", "", "Ratios that must lie within their bounds for the verdicts they "
            "guard to mean anything: one that fails voids them, one that straddles a bound leaves them "
            "inconclusive.", ""] + \
        _table(["control", "variant", "must be", "ours", "state"] + (["hosted"] if experiment.hosted else [])
               + ["why"], rows)


def _figures_section(experiment, groups):
    wanted = {ref.metric for r in experiment.ratios for ref in (r.numerator, r.denominator)}
    wanted |= {ref.metric for p in experiment.plots for ref in p.metrics}
    wanted |= {a.metric.metric for a in experiment.anchors}
    rows = [(g.kernel, g.bench, g.metric, " ".join(filter(None, [g.variant, g.params_text()])),
             f"{_fmt(g.median)} {g.unit}", f"{_fmt(min(g.values))} - {_fmt(max(g.values))}",
             f"{g.spread_pct:.0f} %", _repeats(g), "yes" if g.complete else "**no**")
            for g in groups if g.metric in wanted]
    if not rows:
        return ["No figures (see the boots above)."]
    return _table(["kernel", "bench", "metric", "variant", "median", "min - max", "spread", "repeats",
                   "complete"], rows) + ["", "Every figure is in `summary.csv`; every raw one in `results.jsonl`."]


def _plots_section(drawn):
    out = []
    for plot, base, problem in drawn:
        if base:
            out += [f"![{plot.title}](plots/{base}.png)", f"([SVG](plots/{base}.svg))", ""]
        else:
            out += [f"- {plot.title}: not drawn ({problem})"]
    return out or ["No plots are declared for this experiment."]


def _bad_steps(steps):
    bad = [s for s in steps if s["status"] != "ok"]
    if not bad:
        return []
    rows = [(s["boot"], s["step"], s["program"], s["variant"], s["repeat"], s["status"]) for s in bad]
    return ["", "Steps that did not end well (their figures, if any, are marked incomplete):", ""] + \
        _table(["boot", "step", "program", "variant", "repeat", "status"], rows)


def partial_reasons(records, unreadable_lines):
    reasons = []
    if unreadable_lines:
        reasons.append(f"{unreadable_lines} unreadable lines in results.jsonl")
    boots = [r for r in records if r["type"] == "boot"]
    reasons += [f"boot {b['boot']}: {b['status']}" for b in boots if b["status"] != "ok"]
    bad = sum(r["type"] == "step" and r["status"] != "ok" for r in records)
    if bad:
        reasons.append(f"{bad} steps did not end well")
    return reasons


def _profiles_section(experiment, profiled):
    if not profiled:
        return []
    frames = ", ".join(f"`{f}`" for f in experiment.profile_frames) or "(none named)"

    def pct(value):
        return "-" if value is None else f"{100 * value:.1f} %"
    def callers(shares):
        return ", ".join(f"`{name}` {100 * share:.1f} %" for name, share in shares.get("callers", [])[:3]) \
            or "-"
    rows = [(s["boot"], s["variant"], " ".join(f"{k}={v}" for k, v in sorted(s["params"].items())),
             samples, pct(shares.get("share")), pct(shares.get("busy")), pct(shares.get("sampled")),
             callers(shares), f"[flame graph](plots/{svg})" if svg else f"not drawn ({problem})")
            for s, svg, samples, shares, problem in profiled]
    counted = "whose leaf (perf's \"self\") is one of" if experiment.profile_self else "whose stack holds"
    out = ["", "### Profiles", "", f"Share of kernel samples {counted} {frames}"
           + (f"; the seed: {experiment.profile_seed}." if experiment.profile_seed else ".")
           + " \"of busy\": of the kernel samples outside the idle loop (a halted CPU is sampled here, "
           "not by perf's `cycles`); \"sampled\": samples over what the CPUs would have taken running "
           "the whole step (under TCG, a vCPU the host does not run takes none: the rest is steal); "
           "\"callers\": the system calls those samples ran under, by share.", ""]
    out += _table(["boot", "variant", "params", "samples", "share", "of busy", "sampled", "callers",
                   "flame graph"], rows)
    return out + [""] + [f"![{s['variant']}](plots/{svg})" for s, svg, *_ in profiled if svg]


def render(run, experiments, records, groups, drawn, reasons, profiled=None):
    """report.md's text. run: the run record; drawn: plots.draw's answers per experiment name;
    profiled: outputs.draw_profiles's answers per experiment name."""
    boots = [r for r in records if r["type"] == "boot"]
    status = f"**partial**: {'; '.join(reasons)}" if reasons else "complete"
    accel = ground(boots)
    out = ["# rewind: reproducing the regressions", "",
           f"Run of {run['started']}, `{run['command']}`: {status}.", ""]
    if accel:
        out += [f"**Ground: {accel.upper()}.** " + NOTES.get(accel, KVM_NOTE), ""]
    warning = load.loaded_warning(records)
    if warning:
        out += ["> **Loaded host.** " + warning, ""]
    out += ["## Where it ran", ""] + _machine_section(boots)
    for e in experiments:
        mine = [g for g in groups if g.experiment == e.name]
        ratio_rows, control_rows = controls.judge(e, mine)
        out += ["", f"## {e.name}: {e.title}", ""]
        seeds = ", ".join(f"`{s}`" for s in e.seeds) or "none"
        if e.doc:
            out += [f"Regression page: [`{e.doc}`](../../{e.doc}); seeds: {seeds}.", ""]
        out += _boots_section([b for b in boots if b["experiment"] == e.name])
        out += _bad_steps([r for r in records if r["type"] == "step" and r["experiment"] == e.name])
        out += _controls_section(e, control_rows)
        out += _anchor_section(e, mine)
        mode_rows = modes.rows(e, mine)
        out += ["", "### Against the seed", ""] + _ratio_section(e, ratio_rows, mode_rows)
        out += _modes_section(mode_rows)
        out += ["", "### Figures", ""] + _figures_section(e, mine)
        out += ["", "### Plots", ""] + _plots_section(drawn.get(e.name, []))
        out += _profiles_section(e, (profiled or {}).get(e.name, []))
    return "\n".join(out) + "\n"
