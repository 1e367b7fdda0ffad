"""console - reads a guest's serial console log: the runner's step markers,
the benchmarks' @result lines and the facts the guest tells about itself.

The log is whatever reached COM1: firmware escapes, kernel lines that may
land in the middle of a program's line, and an end that may be cut off by a
time-out. So every line is judged on its own: a marker or @result found
anywhere in a line counts if it parses, anything else that looks like one
is counted as garbled, never fatal.

    @run-begin           init (or the Linux guest's) starts the run= program
    @exit N              ... which ended with status N; between the two, the
                         program's output and kernel lines ("[   1.234] ...")
    @repro-step N        step N of the plan begins (echoed by the guest script)
    @repro-end N S       step N ended with exit status S
    @result {...}        a figure (docs/design.md, "The @result line"), of
                         the step that is open
    @meta {...}          where a benchmark ran: the CPU the guest sees, the
                         hypervisor, the CPU count, the TSC rate, the kernel
                         build ("default", "nopv", "pv30"; "linux" on Linux)

This is the one reader of console logs: the shell harnesses (boot-test,
crash-test, rewind-run) reach it through tools/console-log, bench-check
and reproduce import it.

Not for: deciding what a step should have produced (records.py).
"""
import json
import math
import re
from dataclasses import dataclass, field

ESCAPE_RE = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|[()][0-9A-Za-z]|[=>])")
STEP_RE = re.compile(r"@repro-step (\d+)\s*$")
END_RE = re.compile(r"@repro-end (\d+) (-?\d+)\s*$")
PROFILE_RE = re.compile(r"@repro-profile (\d+)")	# /proc/profile of that step follows
# The kernel's boot line ("cpu: NAME, TSC 2445.405 MHz (cpuid)") or /proc/cpuinfo's.
TSC_RE = re.compile(r"\bTSC ([0-9.]+) MHz")
CPUINFO_MHZ_RE = re.compile(r"^cpu MHz\s*:\s*([0-9.]+)")
CPUINFO_MODEL_RE = re.compile(r"^model name\s*:\s*(.+?)\s*$")
RESULT_KEYS = {"bench": str, "metric": str, "unit": str, "variant": dict}
# The exact lines benchmarks must print, field by field and in order: names of
# [a-z0-9_], a flat variant of texts, no escapes, a value that is not negative.
EXACT_RESULT_RE = re.compile(r'@result \{"bench":"[a-z0-9_]+","variant":\{("[a-z0-9_]+":"[^"\\]*")'
                             r'(,"[a-z0-9_]+":"[^"\\]*")*\},"metric":"[a-z0-9_]+",'
                             r'"value":[0-9.]+(e[+-]?[0-9]+)?,"unit":"[a-zA-Z/]+"\}')
EXACT_META_RE = re.compile(r'@meta \{"bench":"[a-z0-9_]+","cpu":"[^"\\]*","hypervisor":"[^"\\]*",'
                           r'"cpus":[1-9][0-9]*,"tsc_mhz":[0-9]+\.[0-9]+,"build":"[a-z0-9_]+"\}')
RUN_BEGIN = "@run-begin"
RUN_EXIT_RE = re.compile(r"@exit (-?\d+)")
KERNEL_LINE_RE = re.compile(r"\[ *\d+\.\d+\] ")	# printk's time stamp


@dataclass
class StepOutput:
    began: bool = False
    status: int | None = None	# None: no end marker seen
    results: list = field(default_factory=list)


@dataclass
class ConsoleLog:
    steps: dict = field(default_factory=dict)	# step number -> StepOutput
    outside: list = field(default_factory=list)	# results printed outside any step
    garbled: list = field(default_factory=list)	# lines that looked like ours but did not parse
    tsc_mhz: float | None = None
    cpu_model: str | None = None
    hypervisor: str | None = None
    release: str | None = None
    builds: set = field(default_factory=set)	# the kernel builds @meta lines named

    def step(self, n):
        return self.steps.setdefault(n, StepOutput())


def strip_escapes(text):
    """Text without terminal escapes and carriage returns."""
    return ESCAPE_RE.sub("", text).replace("\r", "")


def clean_lines(text):
    """The log's lines without terminal escapes and carriage returns."""
    return [strip_escapes(line) for line in text.split("\n")]


def _json_after(line, marker):
    """The JSON value that follows marker somewhere in line, or None."""
    start = line.find(marker)
    if start < 0:
        return None
    try:
        obj, _ = json.JSONDecoder().raw_decode(line, start + len(marker))
    except ValueError:
        return None
    return obj


def parse_result(line):
    """The figure of a line holding "@result {...}", or None if it is not one."""
    obj = _json_after(line, "@result ")
    if not isinstance(obj, dict) or any(not isinstance(obj.get(k), t) for k, t in RESULT_KEYS.items()):
        return None
    value = obj.get("value")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return obj


def parse_meta(line):
    """The facts of a line holding "@meta {...}", or None if it is not one."""
    obj = _json_after(line, "@meta ")
    return obj if isinstance(obj, dict) and isinstance(obj.get("bench"), str) else None


def is_exact_result(line):
    """Whether line is an @result line exactly as a benchmark must print it, alone
    on its line. bench-check holds the benchmarks to this; reading a log,
    parse_result forgives what the console did to a line."""
    return EXACT_RESULT_RE.fullmatch(line) is not None and parse_result(line) is not None


def is_exact_meta(line):
    """Whether line is an @meta line exactly as a benchmark must print it (see is_exact_result)."""
    return EXACT_META_RE.fullmatch(line) is not None and parse_meta(line) is not None


@dataclass
class ProgramRun:
    output: list = field(default_factory=list)	# (line, from_kernel) between the markers
    status: int | None = None	# N of "@exit N"; None if no run ended


def program_run(lines):
    """What the run= program printed, and its exit status, from clean lines."""
    run, running = ProgramRun(), False
    for line in lines:
        if line == RUN_BEGIN:
            running = True
        elif running and (m := RUN_EXIT_RE.fullmatch(line)):
            run.status, running = int(m.group(1)), False
        elif running:
            run.output.append((line, KERNEL_LINE_RE.match(line) is not None))
    return run


def _note_meta(log, meta):
    if log.tsc_mhz is None and isinstance(meta.get("tsc_mhz"), (int, float)) and meta["tsc_mhz"] > 0:
        log.tsc_mhz = float(meta["tsc_mhz"])
    if log.cpu_model is None and isinstance(meta.get("cpu"), str):
        log.cpu_model = meta["cpu"]
    if log.hypervisor is None and isinstance(meta.get("hypervisor"), str):
        log.hypervisor = meta["hypervisor"]
    if isinstance(meta.get("build"), str):
        log.builds.add(meta["build"])


def _note_facts(log, line):
    if log.tsc_mhz is None and (m := TSC_RE.search(line) or CPUINFO_MHZ_RE.match(line)):
        log.tsc_mhz = float(m.group(1))
    if log.cpu_model is None and (m := CPUINFO_MODEL_RE.match(line)):
        log.cpu_model = m.group(1)


def parse(text):
    """A ConsoleLog from the text of a console log."""
    log = ConsoleLog()
    current = None	# the step that is open
    for line in clean_lines(text):
        _note_facts(log, line)
        if (m := END_RE.search(line)):
            n = int(m.group(1))
            log.step(n).status = int(m.group(2))
            current = None if current == n else current
        elif (m := STEP_RE.search(line)):
            current = int(m.group(1))
            log.step(current).began = True
        elif "@result" in line:
            result = parse_result(line)
            if result is None:
                log.garbled.append(line)
            else:
                # rewind's revision (its release is the Linux ABI level), or Linux's release
                log.release = (log.release or result["variant"].get("revision")
                               or result["variant"].get("release"))
                (log.step(current).results if current is not None else log.outside).append(result)
        elif "@meta" in line:
            meta = parse_meta(line)
            if meta is None:
                log.garbled.append(line)
            else:
                _note_meta(log, meta)
        elif "@repro-" in line and not PROFILE_RE.search(line):
            log.garbled.append(line)
    return log


def step_profiles(text):
    """{step number: the text after its @repro-profile mark} (the profile is
    the first one in it: reprolib.profile.parse)."""
    out, marks = {}, list(PROFILE_RE.finditer(text))
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        out[int(m.group(1))] = text[m.end():end]
    return out


def tail(text, lines=20):
    """The last lines of a log, cleaned, for a message."""
    kept = [line for line in clean_lines(text) if line.strip()]
    return kept[-lines:]
