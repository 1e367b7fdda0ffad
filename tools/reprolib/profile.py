"""profile - the sampling profiler's /proc/profile text (kernel/profile.c,
docs/profiler.md), read and turned into what people look at:

    parse(text)             -> Profile (the text may be inside a console log)
    flat(profile)           a perf-report-like flat profile with callers (seed 002's form)
    collapsed(profile)      "root;...;leaf N" lines: FlameGraph, speedscope, inferno
    flamegraph_svg(profile) an SVG flame graph, drawn here (no external tool)
    write_flamegraph(text, path, title)  what `make reproduce` calls for its report
    extract(text), kernel_share(profile, frames[, busy]), sampled_fraction(profile, seconds)
                            the profiled steps of `make reproduce`

The kernel has already named every kernel frame (its own symbol table), so
nothing here needs build/kernel.elf. User-mode samples carry the user rip;
with `user_symbols(binary)` (the host's `nm`) they get the program's
function names too.

Not for: running the guest (tools/profile-run), judging figures.
"""
import bisect
import html
import subprocess
from collections import Counter, defaultdict
from dataclasses import dataclass, field

HEADER = "# rewind profile v1"
END = "# end"
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


@dataclass
class Profile:
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
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == HEADER)
    except StopIteration:
        raise ProfileError("no '# rewind profile v1' header") from None
    p = Profile()
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
            words = line.split()
            if len(words) < 4 or words[2] not in MODES or not (words[0] + words[1]).isdigit():
                raise ProfileError(f"bad sample line: {line!r}")
            p.stacks.append(Stack(int(words[0]), int(words[1]), words[2], words[3:]))
    raise ProfileError("the profile is cut short (no '# end')")


def extract(text):
    """The first /proc/profile text in text (a console log), from its header
    to its end line, checked by parse; ProfileError if there is none or it is cut."""
    parse(text)
    lines = [line.rstrip("\r").strip() for line in text.splitlines()]
    start = lines.index(HEADER)
    return "\n".join(lines[start:lines.index(END, start) + 1]) + "\n"


def kernel_share(profile, frames, busy=False):
    """The share (0 - 1) of kernel samples whose stack holds one of frames
    (function names): how much of the kernel's time went there. busy: of
    the kernel samples outside the idle loop only (leaf in IDLE_LEAVES): the
    NMI timer samples a halted CPU, the `cycles` event of a perf profile
    (the seeds') does not count while halted. None when there are none."""
    kernel = [s for s in profile.stacks if s.mode != "u" and not (busy and is_idle(s))]
    total = sum(s.count for s in kernel)
    if not total:
        return None
    return sum(s.count for s in kernel if any(f in frames for f in s.frames)) / total


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


def _filtered(profile, cpu=None, kernel_only=False, no_idle=False):
    return [s for s in profile.stacks
            if (cpu is None or s.cpu == cpu) and not (kernel_only and s.mode == "u")
            and not (no_idle and is_idle(s))]


# ---- collapsed stacks ---------------------------------------------------------------

def collapsed_counts(profile, user_lookup=None, cpu=None, kernel_only=False, no_idle=False):
    """Counter of root-first ';'-joined stacks."""
    counts = Counter()
    for s in _filtered(profile, cpu, kernel_only, no_idle):
        counts[";".join(reversed(frames_of(s, user_lookup)))] += s.count
    return counts


def collapsed(profile, user_lookup=None, cpu=None, kernel_only=False, no_idle=False):
    counts = collapsed_counts(profile, user_lookup, cpu, kernel_only, no_idle)
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


def flat(profile, user_lookup=None, cpu=None, kernel_only=False, callers_min=1.0,
         chain_min=0.5, limit=None, no_idle=False):
    """perf report's form: each sampled function with its share, the busy ones with callers.
    no_idle: shares of the busy samples only, as perf's `cycles` event gives them."""
    stacks = _filtered(profile, cpu, kernel_only, no_idle)
    total = sum(s.count for s in stacks)
    by_leaf = defaultdict(list)
    kinds = {}
    for s in stacks:
        frames = frames_of(s, user_lookup)
        by_leaf[frames[0]].append((s.count, frames))
        kinds[frames[0]] = ("[user]", "[.]") if s.mode == "u" else ("[kernel]", "[k]")
    out = [f"# Samples: {total} (profile={profile.freq} Hz per CPU; "
           f"{len(profile.cpus)} CPUs, {profile.lost} lost)",
           "# Overhead  Shared Object  Symbol", "#"]
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


# ---- SVG flame graph --------------------------------------------------------------

def _color(name):
    """A stable warm colour per name (FlameGraph's palette idea); kernel and user apart."""
    h = 0
    for ch in name:
        h = (h * 31 + ord(ch)) & 0xffffffff
    if name == USER_ROOT:
        return "rgb(120,170,220)"
    return f"rgb({205 + h % 50},{80 + (h >> 8) % 130},{(h >> 16) % 60})"


def flamegraph_svg(counts, title="rewind profile", width=1200, frame_h=16):
    """counts: Counter of root-first ';' stacks (collapsed_counts) -> the SVG text."""
    root = [0, {}]
    for stack, n in counts.items():
        root[0] += n
        node = root
        for name in stack.split(";"):
            node = node[1].setdefault(name, [0, {}])
            node[0] += n

    def depth(node):
        return 1 + max((depth(c) for c in node[1].values()), default=0)
    levels = depth(root)
    pad, top = 10, 40
    height = top + levels * frame_h + pad
    total = root[0] or 1
    scale = (width - 2 * pad) / total
    rects = []

    def draw(name, node, x, level):
        w = node[0] * scale
        if w < 0.3:
            return
        y = height - pad - (level + 1) * frame_h
        label = f"{name} ({node[0]} samples, {_pct(node[0], total):.2f}%)"
        text = ""
        chars = int((w - 6) / 7)
        if chars >= 3:
            shown = name if len(name) <= chars else name[:chars - 2] + ".."
            text = (f'<text x="{x + 3:.1f}" y="{y + frame_h - 4}">'
                    f"{html.escape(shown)}</text>")
        rects.append(f'<g><title>{html.escape(label)}</title>'
                     f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{frame_h - 1}" '
                     f'fill="{_color(name)}" rx="2"/>{text}</g>')
        cx = x
        for child, sub in sorted(node[1].items()):
            draw(child, sub, cx, level + 1)
            cx += sub[0] * scale

    draw("all", root, pad, 0)
    return (f'<?xml version="1.0" standalone="no"?>\n'
            f'<svg version="1.1" xmlns="http://www.w3.org/2000/svg" width="{width}" '
            f'height="{height}" viewBox="0 0 {width} {height}">\n'
            f'<style>text {{ font-family: monospace; font-size: 11px; fill: #000; }}'
            f' .title {{ font-size: 16px; }}</style>\n'
            f'<rect width="100%" height="100%" fill="#fdfdf5"/>\n'
            f'<text class="title" x="{width / 2}" y="24" text-anchor="middle">'
            f'{html.escape(title)} - {root[0]} samples</text>\n'
            + "\n".join(rects) + "\n</svg>\n")


def write_flamegraph(profile_text, path, title="rewind profile", user_binary=None,
                     kernel_only=False):
    """For `make reproduce`: the flame graph of a /proc/profile text (or a console log
    holding one) into path. Returns the number of samples drawn; ProfileError if none."""
    p = parse(profile_text)
    lookup = user_symbols(user_binary) if user_binary else None
    counts = collapsed_counts(p, lookup, kernel_only=kernel_only)
    if not counts:
        raise ProfileError("the profile holds no samples")
    with open(path, "w") as f:
        f.write(flamegraph_svg(counts, title))
    return sum(counts.values())
