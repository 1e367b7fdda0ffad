"""test_profile - host tests of the profiler's tools (tools/reprolib/profile.py,
tools/profile-report) on a recorded /proc/profile (profiles/syscall_bench.profile,
from `tools/profile-run build/initrd/bin/syscall_bench -q`) and on small made-up
ones whose every line is known.

    python3 -m unittest discover -s tests/tools     (or tests/tools/run-checks)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(TOP / "tools"))

from reprolib import flamegraph, profile, profile_diff  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"
RECORDED = TOP / "tests" / "tools" / "profiles" / "syscall_bench.profile"

# The shape of seed 002's profile (docs/seeds.md): the spin under the write-lock slow path
# from mprotect.
SEED_LIKE = """\
noise before, as in a console log
# rewind profile v1
# profile=997: samples per second per CPU, by LAPIC timer NMI (now off); hz=1000
# cpu 0: 90 samples, 2 lost
80 0 K osq_lock rwsem_down_write_slow sys_mprotect syscall_dispatch syscall_from_user syscall_entry
10 0 k rwsem_down_write_slow sys_mprotect syscall_dispatch syscall_from_user syscall_entry
# cpu 1: 10 samples, 0 lost
5 1 K osq_lock rwsem_down_write_slow handle_mm_fault page_fault
5 1 u 0x401000
# end
noise after
"""


class Parse(unittest.TestCase):
    def test_recorded_profile_counts_agree_with_its_cpu_lines(self):
        p = profile.parse(RECORDED.read_text())
        self.assertEqual(p.freq, "997")
        self.assertEqual(sorted(p.cpus), [0, 1])
        self.assertEqual(p.total, sum(samples for samples, _ in p.cpus.values()))
        self.assertTrue(any(s.mode == "u" for s in p.stacks))
        self.assertTrue(any(s.mode == "K" for s in p.stacks))

    def test_profile_inside_a_log_is_found(self):
        p = profile.parse(SEED_LIKE)
        self.assertEqual(p.total, 100)
        self.assertEqual(p.lost, 2)
        self.assertEqual(p.cpus, {0: (90, 2), 1: (10, 0)})

    def test_cut_or_missing_profile_is_an_error(self):
        with self.assertRaises(profile.ProfileError):
            profile.parse(SEED_LIKE.split("# cpu 1")[0])
        with self.assertRaises(profile.ProfileError):
            profile.parse("no profile here\n")
        with self.assertRaises(profile.ProfileError):
            profile.parse("# rewind profile v1\n12 zero k f\n# end\n")


class Flat(unittest.TestCase):
    def test_seed_shaped_profile_names_the_spin_with_its_callers(self):
        out = profile.flat(profile.parse(SEED_LIKE)).splitlines()
        self.assertEqual(out[0], "# Samples: 100 (profile=997 Hz per CPU; 2 CPUs, 2 lost)")
        self.assertEqual(out[3:12], [
            "-  85.00%  [kernel]  [k] osq_lock",
            "   - osq_lock",
            "      - rwsem_down_write_slow",
            "         - 94.12% sys_mprotect",
            "            - syscall_dispatch",
            "               - syscall_from_user",
            "                    syscall_entry",
            "         - 5.88% handle_mm_fault",
            "              page_fault",
        ])
        self.assertIn("-  10.00%  [kernel]  [k] rwsem_down_write_slow", out)
        self.assertIn("-   5.00%  [user]    [.] 0x401000", out)

    def test_recorded_profile_shares_add_up_to_all_samples(self):
        out = profile.flat(profile.parse(RECORDED.read_text()), callers_min=101)
        rows = [line for line in out.splitlines() if line.startswith("+")]
        self.assertAlmostEqual(sum(float(r.split()[1].rstrip("%")) for r in rows), 100.0,
                               delta=0.1 * len(rows))

    def test_kernel_only_and_one_cpu(self):
        p = profile.parse(SEED_LIKE)
        kernel = profile.flat(p, keep=profile.Filter(kernel_only=True))
        self.assertIn("# Samples: 95 of 100 ", kernel)
        self.assertIn("# Samples: 10 of 100 ", profile.flat(p, keep=profile.Filter(cpu=1)))

    def test_no_idle_leaves_the_halted_cpus_out(self):
        p = profile.parse(RECORDED.read_text())
        idle = sum(s.count for s in p.stacks if profile.is_idle(s))
        self.assertGreater(idle, 0)
        busy = profile.flat(p, keep=profile.Filter(no_idle=True))
        self.assertIn(f"# Samples: {p.total - idle} of {p.total} ", busy)
        self.assertIn(f"# Dropped: {idle} by --no-idle\n", busy)
        for leaf in profile.IDLE_LEAVES:
            self.assertNotIn(f" {leaf}\n", busy)
        self.assertNotIn("sched_idle_loop", profile.collapsed(p, keep=profile.Filter(no_idle=True)))


class Collapsed(unittest.TestCase):
    def test_root_first_and_merged(self):
        text = profile.collapsed(profile.parse(SEED_LIKE))
        self.assertEqual(text.splitlines(), [
            "[user];0x401000 5",
            "page_fault;handle_mm_fault;rwsem_down_write_slow;osq_lock 5",
            "syscall_entry;syscall_from_user;syscall_dispatch;sys_mprotect;"
            "rwsem_down_write_slow 10",
            "syscall_entry;syscall_from_user;syscall_dispatch;sys_mprotect;"
            "rwsem_down_write_slow;osq_lock 80",
        ])

    def test_recorded_profile_keeps_every_sample(self):
        p = profile.parse(RECORDED.read_text())
        lines = profile.collapsed(p).splitlines()
        self.assertTrue(all(len(line.rsplit(" ", 1)) == 2 and " " not in line.rsplit(" ", 1)[0]
                            for line in lines))
        self.assertEqual(sum(int(line.rsplit(" ", 1)[1]) for line in lines), p.total)

    def test_user_symbols_name_user_samples(self):
        p = profile.parse(SEED_LIKE)
        text = profile.collapsed(p, user_lookup=lambda rip: "main" if rip == 0x401000 else None)
        self.assertIn("[user];main 5\n", text)


class FlameGraph(unittest.TestCase):
    def test_svg_is_xml_with_a_box_per_frame(self):
        p = profile.parse(SEED_LIKE)
        svg = flamegraph.svg(profile.collapsed_counts(p), "seed <002>")
        root = ET.fromstring(svg)
        ns = "{http://www.w3.org/2000/svg}"
        titles = [t.text for t in root.iter(ns + "title")]
        self.assertIn("osq_lock (80 samples, 80.00%)", titles)
        self.assertIn("all (100 samples, 100.00%)", titles)
        self.assertEqual(len(list(root.iter(ns + "rect"))), 1 + len(titles))	# + background
        self.assertIn("seed &lt;002&gt;", svg)

    def test_write_flamegraph_for_the_report(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "flame.svg")
            self.assertEqual(flamegraph.write_flamegraph(RECORDED.read_text(), path, "t"),
                             profile.parse(RECORDED.read_text()).total)
            ET.parse(path)
            empty = "# rewind profile v1\n# cpu 0: 0 samples, 0 lost\n# end\n"
            with self.assertRaises(profile.ProfileError):
                flamegraph.write_flamegraph(empty, path)


# Two programs and two idle CPUs, every count known: 100 samples.
TASKS = """\
# rewind profile v2
# profile=997: samples per second per CPU, by LAPIC timer NMI (now off); hz=1000
# lines: count cpu mode pid comm frames (pid 0: a CPU's idle task)
# cpu 0: 60 samples, 0 lost
30 0 K 7 bench osq_lock rwsem_down_write_slow sys_mprotect syscall_entry
10 0 u 7 bench 0x401000
20 0 k 0 idle/0 sched_idle_loop kernel_main
# cpu 1: 40 samples, 0 lost
25 1 k 0 idle/1 native_safe_halt sched_idle_loop ap_main
6 1 k 3 sh sys_wait4 syscall_entry
4 1 k 9 a_very_long_nam sys_getpid syscall_entry
5 1 K 0 idle/1 timers_run lapic_tick irq_dispatch
# end
"""


class Filters(unittest.TestCase):
    def kept(self, **options):
        stacks, dropped = profile.Filter(**options).apply(profile.parse(TASKS))
        return sum(s.count for s in stacks), dropped

    def test_v2_lines_carry_pid_and_comm(self):
        p = profile.parse(TASKS)
        self.assertEqual(p.version, 2)
        self.assertEqual((p.stacks[0].pid, p.stacks[0].comm, p.stacks[0].frames[0]),
                         (7, "bench", "osq_lock"))
        self.assertEqual(p.stacks[1].frames, ["0x401000"])
        with self.assertRaises(profile.ProfileError):
            profile.parse(TASKS.replace("6 1 k 3 sh", "6 1 k sh sys_wait4"))

    def test_no_filter_keeps_all_and_says_nothing(self):
        self.assertEqual(self.kept(), (100, []))
        self.assertNotIn("# Dropped", profile.flat(profile.parse(TASKS)))

    def test_each_filter_counts_what_it_dropped(self):
        self.assertEqual(self.kept(pid=7), (40, [("--pid 7", 60)]))
        self.assertEqual(self.kept(comm="bench"), (40, [("--comm bench", 60)]))
        self.assertEqual(self.kept(no_idle=True), (55, [("--no-idle", 45)]))
        # In order, each over what the ones before kept: the counts add up to all dropped.
        self.assertEqual(self.kept(cpu=1, pid=0, no_idle=True),
                         (5, [("--cpu 1", 60), ("--pid 0", 10), ("--no-idle", 25)]))

    def test_comm_matches_the_name_the_kernel_cut(self):
        self.assertEqual(self.kept(comm="a_very_long_name_indeed")[0], 4)

    def test_flat_report_names_kept_and_dropped(self):
        out = profile.flat(profile.parse(TASKS), keep=profile.Filter(comm="bench", no_idle=True),
                           title="bench (rwsem_spin=osq)").splitlines()
        self.assertEqual(out[:3], [
            "# bench (rwsem_spin=osq)",
            "# Samples: 40 of 100 (profile=997 Hz per CPU; 2 CPUs, 0 lost)",
            "# Dropped: 60 by --comm bench, 0 by --no-idle",
        ])
        self.assertIn("-  75.00%  [kernel]  [k] osq_lock", out)

    def test_v1_profile_has_no_pids_to_filter(self):
        with self.assertRaises(profile.ProfileError):
            profile.Filter(pid=1).apply(profile.parse(SEED_LIKE))
        r = subprocess.run([sys.executable, str(TOP / "tools" / "profile-report"), "--comm", "sh",
                            str(RECORDED)], capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn("v1", r.stderr)


class Diff(unittest.TestCase):
    # AFTER took twice the samples: shares, not counts, say what changed.
    BEFORE = {"a;b": 10, "a;c": 90, "a;gone": 0}
    AFTER = {"a;b": 80, "a;c": 120}

    def test_changes_are_in_share_of_each_side_own_total(self):
        change = profile_diff.frame_changes(self.BEFORE, self.AFTER)
        self.assertEqual(set(change), {("a",), ("a", "b"), ("a", "c")})
        self.assertAlmostEqual(change[("a",)], 0.0)
        self.assertAlmostEqual(change[("a", "b")], 30.0)
        self.assertAlmostEqual(change[("a", "c")], -30.0)

    def test_same_shares_at_another_count_is_no_change(self):
        doubled = {k: 2 * n for k, n in self.AFTER.items()}
        self.assertTrue(all(abs(c) < 1e-9 for c in
                            profile_diff.frame_changes(self.AFTER, doubled).values()))

    def test_self_table_biggest_change_first_both_sides(self):
        before = {"a;b": 50, "a;b;old": 50}
        after = {"a;b": 90, "a;new": 10}
        rows = profile_diff.self_changes(before, after)
        self.assertEqual([r[0] for r in rows], ["old", "b", "new"])
        self.assertEqual(rows[0][1:], (50.0, 0.0))
        text = profile_diff.table(rows, "on", "off", 100, 100).splitlines()
        self.assertEqual(text[0], "# Differential profile: on (100 samples) -> off (100 samples)")
        self.assertEqual(text[3].split(), ["50.00%", "0.00%", "-50.00", "old"])

    def test_flame_graph_red_grew_blue_shrank_grey_stayed(self):
        svg = flamegraph.svg(Counter(self.AFTER), "t",
                             change=profile_diff.frame_changes(self.BEFORE, self.AFTER))
        fill = {g.get("data-n"): g.find(NS + "rect").get("fill")
                for g in ET.fromstring(svg).iter(NS + "g")}
        self.assertEqual(fill["b"], "rgb(255,40,40)")
        self.assertEqual(fill["c"], "rgb(40,40,255)")
        self.assertEqual(fill["a"], "rgb(235,235,235)")

    def test_command_compares_two_profile_run_directories(self):
        with tempfile.TemporaryDirectory() as d:
            for side, osq in (("before", 30), ("after", 60)):
                os.mkdir(os.path.join(d, side))
                Path(d, side, "profile.txt").write_text(TASKS.replace("30 0 K 7", f"{osq} 0 K 7"))
            svg = os.path.join(d, "diff.svg")
            r = subprocess.run([sys.executable, str(TOP / "tools" / "profile-report"), "--no-idle",
                                "--diff", os.path.join(d, "before"), os.path.join(d, "after"),
                                "--svg", svg], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            lines = r.stdout.splitlines()
            self.assertEqual(lines[0], "# Differential profile: before (55 samples) -> "
                                       "after (85 samples)")
            self.assertEqual(lines[3].split()[-1], "osq_lock")
            self.assertIn("# Dropped from after: 45 by --no-idle", lines)
            self.assertIn("red grew, blue shrank", Path(svg).read_text())


class Interactive(unittest.TestCase):
    """The flame graph's script, run by node (when the host has it) on a stand-in document."""

    def test_frames_carry_what_the_script_reads(self):
        root = ET.fromstring(flamegraph.svg(profile.collapsed_counts(profile.parse(TASKS))))
        self.assertEqual(root.get("data-total"), "100")
        self.assertIsNotNone(root.find(f"{NS}foreignObject"))
        frames = [g for g in root.iter(NS + "g") if g.get("class") == "f"]
        self.assertEqual((frames[0].get("data-n"), frames[0].get("data-s")), ("all", "100"))
        for g in frames:	# every frame lies within the samples of "all"
            self.assertLessEqual(int(g.get("data-x")) + int(g.get("data-s")), 100)

    @unittest.skipUnless(shutil.which("node"), "no node on this host")
    def test_search_share_counts_nested_matches_once_and_zoom_hides_the_rest(self):
        svg = flamegraph.svg(Counter({"a;b;b": 30, "a;c": 70}))
        frames = [{"n": g.get("data-n"), "x": g.get("data-x"), "s": g.get("data-s"),
                   "d": g.get("data-d")}
                  for g in ET.fromstring(svg).iter(NS + "g") if g.get("class") == "f"]
        driver = FAKE_DOCUMENT % json.dumps(frames) + flamegraph.SCRIPT + DRIVE
        r = subprocess.run(["node", "-e", driver], capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.splitlines(), [
            "Matched: 30.00% (30 of 100 samples)",	# b inside b: 30, not 60
            "Matched: 100.00% (100 of 100 samples)",
            "hidden: c",
            "a 10.0 1180.0",	# the ancestor spans the width, as the zoomed frame does
        ])


# A stand-in for the SVG document: just what the flame graph's script touches.
FAKE_DOCUMENT = """
var listeners = {}, frames = %s;
function element(attrs) {
	return { attrs: attrs, style: {}, children: {rect: {attrs: {}, style: {}}, text: {attrs: {}}},
		getAttribute: function (k) { return this.attrs[k]; },
		setAttribute: function (k, v) { this.attrs[k] = v; },
		querySelector: function (s) { var c = this.children[s]; c.setAttribute = this.setAttribute;
			return c; },
		addEventListener: function (e, f) { this.on = f; } };
}
var gs = frames.map(function (f) {
	return element({"data-n": f.n, "data-x": f.x, "data-s": f.s, "data-d": f.d}); });
var byId = {search: element({}), matched: element({}), unzoom: element({})};
var document = {
	documentElement: element({"data-total": "100", "data-pad": "10", "data-char": "7",
		"data-search-fill": "magenta", width: "1200"}),
	querySelectorAll: function () { return gs; },
	getElementById: function (id) { return byId[id]; } };
"""

DRIVE = """
byId.search.value = "^b$"; byId.search.on();
console.log(byId.matched.textContent);
byId.search.value = "a|c"; byId.search.on();
console.log(byId.matched.textContent);
gs.filter(function (g) { return g.attrs["data-n"] === "b" && g.attrs["data-d"] === "2"; })[0].on();
console.log("hidden: " + gs.filter(function (g) { return g.style.display === "none"; })
	.map(function (g) { return g.attrs["data-n"]; }).join(" "));
var a = gs[1].children.rect.attrs;
console.log("a " + a.x + " " + a.width);
"""


class Command(unittest.TestCase):
    def run_tool(self, *args):
        return subprocess.run([sys.executable, str(TOP / "tools" / "profile-report"), *args],
                              capture_output=True, text=True)

    def test_the_three_outputs(self):
        r = self.run_tool(str(RECORDED))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(r.stdout.startswith("# Samples: "))
        r = self.run_tool("--collapsed", str(RECORDED))
        self.assertEqual(r.returncode, 0, r.stderr)
        with tempfile.TemporaryDirectory() as d:
            r = self.run_tool("--svg", os.path.join(d, "f.svg"), str(RECORDED))
            self.assertEqual(r.returncode, 0, r.stderr)
            ET.parse(os.path.join(d, "f.svg"))

    def test_no_idle_option(self):
        r = self.run_tool("--no-idle", str(RECORDED))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn("sched_idle_loop", r.stdout)

    def test_no_profile_fails_with_a_message(self):
        r = self.run_tool("/nonexistent/profile")
        self.assertEqual(r.returncode, 1)
        self.assertIn("profile-report:", r.stderr)


if __name__ == "__main__":
    unittest.main()
