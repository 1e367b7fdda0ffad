"""test_reproduce_grounds - an experiment's CPU list per ground ([ground.NAME]
cpus in experiments/README.md): read and checked, applied on its ground only,
and vsyscall's steal-free icount boots.

    python3 -m unittest discover -s tests/tools     (or tests/tools/run-checks)
"""
import subprocess
import tempfile
import unittest

from repro_fixtures import MINIMAL, TOP, vsyscall, write_experiment
from reprolib import experiments, plan, runner


def file_text(head):
    """MINIMAL with head after its name: top-level keys and tables before its [[run]]."""
    name, run = MINIMAL.split("\n", 1)
    return f"{name}\n{head}{run}"


def load(head):
    with tempfile.TemporaryDirectory() as d:
        return experiments.load(write_experiment(d, file_text(head)))


class GroundCpuLists(unittest.TestCase):
    def test_a_ground_replaces_cpus_there_only(self):
        e = load("cpus = [2, 4]\n[ground.icount]\ncpus = [1]\n")
        self.assertEqual(e.ground_cpus, {"icount": (1,)})
        self.assertEqual(e.on_ground("icount").cpus, (1,))
        self.assertEqual(e.on_ground("tcg").cpus, (2, 4))
        self.assertEqual(e.on_ground("").cpus, (2, 4))

    def test_without_the_table_nothing_changes(self):
        e = load("")
        self.assertEqual(e.ground_cpus, {})
        self.assertIs(e.on_ground("icount"), e)

    def test_mistakes_are_named(self):
        for text, message in (("[ground.qemu]\ncpus = [1]\n", "the grounds are tcg, icount, kvm"),
                              ("[ground.icount]\ncpus = [1]\nrepeat = 2\n", "nothing else"),
                              ("[ground.icount]\n", "nothing else"),
                              ("[ground.icount]\ncpus = []\n", "at least one"),
                              ("[ground.icount]\ncpus = [0]\n", "distinct CPU counts"),
                              ("[ground.icount]\ncpus = [1, 1]\n", "distinct CPU counts"),
                              ("ground = 1\n", "'ground' must be dict")):
            with self.subTest(text=text), tempfile.TemporaryDirectory() as d:
                with self.assertRaisesRegex(experiments.ExperimentError, message):
                    experiments.load(write_experiment(d, file_text(text)))


class VsyscallOnIcount(unittest.TestCase):
    """fs_mark's CPU times on icount with one vCPU: no other vCPU's turns in them."""

    def test_icount_boots_one_vcpu_tcg_keeps_the_cpus_option(self):
        e = vsyscall()
        self.assertEqual(e.cpus, ())
        icount = runner.boots(e.on_ground("icount"), with_linux=True)
        self.assertEqual([(b.id, b.cpus) for b in icount],
                         [("vsyscall-rewind-cpus1", 1), ("vsyscall-linux1-cpus1", 1),
                          ("vsyscall-linux2-cpus1", 1)])
        opts = runner.Options(top=str(TOP), build="", out="", cpus=2, memory="512M", quick=True,
                              repeat=1, step_timeout=None, with_linux=False, ground="icount")
        self.assertEqual(icount[0].vcpus(opts), 1)
        self.assertEqual({tuple(s.params.items()) for s in icount[0].plan(opts)}, {(("cpus", 1),)})
        tcg = runner.boots(e.on_ground("tcg"), with_linux=False)
        self.assertEqual([b.cpus for b in tcg], [None])
        self.assertEqual(tcg[0].vcpus(opts), 2)
        self.assertEqual(plan.steps(e.on_ground("tcg"), quick=True, repeats=1, cpus=None)[0].params, {})

    def test_list_estimates_the_ground_it_is_given(self):
        tool = str(TOP / "tools" / "reproduce")
        listed = {}
        for ground in ("tcg", "icount"):
            done = subprocess.run([tool, "--list", "--ground", ground], capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
            listed[ground] = next(line for line in done.stdout.splitlines() if line.startswith("vsyscall "))
        self.assertNotEqual(listed["tcg"], listed["icount"])


if __name__ == "__main__":
    unittest.main()
