"""repro_fixtures - what the host tests of tools/reproduce share: the paths,
the library on sys.path, the recorded console logs, a machine description,
the committed experiments and small experiment files made by hand.
"""
import sys
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
