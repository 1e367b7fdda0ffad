"""test_profile - host tests of the profiler's tools (tools/reprolib/profile.py,
tools/profile-report) on a recorded /proc/profile (profiles/syscall_bench.profile,
from `tools/profile-run build/initrd/bin/syscall_bench -q`) and on small made-up
ones whose every line is known.

    python3 -m unittest discover -s tests/tools     (or tests/tools/run-checks)
"""
import os
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(TOP / "tools"))

from reprolib import flamegraph, profile, profile_diff  # noqa: E402

RECORDED = TOP / "tests" / "tools" / "profiles" / "syscall_bench.profile"

# The shape of seed 002's profile: the spin under the write-lock slow path from mprotect.
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
        self.assertIn("# Samples: 95 of 100 ", profile.flat(p, keep=profile.Filter(kernel_only=True)))
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
