"""experiments - the registry of experiments: one declarative TOML file each
in experiments/, read and checked here so that a mistake in a file is named
before any guest boots. The format is described in experiments/README.md.

Not for: running anything, or statistics (runner.py, summary.py).
"""
import dataclasses
import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

EXPECTATIONS = ("higher", "lower", "same")
GROUNDS = ("tcg", "icount", "kvm")	# tools/reproduce --ground
NAME_RE = re.compile(r"^[a-z0-9_-]+$")


class ExperimentError(Exception):
    """A malformed experiment file, or an unknown experiment name."""


@dataclass(frozen=True)
class Variant:
    name: str
    knobs: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Sweep:
    """A parameter the run is repeated over (threads, CPUs ...): a line plot."""
    param: str
    values: tuple
    quick_values: tuple


@dataclass(frozen=True)
class Run:
    bench: str
    args: str
    quick_args: str
    seconds: float
    quick_seconds: float
    variants: tuple
    sweep: Sweep | None
    profile: int = 0	# Hz: sample each step with profile= (first repeat only); 0: not profiled
    per_cpu: bool = False	# seconds and quick_seconds are per guest CPU of the boot


@dataclass(frozen=True)
class Hosted:
    """A host program of the hosted ground (hosted.py), run once per repeat."""
    program: str	# under the build directory: hosted/<name>
    args: str
    quick_args: str
    seconds: float
    quick_seconds: float

    def seconds_for(self, quick):
        return self.quick_seconds if quick else self.seconds


@dataclass(frozen=True)
class MetricRef:
    """"[BENCH:]METRIC[@VARIANT]": a figure of the experiment."""
    metric: str
    bench: str | None = None
    variant: str | None = None

    @staticmethod
    def parse(text):
        rest, _, variant = text.partition("@")
        bench, _, metric = rest.rpartition(":")
        if not NAME_RE.match(metric):
            raise ValueError(f"bad metric reference '{text}'")
        return MetricRef(metric, bench or None, variant or None)


@dataclass(frozen=True)
class Ratio:
    name: str
    numerator: MetricRef
    denominator: MetricRef
    seed: float
    seed_text: str
    expect: str
    tolerance: float	# "same": within this factor of 1; else the effect within this factor of the seed's


@dataclass(frozen=True)
class Control:
    """A ratio that must lie within bounds for the verdicts it guards to mean
    anything (controls.py): the ground doing what the comparison assumes."""
    name: str
    numerator: MetricRef
    denominator: MetricRef
    at_least: float	# 0: no lower bound
    at_most: float	# math.inf: no upper bound
    why: str		# the reason for the bounds, shown in the report
    guards: tuple	# names of the experiment's ratios it guards


@dataclass(frozen=True)
class Modes:
    """A ratio that sorts the repeats into two modes (modes.py): a repeat whose
    ratio lies above the threshold is in the named mode, the others are not;
    the ratios it splits get a median per mode beside the count of each."""
    name: str		# the mode above the threshold ("collapsed")
    numerator: MetricRef
    denominator: MetricRef
    above: float
    why: str		# why the threshold sorts the repeats, shown in the report
    splits: tuple	# names of the experiment's ratios given per mode


@dataclass(frozen=True)
class Anchor:
    """A figure of rewind's over the same figure of Linux in the same VM
    (anchors.py): Linux is the anchor, at_most the goal for the ratio. better:
    which way rewind is ahead, "lower" for a time, "higher" for a rate or a
    scaling ratio (no goal then: at_most reads a time's goal)."""
    name: str
    metric: MetricRef
    at_most: float	# math.inf: no goal
    better: str = "lower"


@dataclass(frozen=True)
class Plot:
    name: str
    title: str
    metrics: tuple	# of MetricRef


@dataclass(frozen=True)
class Build:
    """A second kernel build the experiment boots too (PARAVIRT=n beside the
    default build): its figures carry the variant name, as Linux's carry "linux"."""
    name: str	# the variant of its figures
    make: tuple	# make variables ("PARAVIRT=n",)
    dir: str	# its build tree, under the main one


@dataclass(frozen=True)
class Experiment:
    name: str
    title: str
    doc: str
    seeds: tuple
    repeat: int
    quick_repeat: int
    knob_defaults: dict
    linux_boots: tuple
    runs: tuple
    ratios: tuple
    plots: tuple
    cpus: tuple = ()	# one rewind (and Linux) boot per CPU count; () = --cpus
    profile_frames: tuple = ()	# the report gives each profile's share of kernel samples in these
    profile_seed: str = ""	# the seed's figure for that share
    profile_self: bool = False	# count a sample only when its leaf is one of them (perf's "self")
    knobs: tuple = ()	# knobs it is about that no variant sets (a benchmark switches them)
    hosted: tuple = ()	# of Hosted: the hosted ground's programs
    builds: tuple = ()	# of Build: one more rewind boot each
    controls: tuple = ()	# of Control
    stage: str = ""	# a host program putting what the runs need into each guest's root
    memory: str = ""	# the guest memory every boot gets at least ("2G"); "": --mem
    anchors: tuple = ()	# of Anchor: rewind / Linux per figure
    modes: tuple = ()	# of Modes: repeats sorted into two modes
    ground_cpus: dict = field(default_factory=dict)	# ground -> its own CPU list ([ground.NAME] cpus)

    def repeats(self, quick):
        return self.quick_repeat if quick else self.repeat

    def on_ground(self, ground):
        """The experiment as it runs on a ground: that ground's CPU list, if
        it has one, in place of cpus (icount's turns make steal of a second
        vCPU: docs/grounds.md)."""
        if ground not in self.ground_cpus:
            return self
        return dataclasses.replace(self, cpus=self.ground_cpus[ground])


def _need(table, key, kind, where, default=None):
    """table[key] checked to be a kind; default when absent (None: required)."""
    if key not in table:
        if default is None:
            raise ExperimentError(f"{where}: '{key}' is missing")
        return default
    value = table[key]
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise ExperimentError(f"{where}: '{key}' must be {kind.__name__}, not {value!r}")
    return value


def _tables(table, key, where):
    """table[key] as a list of tables ([[key]] in TOML); empty when absent."""
    items = _need(table, key, list, where, [])
    if not all(isinstance(item, dict) for item in items):
        raise ExperimentError(f"{where}: '{key}' must be a list of tables ([[{key}]])")
    return items


def _knobs(table, key, where):
    """A {knob: value} table; values become strings, as the guest's shell sees them."""
    knobs = _need(table, key, dict, where, {})
    for knob, value in knobs.items():
        if not NAME_RE.match(knob) or not isinstance(value, (str, int)) or \
                re.search(r"[\s'\"]", str(value)):
            raise ExperimentError(f"{where}: bad knob {knob} = {value!r}")
    return {k: str(v) for k, v in knobs.items()}


def _variant(table, where):
    name = _need(table, "name", str, where)
    if not NAME_RE.match(name):
        raise ExperimentError(f"{where}: variant name '{name}' may hold only a-z 0-9 _ -")
    return Variant(name, _knobs(table, "knobs", where))


def _sweep(table, where):
    if table is None:
        return None
    if not isinstance(table, dict):
        raise ExperimentError(f"{where}: must be a table {{ param = ..., values = [...] }}")
    param = _need(table, "param", str, where)
    values = tuple(_need(table, "values", list, where))
    if not values or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise ExperimentError(f"{where}: sweep values must be a non-empty list of integers")
    quick = tuple(_need(table, "quick_values", list, where, [values[0], values[-1]]))
    return Sweep(param, values, tuple(sorted(set(quick))))


def _run(table, where, knob_defaults):
    bench = _need(table, "bench", str, where)
    if not NAME_RE.match(bench):
        raise ExperimentError(f"{where}: bad benchmark name '{bench}'")
    args = _need(table, "args", str, where, "")
    variants = tuple(_variant(v, f"{where}, variant {i + 1}")
                     for i, v in enumerate(_tables(table, "variants", where)))
    variants = variants or (Variant("default"),)
    if len({v.name for v in variants}) != len(variants):
        raise ExperimentError(f"{where}: two variants share a name")
    for v in variants:
        missing = set(v.knobs) - set(knob_defaults)
        if missing:
            raise ExperimentError(f"{where}: knob {', '.join(sorted(missing))} needs a value "
                                  "in [knob_defaults] for the runs that do not set it")
    sweep = _sweep(table.get("sweep"), f"{where}, sweep")
    quick_args = _need(table, "quick_args", str, where, args)
    for text in (args, quick_args):
        if "'" in text or '"' in text:
            raise ExperimentError(f"{where}: arguments may not contain quotes")
        if sweep and "{" + sweep.param + "}" not in text:
            raise ExperimentError(f"{where}: args must contain {{{sweep.param}}} for the sweep")
    seconds = _need(table, "seconds", float, where)
    profile = _need(table, "profile", int, where, 0)
    if not 0 <= profile <= 100000:
        raise ExperimentError(f"{where}: profile must be a sampling rate in Hz (0: off)")
    return Run(bench, args, quick_args, seconds,
               _need(table, "quick_seconds", float, where, seconds), variants, sweep, profile,
               _need(table, "per_cpu", bool, where, False))


def _hosted(table, where):
    program = _need(table, "program", str, where)
    if not re.fullmatch(r"hosted/[a-z0-9_-]+", program):
        raise ExperimentError(f"{where}: program must be hosted/<name> (a target under the build directory)")
    args = _need(table, "args", str, where, "")
    seconds = _need(table, "seconds", float, where)
    return Hosted(program, args, _need(table, "quick_args", str, where, args), seconds,
                  _need(table, "quick_seconds", float, where, seconds))


def _refs(table, where):
    """The numerator and denominator references of a ratio or control."""
    try:
        return [MetricRef.parse(_need(table, k, str, where)) for k in ("numerator", "denominator")]
    except ValueError as e:
        raise ExperimentError(f"{where}: {e}") from None


def _ratio(table, where):
    expect = _need(table, "expect", str, where)
    if expect not in EXPECTATIONS:
        raise ExperimentError(f"{where}: expect must be one of {', '.join(EXPECTATIONS)}")
    seed = _need(table, "seed", float, where)
    if not seed > 0:
        raise ExperimentError(f"{where}: seed must be a positive ratio")
    refs = _refs(table, where)
    tolerance = _need(table, "tolerance", float, where, 1.25 if expect == "same" else 2.0)
    if tolerance <= 1 or (expect != "same" and math.isclose(seed, 1.0)):
        raise ExperimentError(f"{where}: tolerance must exceed 1, and a seed of 1 means expect = \"same\"")
    return Ratio(_need(table, "name", str, where), refs[0], refs[1], seed,
                 _need(table, "seed_text", str, where, ""), expect, tolerance)


def _control(table, where, ratio_names):
    refs = _refs(table, where)
    at_least = _need(table, "at_least", float, where, 0.0)
    at_most = _need(table, "at_most", float, where, math.inf)
    if not ("at_least" in table or "at_most" in table) or not 0 <= at_least < at_most:
        raise ExperimentError(f"{where}: a control needs at_least and/or at_most, at_least below at_most")
    guards = _names(table, "guards", where) or tuple(ratio_names)
    unknown = [g for g in guards if g not in ratio_names]
    if unknown:
        raise ExperimentError(f"{where}: guards name no ratio of the experiment: {', '.join(unknown)}")
    return Control(_need(table, "name", str, where), refs[0], refs[1], at_least, at_most,
                   _need(table, "why", str, where), guards)


def _modes(table, where, ratio_names):
    refs = _refs(table, where)
    above = _need(table, "above", float, where)
    if not above > 0:
        raise ExperimentError(f"{where}: above must be a positive ratio")
    splits = _names(table, "splits", where) or tuple(ratio_names)
    unknown = [s for s in splits if s not in ratio_names]
    if unknown:
        raise ExperimentError(f"{where}: splits name no ratio of the experiment: {', '.join(unknown)}")
    return Modes(_need(table, "name", str, where), refs[0], refs[1], above, _need(table, "why", str, where),
                 splits)


def _anchor(table, where):
    try:
        metric = MetricRef.parse(_need(table, "metric", str, where))
    except ValueError as e:
        raise ExperimentError(f"{where}: {e}") from None
    if metric.variant:
        raise ExperimentError(f"{where}: an anchor's metric names no variant (Linux has none)")
    at_most = _need(table, "at_most", float, where, math.inf)
    if not at_most > 0:
        raise ExperimentError(f"{where}: at_most must be a positive ratio")
    better = _need(table, "better", str, where, "lower")
    if better not in ("lower", "higher"):
        raise ExperimentError(f"{where}: better is \"lower\" or \"higher\", not \"{better}\"")
    if better == "higher" and at_most != math.inf:
        raise ExperimentError(f"{where}: at_most is a time's goal; a figure where higher is better has none")
    return Anchor(_need(table, "name", str, where), metric, at_most, better)


def _plot(table, where):
    name = _need(table, "name", str, where)
    if not NAME_RE.match(name):
        raise ExperimentError(f"{where}: plot name '{name}' may hold only a-z 0-9 _ -")
    try:
        metrics = tuple(MetricRef.parse(m) for m in _need(table, "metrics", list, where))
    except (ValueError, TypeError) as e:
        raise ExperimentError(f"{where}: {e}") from None
    return Plot(name, _need(table, "title", str, where, name), metrics)


def _build(table, where):
    name = _need(table, "name", str, where)
    build_dir = _need(table, "dir", str, where)
    make = tuple(_need(table, "make", list, where))
    if not NAME_RE.match(name) or not NAME_RE.match(build_dir):
        raise ExperimentError(f"{where}: a build's name and dir may hold only a-z 0-9 _ -")
    if not make or not all(isinstance(m, str) and re.fullmatch(r"[A-Z_][A-Z0-9_]*=[A-Za-z0-9_.-]*", m)
                           for m in make):
        raise ExperimentError(f"{where}: make must be a list of make variables (NAME=value)")
    return Build(name, make, build_dir)


def _names(table, key, where):
    names = tuple(_need(table, key, list, where, []))
    if not all(isinstance(n, str) and n for n in names):
        raise ExperimentError(f"{where}: '{key}' must be a list of names")
    return names


MEMORY_RE = re.compile(r"^[1-9][0-9]*[MG]$")


def memory_mib(size):
    """A guest memory size as QEMU's -m takes it ("512M", "2G", "3072": MiB), in MiB."""
    if size[-1:] in ("M", "G"):
        return int(size[:-1]) * (1024 if size.endswith("G") else 1)
    return int(size)


def _memory(data, where):
    memory = _need(data, "memory", str, where, "")
    if memory and not MEMORY_RE.match(memory):
        raise ExperimentError(f"{where}: memory must be a size in M or G (\"2G\")")
    return memory


def _cpus(table, where):
    cpus = tuple(_need(table, "cpus", list, where, []))
    if not all(isinstance(c, int) and not isinstance(c, bool) and 1 <= c <= 64 for c in cpus) or \
            len(set(cpus)) != len(cpus):
        raise ExperimentError(f"{where}: cpus must be a list of distinct CPU counts (1 - 64)")
    return cpus


def _ground_cpus(data, where):
    """[ground.NAME] tables: a ground's own CPU list, in place of cpus there."""
    grounds = _need(data, "ground", dict, where, {})
    out = {}
    for name, table in grounds.items():
        here = f"{where}, [ground.{name}]"
        if name not in GROUNDS:
            raise ExperimentError(f"{here}: the grounds are {', '.join(GROUNDS)}")
        if not isinstance(table, dict) or set(table) != {"cpus"}:
            raise ExperimentError(f"{here}: a ground's table holds cpus = [...] and nothing else")
        out[name] = _cpus(table, here)
        if not out[name]:
            raise ExperimentError(f"{here}: cpus must list at least one CPU count")
    return out


def load(path):
    """One experiment file, checked."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ExperimentError(f"{path}: {e}") from None
    where = str(path)
    name = _need(data, "name", str, where)
    if name != path.stem or not NAME_RE.match(name):
        raise ExperimentError(f"{where}: name must be the file's name ('{path.stem}')")
    knob_defaults = _knobs(data, "knob_defaults", where)
    runs = tuple(_run(r, f"{where}, run {i + 1}", knob_defaults)
                 for i, r in enumerate(_tables(data, "run", where)))
    if not runs:
        raise ExperimentError(f"{where}: no [[run]]")
    repeat = _need(data, "repeat", int, where, 3)
    quick_repeat = _need(data, "quick_repeat", int, where, 1)
    if repeat < 1 or quick_repeat < 1:
        raise ExperimentError(f"{where}: repeats must be at least 1")
    linux_boots = tuple(_need(data, "linux_boots", list, where, [""]))
    if not all(isinstance(b, str) and re.fullmatch(r"([a-z0-9_]+(=[A-Za-z0-9_.,-]+)?( |$))*", b)
               for b in linux_boots):
        raise ExperimentError(f"{where}: linux_boots must be strings of Linux parameters (name=value ...)")
    cpus = _cpus(data, where)
    ratios = tuple(_ratio(r, f"{where}, ratio {i + 1}") for i, r in enumerate(_tables(data, "ratio", where)))
    ratio_names = [r.name for r in ratios]
    return Experiment(
        name=name, title=_need(data, "title", str, where, name), doc=_need(data, "doc", str, where, ""),
        seeds=tuple(_need(data, "seeds", list, where, [])), repeat=repeat, quick_repeat=quick_repeat,
        knob_defaults=knob_defaults,
        linux_boots=linux_boots, cpus=cpus, ground_cpus=_ground_cpus(data, where),
        profile_frames=_names(data, "profile_frames", where),
        profile_seed=_need(data, "profile_seed", str, where, ""),
        profile_self=_need(data, "profile_self", bool, where, False),
        knobs=_names(data, "knobs", where),
        stage=_need(data, "stage", str, where, ""),
        memory=_memory(data, where),
        runs=runs,
        hosted=tuple(_hosted(h, f"{where}, hosted {i + 1}") for i, h in enumerate(_tables(data, "hosted", where))),
        ratios=ratios,
        controls=tuple(_control(c, f"{where}, control {i + 1}", ratio_names)
                       for i, c in enumerate(_tables(data, "control", where))),
        plots=tuple(_plot(p, f"{where}, plot {i + 1}") for i, p in enumerate(_tables(data, "plot", where))),
        anchors=tuple(_anchor(a, f"{where}, anchor {i + 1}") for i, a in enumerate(_tables(data, "anchor", where))),
        modes=tuple(_modes(m, f"{where}, modes {i + 1}", ratio_names)
                    for i, m in enumerate(_tables(data, "modes", where))),
        builds=tuple(_build(b, f"{where}, build {i + 1}") for i, b in enumerate(_tables(data, "build", where))))


def load_all(directory):
    """Every experiment in directory, by name (in name order)."""
    return {e.name: e for e in map(load, sorted(Path(directory).glob("*.toml")))}


def select(registry, names):
    """The named experiments (all when names is empty); unknown names list the valid ones."""
    unknown = [n for n in names if n not in registry]
    if unknown:
        raise ExperimentError(f"unknown experiment {', '.join(unknown)}; "
                              f"the experiments are: {', '.join(registry) or '(none)'}")
    return [registry[n] for n in names] if names else list(registry.values())
