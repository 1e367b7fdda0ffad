"""profile - the sampling profiler's /proc/profile text (kernel/profile.c,
docs/profiler.md), read and turned into what people look at:

    parse(text)             -> Profile (the text may be inside a console log)
    Filter(...).apply(p)    the samples a report keeps, and how many each filter dropped
    flat(profile)           a perf-report-like flat profile with callers (docs/seeds.md, seed 002)
    collapsed(profile)      "root;...;leaf N" lines: FlameGraph, speedscope, inferno
    extract(text), kernel_share(profile, frames[, busy, self_only]), frame_callers(profile, frames),
    sampled_fraction(profile, seconds)
                            the profiled steps of `make reproduce`

The flame graph is drawn by flamegraph.py, the comparison of two profiles
made by profile_diff.py.

The kernel has already named every kernel frame (its own symbol table), so
nothing here needs build/kernel.elf. User-mode samples carry the user rip;
with `user_symbols(binary)` (the host's `nm`) they get the program's
function names too.

Not for: running the guest (tools/profile-run), judging figures.
"""
import bisect
import subprocess
from collections import Counter, defaultdict
from dataclasses import dataclass, field

# v1 lines are "count cpu mode frames..."; v2 (kernel/profile.c now) adds the pid and comm.
HEADERS = {"# rewind profile v1": 1, "# rewind profile v2": 2}
END = "# end"
COMM_LEN = 15	# the kernel's TASK_COMM_LEN less its NUL: longer names are cut so
USER_ROOT = "[user]"
MODES = {"k": "kernel", "K": "kernel, interrupts off", "u": "user"}
# A CPU with nothing to run: the halt (PARAVIRT=y) and the loop around it (the halt inlined there).
IDLE_LEAVES = ("native_safe_halt", "sched_idle_loop")


@dataclass
class Stack:
    count: int
    cpu: int
    mode: str		# k, K or u
    frames: list	# leaf first: kernel function names, or the user rip
    pid: int = None	# the interrupted task (v2; 0 is a CPU's idle task)
    comm: str = None	# its name, blanks as '_' (v2)


@dataclass
class Profile:
    version: int = 2
    freq: str = "?"
    stacks: list = field(default_factory=list)
    cpus: dict = field(default_factory=dict)	# cpu -> (samples, lost)

    @property
    def total(self):
        return sum(s.count for s in self.stacks)

    @property
    def lost(self):
        return sum(lost for _, lost in self.cpus.values())


class ProfileError(ValueError):
    pass


def parse(text):
    """The first /proc/profile text in text; ProfileError if there is none or it is cut."""
    lines = [line.rstrip("\r") for line in text.splitlines()]
    start = _header_line(lines)
    p = Profile(version=HEADERS[lines[start].strip()])
    for line in lines[start + 1:]:
        line = line.strip()
        if line == END:
            return p
        if line.startswith("# profile="):
            p.freq = line[len("# profile="):].split(":")[0]
        elif line.startswith("# cpu "):
            words = line[len("# cpu "):].replace(":", "").replace(",", "").split()
            try:
                p.cpus[int(words[0])] = (int(words[1]), int(words[3]))
            except (IndexError, ValueError):
                raise ProfileError(f"bad cpu line: {line!r}") from None
        elif line.startswith("#") or not line:
            continue
        else:
            p.stacks.append(_sample_line(line, p.version))
    raise ProfileError("the profile is cut short (no '# end')")


def _header_line(lines):
    try:
        return next(i for i, line in enumerate(lines) if line.strip() in HEADERS)
    except StopIteration:
        raise ProfileError("no '# rewind profile v1' or 'v2' header") from None


def _sample_line(line, version):
    words = line.split()
    task = words[3:5] if version >= 2 else []
    frames = words[3 + len(task):]
    if (not frames or words[2] not in MODES or not (words[0] + words[1]).isdigit()
            or (task and not task[0].isdigit())):
        raise ProfileError(f"bad sample line: {line!r}")
    pid, comm = (int(task[0]), task[1]) if task else (None, None)
    return Stack(int(words[0]), int(words[1]), words[2], frames, pid, comm)


def extract(text):
    """The first /proc/profile text in text (a console log), from its header
    to its end line, checked by parse; ProfileError if there is none or it is cut."""
    parse(text)
    lines = [line.rstrip("\r").strip() for line in text.splitlines()]
    start = _header_line(lines)
    return "\n".join(lines[start:lines.index(END, start) + 1]) + "\n"


def kernel_share(profile, frames, busy=False, self_only=False):
    """The share (0 - 1) of kernel samples whose stack holds one of frames
    (function names): how much of the kernel's time went there. busy: of
    the kernel samples outside the idle loop only (leaf in IDLE_LEAVES): the
    NMI timer samples a halted CPU, the `cycles` event of a perf profile
    (the seeds') does not count while halted. self_only: only the samples
    whose leaf is one of frames, perf report's "self" figure, the one the
    seeds' profiles give (an interrupt taken inside the spin is its
    handler's). None when there are none."""
    kernel, _ = Filter(kernel_only=True, no_idle=busy).apply(profile)
    total = sum(s.count for s in kernel)
    if not total:
        return None
    return sum(s.count for s in kernel if _in_frames(s, frames, self_only)) / total


def _in_frames(stack, frames, self_only):
    return stack.frames[0] in frames if self_only else any(f in frames for f in stack.frames)


def frame_callers(profile, frames, self_only=False):
    """Of the kernel samples kernel_share counts in frames, the share (0 - 1)
    per caller: the system call they ran under (the first sys_* frame toward
    the root) or, under none, the root frame (a fault, an interrupt). Largest
    first, as [(caller, share)]; [] when no sample is in frames."""
    callers = Counter()
    for s in profile.stacks:
        if s.mode != "u" and _in_frames(s, frames, self_only):
            callers[next((f for f in s.frames if f.startswith("sys_")), s.frames[-1])] += s.count
    total = sum(callers.values())
    return [(name, n / total) for name, n in sorted(callers.items(), key=lambda kv: (-kv[1], kv[0]))]


def sampled_fraction(profile, seconds):
    """Samples taken over those the CPUs would have taken had each run all
    of `seconds` of wall time. Under TCG the sampling timer follows the
    host's clock, and a vCPU thread the host does not run takes no samples
    meanwhile (the timer's NMIs wait, merged into one, until it runs): on a
    loaded host this is about the share of time the vCPUs got a host core.
    None without the rate, the CPUs or the time."""
    try:
        rate = float(profile.freq)
    except ValueError:
        return None
    if not rate or not profile.cpus or not seconds:
        return None
    return profile.total / (rate * len(profile.cpus) * seconds)


def user_symbols(binary):
    """rip -> function name for a static user binary (the host's nm), or None without nm."""
    try:
        out = subprocess.run(["nm", "-n", binary], capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    syms = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            syms.append((int(parts[0], 16), parts[2]))
    syms.sort()
    addrs = [a for a, _ in syms]

    def lookup(rip):
        i = bisect.bisect_right(addrs, rip) - 1
        return syms[i][1] if i >= 0 else None
    return lookup


def frames_of(stack, user_lookup=None):
    """Leaf-first names: kernel frames as they are; a user sample is its function over [user]."""
    if stack.mode != "u":
        return list(stack.frames)
    rip = stack.frames[0]
    name = None
    if user_lookup:
        try:
            name = user_lookup(int(rip, 16))
        except ValueError:
            name = None
    return [name or rip, USER_ROOT]


def is_idle(stack):
    """A sample of a halted CPU: the NMI timer samples one, perf's `cycles` event does not."""
    return stack.mode != "u" and bool(stack.frames) and stack.frames[0] in IDLE_LEAVES


# ---- filters ----------------------------------------------------------------------

@dataclass
class Filter:
    """Which samples a report keeps. Each set field is one filter, applied in
    the order below to what the ones before it kept, so that the samples each
    dropped add up to all that were dropped. Unset fields keep everything."""
    cpu: int = None
    kernel_only: bool = False
    pid: int = None
    comm: str = None
    no_idle: bool = False

    def tests(self):
        """(option as the command line spells it, keep(stack)) for each filter that is set."""
        tests = []
        if self.cpu is not None:
            tests.append((f"--cpu {self.cpu}", lambda s: s.cpu == self.cpu))
        if self.kernel_only:
            tests.append(("--kernel-only", lambda s: s.mode != "u"))
        if self.pid is not None:
            tests.append((f"--pid {self.pid}", lambda s: s.pid == self.pid))
        if self.comm is not None:
            tests.append((f"--comm {self.comm}", lambda s: s.comm == self.comm[:COMM_LEN]))
        if self.no_idle:
            tests.append(("--no-idle", lambda s: not is_idle(s)))
        return tests

    def apply(self, profile):
        """(the stacks kept, [(option, samples it dropped)] in order); ProfileError
        when a filter needs what the profile does not carry (pids before v2)."""
        if (self.pid is not None or self.comm is not None) and profile.version < 2:
            raise ProfileError("this profile (v1) carries no pid or comm: --pid and --comm "
                               "need a kernel that writes '# rewind profile v2'")
        stacks, dropped = profile.stacks, []
        for option, keep in self.tests():
            kept = [s for s in stacks if keep(s)]
            dropped.append((option, sum(s.count for s in stacks) - sum(s.count for s in kept)))
            stacks = kept
        return stacks, dropped


def dropped_text(dropped):
    """"120 by --no-idle, 0 by --pid 7": what the report says each filter took out."""
    return ", ".join(f"{n} by {option}" for option, n in dropped)


# ---- collapsed stacks ---------------------------------------------------------------

def counts_of(stacks, user_lookup=None):
    """Counter of root-first ';'-joined stacks."""
    counts = Counter()
    for s in stacks:
        counts[";".join(reversed(frames_of(s, user_lookup)))] += s.count
    return counts


def collapsed_counts(profile, user_lookup=None, keep=None):
    """Counter of root-first ';'-joined stacks of the samples keep keeps."""
    return counts_of((keep or Filter()).apply(profile)[0], user_lookup)


def collapsed(profile, user_lookup=None, keep=None):
    counts = collapsed_counts(profile, user_lookup, keep)
    return "".join(f"{k} {v}\n" for k, v in sorted(counts.items()))


# ---- flat profile with callers -----------------------------------------------------

def _pct(n, total):
    return 100.0 * n / total if total else 0.0


def _caller_tree(chains):
    """chains: (count, [leaf, caller, ...]) -> nested {name: [count, children]}."""
    root = {}
    for count, chain in chains:
        level = root
        for name in chain:
            node = level.setdefault(name, [0, {}])
            node[0] += count
            level = node[1]
    return root


def _print_tree(out, children, parent_count, indent, min_pct, show_pct):
    items = sorted(children.items(), key=lambda kv: (-kv[1][0], kv[0]))
    branching = len(items) > 1
    for name, (count, sub) in items:
        share = _pct(count, parent_count)
        if share < min_pct:
            continue
        pct = f"{share:.2f}% " if (show_pct or branching) else ""
        mark = "- " if sub else "  "
        out.append(f"{' ' * indent}{mark}{pct}{name}")
        _print_tree(out, sub, count, indent + 3, min_pct, False)


def flat(profile, user_lookup=None, keep=None, callers_min=1.0, chain_min=0.5, limit=None,
         title=None):
    """perf report's form: each sampled function with its share of the samples
    keep keeps, the busy ones with callers; title (the program and its knob
    variant) heads it. Filter(no_idle=True): shares of the busy samples only,
    as perf's `cycles` event gives them."""
    stacks, dropped = (keep or Filter()).apply(profile)
    total = sum(s.count for s in stacks)
    by_leaf = defaultdict(list)
    kinds = {}
    for s in stacks:
        frames = frames_of(s, user_lookup)
        by_leaf[frames[0]].append((s.count, frames))
        kinds[frames[0]] = ("[user]", "[.]") if s.mode == "u" else ("[kernel]", "[k]")
    out = [f"# {title}"] if title else []
    of_all = f" of {profile.total}" if dropped else ""
    out.append(f"# Samples: {total}{of_all} (profile={profile.freq} Hz per CPU; "
               f"{len(profile.cpus)} CPUs, {profile.lost} lost)")
    if dropped:
        out.append(f"# Dropped: {dropped_text(dropped)}")
    out += ["# Overhead  Shared Object  Symbol", "#"]
    rows = sorted(by_leaf.items(), key=lambda kv: (-sum(c for c, _ in kv[1]), kv[0]))
    for n, (leaf, chains) in enumerate(rows):
        if limit is not None and n >= limit:
            break
        count = sum(c for c, _ in chains)
        share = _pct(count, total)
        obj, mark = kinds[leaf]
        expand = share >= callers_min
        out.append(f"{'-' if expand else '+'} {share:6.2f}%  {obj:<9} {mark} {leaf}")
        if expand:
            _print_tree(out, _caller_tree(chains), count, 3, chain_min, False)
    return "\n".join(out) + "\n"
