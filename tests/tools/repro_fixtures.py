"""repro_fixtures - what the host tests of tools/reproduce share: the paths,
the library on sys.path, the recorded console logs, a machine description,
the committed experiments, small experiment files and records made by hand.
"""
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOP = HERE.parent.parent
sys.path.insert(0, str(TOP / "tools"))
sys.path.insert(0, str(HERE))

from reprolib import console, experiments, intervals  # noqa: E402

LOGS = HERE / "logs"
MACHINE = {"host_cpu_model": "test CPU", "host_cpus": 2, "qemu_version": "7.2", "accelerator": "tcg",
           "git_revision": "abc", "guest_cpus": 2, "guest_memory": "512M"}


def span(low, high, value=None):
    """An interval of per-repeat ratios, made by hand."""
    return intervals.Interval(value if value is not None else (low + high) / 2, low, high, "min-max", 3)


def vsyscall():
    return experiments.load(TOP / "experiments" / "vsyscall.toml")


def scaling():
    return experiments.load(HERE / "experiments" / "scaling.toml")


def read_log(name):
    return console.parse((LOGS / name).read_text(errors="replace"))


def write_experiment(directory, text, name="bad"):
    path = Path(directory) / f"{name}.toml"
    path.write_text(text)
    return path


MINIMAL = 'name = "bad"\n[[run]]\nbench = "b"\nseconds = 1\n'
HAND_RUN = 'name = "hand"\n[[run]]\nbench = "bench"\nseconds = 1\n'	# the run of by_hand's records


def check_file_error(test, text, message):
    """test asserts that MINIMAL + text is refused with message."""
    with tempfile.TemporaryDirectory() as d:
        with test.assertRaisesRegex(experiments.ExperimentError, message):
            experiments.load(write_experiment(d, MINIMAL + text))


def by_hand(figures, steps=(), machine=None, load_avg=None):
    """Records built by hand: figures (variant, repeat, metric, value) of
    experiment rwsem-like "hand" on rewind, one step per (variant, repeat),
    its status "ok" unless listed in steps as {(variant, repeat): status}."""
    machine = dict(MACHINE, **(machine or {}))
    host_load = None if load_avg is None else {"load_start": load_avg, "load_end": load_avg,
                                              "host_steal_pct": 0.0}
    out = [{"type": "boot", "boot": "hand-rewind", "experiment": "hand", "kernel": "rewind", "status": "ok",
            "steps": 0, "steps_ok": 0, "seconds": 1.0, "garbled_lines": 0, "console_log": "logs/x.log",
            "machine": machine, "host_load": host_load}]
    statuses = dict(steps)
    for variant, repeat in sorted({(f[0], f[1]) for f in figures} | set(statuses)):
        out.append({"type": "step", "experiment": "hand", "kernel": "rewind", "boot": "hand-rewind",
                    "step": len(out), "program": "bench", "variant": variant, "repeat": repeat, "params": {},
                    "status": statuses.get((variant, repeat), "ok"), "host_load": host_load})
    for variant, repeat, metric, value in figures:
        out.append({"type": "figure", "experiment": "hand", "kernel": "rewind", "boot": "hand-rewind",
                    "step": 0, "knobs": {}, "program": "bench", "bench": "bench", "variant": variant, "repeat": repeat, "params": {},
                    "metric": metric, "unit": "ms", "value": value,
                    "complete": statuses.get((variant, repeat), "ok") == "ok", "machine": machine})
    return out
