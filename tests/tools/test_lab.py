"""test_lab - host tests of the labs' grader (tools/lab): a solution that hangs
fails with "timed out after N s" instead of hanging the grade (a unit test
built with a wrong lab 2 solution, and a boot that never ends), each step
is said as it goes, checks weigh what labs.toml says, the JSON result holds
every check, and the hand-in holds the student's diff and answers.

    python3 -m unittest discover -s tests/tools     (or tests/tools/run-checks)
"""
import contextlib
import importlib.machinery
import importlib.util
import io
import json
import os
import shlex
import subprocess
import tarfile
import tempfile
import time
import unittest
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent.parent


def load_lab():
    loader = importlib.machinery.SourceFileLoader("lab", str(TOP / "tools" / "lab"))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("lab", loader))
    loader.exec_module(module)
    return module


lab = load_lab()

# A plausible wrong solution a student might write: wait for an owner that readers never store.
WRONG_RWSEM = ["case RWSEM_SPIN_OWNER_NULL_FIX:", "\twhile (!READ_ONCE(s->owner))", "\t\tcpu_relax();",
               "\treturn true;"]


def write(path, text, mode=0o644):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)


def lab2(**change):
    """Lab 2 as labs.toml has it, with its checks' fields changed."""
    chosen = lab.lab_by_number(lab.load_labs(str(TOP)), 2)
    for c in chosen["check"]:
        c.update(change)
    return chosen


def made_up_lab(checks, **fields):
    return {"number": 9, "name": "made-up", "title": "a made-up lab", "handout": "none", "hole": [],
            "check": [dict({"mechanism": False, "points": 1}, **c) for c in checks], **fields}


def compile_with_wrong_rwsem(top):
    """build/unit/test_rwsem in top, its can_spin_on_owner() holding WRONG_RWSEM in lab 2's hole."""
    hole = lab2()["hole"][0]
    holed = dict(hole, stub=WRONG_RWSEM, task="a plausible wrong solution")
    write(top / hole["file"], lab.holed_text((TOP / hole["file"]).read_text(), lab2(), holed))
    flags = subprocess.run(["make", "-s", "--no-print-directory", "-f", "-", "print"], cwd=TOP, text=True,
                           capture_output=True, check=True,
                           input="include Makefile\nprint:\n\t@echo $(HOSTCFLAGS)\n").stdout.split()
    flags = [f for f in flags if f not in ("-MMD", "-MP")]
    (top / "build" / "unit").mkdir(parents=True)
    # -I top first: HOSTCFLAGS' own -I. would find the reference file
    subprocess.run(["cc", f"-I{top}"] + flags + ["-o", str(top / "build/unit/test_rwsem"),
                                                 "tests/unit/test_rwsem.c", "-lm"], cwd=TOP, check=True)


class TimeLimits(unittest.TestCase):
    def test_a_unit_test_that_hangs_fails_with_its_limit(self):
        with tempfile.TemporaryDirectory() as tmp:
            top = Path(tmp)
            compile_with_wrong_rwsem(top)
            said = io.StringIO()
            g = lab.Grader(str(top), [lab2(timeout=5)], quick=True, mechanism_only=True, out=said)
            start = time.monotonic()
            g.run_units()
            verdict, detail = g.judge(g.labs[0], 0, g.labs[0]["check"][0])
            self.assertLess(time.monotonic() - start, 30)
            self.assertEqual(verdict, "FAIL")
            self.assertIn("timed out after 5 s", detail)
            self.assertIn("unit test build/unit/test_rwsem (limit 5 s)", said.getvalue())
            self.assertIn("timed out after 5 s, stopped", said.getvalue())

    def test_a_boot_that_hangs_is_stopped_and_its_checks_say_so(self):
        with tempfile.TemporaryDirectory() as tmp:
            top = Path(tmp)
            # a rewind-run whose QEMU (a grandchild holding the pipe) never ends
            write(top / "tools" / "rewind-run", "#!/bin/sh\necho '@lab-begin 9.0'\nsleep 1000 &\nwait\n", 0o755)
            hung = made_up_lab([{"kind": "user", "program": "spin", "args": "", "name": "spins"}],
                               boot_timeout=2)
            said = io.StringIO()
            g = lab.Grader(str(top), [hung], quick=False, out=said)
            g.boot_grace = 1
            start = time.monotonic()
            g.run_boot()
            verdict, detail = g.judge(hung, 0, hung["check"][0])
            self.assertLess(time.monotonic() - start, 30)
            self.assertEqual(verdict, "FAIL")
            self.assertIn("timed out after 2 s", detail)
            self.assertIn("booting rewind (limit 2 s): spin", said.getvalue())


class Grading(unittest.TestCase):
    """A grade on a made-up tree whose unit test passes one check and fails the other."""

    def grade(self, verbose=False):
        with tempfile.TemporaryDirectory() as tmp:
            top = Path(tmp)
            lines = ["ok   test_fake.passes", "FAIL test_fake.fails: CHECK(1 == 2) at fake.c:7"]
            write(top / "build" / "unit" / "test_fake", f"#!/bin/sh\nprintf '%s\\n' {shlex.join(lines)}\n", 0o755)
            made_up = made_up_lab([
                {"kind": "unit", "binary": "test_fake", "test": "passes", "name": "the good one", "points": 3,
                 "mechanism": True},
                {"kind": "unit", "binary": "test_fake", "test": "fails", "name": "the bad one", "points": 2}])
            said = io.StringIO()
            g = lab.Grader(str(top), [made_up], quick=False, verbose=verbose, out=said)
            g.build = lambda: g.say("building: (skipped)")
            result = g.grade()
            lab.write_result(result, False, str(top / "grade.json"))
            return said.getvalue(), result, json.loads((top / "grade.json").read_text())

    def test_each_check_weighs_its_points(self):
        said, result, _ = self.grade()
        self.assertEqual([(c["points"], c["max"]) for c in result[0]["checks"]], [(3, 3), (0, 2)])
        self.assertIn("[PASS  3/3] mechanism: the good one", said)
        self.assertIn("[FAIL  0/2] still works: the bad one", said)
        self.assertIn("lab 9: 3 of 5 points", said)

    def test_the_steps_are_said_as_they_go(self):
        said, _, _ = self.grade()
        self.assertRegex(said, r"\[ +\d+ s\] building")
        self.assertRegex(said, r"\[ +\d+ s\] unit test build/unit/test_fake \(limit 120 s\)")

    def test_verbose_shows_the_steps_own_output(self):
        quiet, _, _ = self.grade()
        loud, _, _ = self.grade(verbose=True)
        self.assertNotIn("ok   test_fake.passes", quiet)
        self.assertIn("ok   test_fake.passes", loud)

    def test_the_json_result_names_every_check_with_points_max_and_output(self):
        _, _, got = self.grade()
        self.assertEqual((got["points"], got["max"]), (3, 5))
        bad = got["labs"][0]["checks"][1]
        self.assertEqual((bad["name"], bad["points"], bad["max"], bad["verdict"]), ("the bad one", 0, 2, "FAIL"))
        self.assertIn("CHECK(1 == 2) at fake.c:7", bad["output"])


class TheTour(unittest.TestCase):
    def test_lab_0_has_no_hole_and_its_grade_runs_the_test_of_its_answers(self):
        labs = lab.load_labs(str(TOP))
        tour = lab.lab_by_number(labs, 0)
        self.assertEqual(tour["hole"], [])
        self.assertIn("usertests shell_lab0_knob_write_answers", lab.guest_script([tour], False))
        with self.assertRaisesRegex(lab.LabError, "no code to write"):
            lab.cmd_start(labs, 0)


class Handin(unittest.TestCase):
    def test_the_tarball_holds_the_diff_from_the_start_and_the_answers(self):
        with tempfile.TemporaryDirectory() as tmp:
            top = Path(tmp)
            git = ["git", "-C", tmp, "-c", "user.name=t", "-c", "user.email=t@t"]
            subprocess.run(git + ["init", "-q"], check=True)
            write(top / "locking" / "rwsem_xadd.c", "int policy;\n")
            subprocess.run(git + ["add", "."], check=True)
            subprocess.run(git + ["commit", "-q", "-m", "start"], check=True)
            write(top / "locking" / "rwsem_xadd.c", "int policy = 1;\n")
            write(top / "answers-lab2.txt", "1. rarely\n")
            with self.assertRaises(lab.LabError):
                lab.cmd_handin(lab.load_labs(str(TOP)), 2, "no-such-answers.txt", top=tmp)
            said = io.StringIO()
            with contextlib.redirect_stdout(said):
                out = lab.cmd_handin(lab.load_labs(str(TOP)), 2, None, top=tmp)
            self.assertIn("build/lab/handin-lab2.tar.gz: lab2/solution.diff", said.getvalue())
            with tarfile.open(out) as tar:
                self.assertEqual(sorted(tar.getnames()), ["lab2/answers-lab2.txt", "lab2/solution.diff"])
                diff = tar.extractfile("lab2/solution.diff").read().decode()
            self.assertIn("+int policy = 1;", diff)


if __name__ == "__main__":
    unittest.main()
