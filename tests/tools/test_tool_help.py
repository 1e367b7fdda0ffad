"""test_tool_help - every program in tools/ answers --help with its usage
on stdout and exit status 0, before doing anything else: the shell tools
through tools/lib/usage.sh, the Python ones through argparse or
tools/reprolib/usage.py, each message starting with a "usage: " line and
saying what its exit statuses mean. Every argparse argument of a Python
tool carries a help= text, so that --help describes each flag.
So does every benchmark of user/bench/ (user/lib/bench.c's
bench_answer_help), run on this host as the static program it is, whose
help must also describe each option of its usage line and its exit
statuses.

    python3 -m unittest discover -s tests/tools     (or tests/tools/run-checks)
"""
import ast
import os
import re
import subprocess
import unittest
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent.parent
TOOLS = TOP / "tools"
BENCH_BIN = TOP / "build" / "user" / "bin"


def command(tool):
    """How to run tool: itself, or by its "#!" line when it is not executable
    (linux-guest-init, which is an initramfs's /init and not run on the host)."""
    if os.access(tool, os.X_OK):
        return [str(tool)]
    return tool.read_text().splitlines()[0][2:].split() + [str(tool)]


class Help(unittest.TestCase):
    def test_every_tool_prints_its_usage_and_exits_0(self):
        tools = sorted(p for p in TOOLS.iterdir() if p.is_file() and p.name != "README.md")
        self.assertGreater(len(tools), 30)
        for tool in tools:
            with self.subTest(tool=tool.name):
                r = subprocess.run(command(tool) + ["--help"], capture_output=True, text=True,
                                   timeout=60, stdin=subprocess.DEVNULL)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertRegex(r.stdout, re.compile(r"^usage: \S", re.MULTILINE | re.IGNORECASE))
                self.assertRegex(r.stdout, re.compile(r"exit status", re.IGNORECASE),
                                 "the help does not say what the exit statuses mean")

    def test_every_argparse_argument_is_described(self):
        for tool in sorted(TOOLS.iterdir()):
            if not tool.is_file() or not tool.read_text(errors="replace").startswith("#!/usr/bin/env python3"):
                continue
            for call in ast.walk(ast.parse(tool.read_text())):
                if isinstance(call, ast.Call) and getattr(call.func, "attr", None) == "add_argument":
                    with self.subTest(tool=tool.name, line=call.lineno):
                        self.assertIn("help", [k.arg for k in call.keywords],
                                      f"{ast.unparse(call)} has no help= text")



def options_of(usage_line):
    """The option letters a usage line offers: -q, -t, ..., -c|-r|-w as three."""
    return sorted(set(re.findall(r"(?<=[\[|\s])-([A-Za-z])\b", usage_line)))


class BenchmarkHelp(unittest.TestCase):
    def test_every_benchmark_describes_its_options_and_exit_statuses(self):
        names = sorted(p.stem for p in (TOP / "user" / "bench").glob("*.c"))
        if not all((BENCH_BIN / n).exists() for n in names):
            self.skipTest("the benchmarks are not built (make user)")
        for name in names:
            with self.subTest(bench=name):
                r = subprocess.run([str(BENCH_BIN / name), "--help"], capture_output=True,
                                   text=True, timeout=60, stdin=subprocess.DEVNULL)
                self.assertEqual(r.returncode, 0, r.stderr)
                usage, _, rest = r.stdout.partition("\n\n")
                self.assertRegex(usage, rf"^usage: {name} ")
                described = re.findall(r"^\s+((?:-[A-Za-z],? ?)+)", rest, re.MULTILINE)
                letters = set(re.findall(r"-([A-Za-z])", " ".join(described)))
                for letter in options_of(usage):
                    self.assertIn(letter, letters, f"-{letter} is in the usage line, not described")
                self.assertRegex(rest, r"(?m)^exit status:\n  0  .*\n(  [1-9].*\n)+")

    def test_a_bad_option_is_status_2_with_the_usage_on_stderr(self):
        bench = BENCH_BIN / "syscall_bench"
        if not bench.exists():
            self.skipTest("the benchmarks are not built (make user)")
        r = subprocess.run([str(bench), "-Z"], capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stdout, "")
        self.assertRegex(r.stderr, r"(?m)^usage: syscall_bench ")


class BenchmarkFigures(unittest.TestCase):
    def test_the_lines_for_people_have_no_scientific_notation(self):
        """user/lib/bench.c writes each figure twice: an @result line for the tools, and a
        line for a person, where 20951 ns must not read 2.095e+04."""
        bench = BENCH_BIN / "syscall_bench"
        if not bench.exists():
            self.skipTest("the benchmarks are not built (make user)")
        r = subprocess.run([str(bench), "-q"], capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = [l for l in r.stdout.splitlines() if l.startswith("  ")]
        self.assertTrue(lines)
        for line in lines:
            self.assertNotRegex(line, r"\de[+-]\d", line)


if __name__ == "__main__":
    unittest.main()
