"""test_console - host tests of the console-log reader (tools/reprolib/console.py)
that every harness shares, line by line: terminal escapes, the exact form
benchmarks must print @result and @meta lines in, the run= program's framing,
and tools/console-log, the shell harnesses' way in. Whole recorded logs are
test_reproduce's.

    python3 -m unittest discover -s tests/tools     (or tests/tools/run-checks)
"""
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(TOP / "tools"))

from reprolib import console  # noqa: E402

COMPACT = ('@result {"bench":"syscall","variant":{"os":"rewind","release":"61121f9","loglevel":"4"},'
           '"metric":"syscall_getppid","value":254.4,"unit":"ns"}')
META = '@meta {"bench":"syscall","cpu":"QEMU TCG CPU version 2.5+","hypervisor":"TCGTCGTCGTCG","cpus":2,"tsc_mhz":2600.000,"build":"default"}'
RUN_LOG = ("\x1b[2J\x1b[01;01HSeaBIOS\r\n\x1b(B\x1b=GRUB\r\nbefore the run\r\n@run-begin\r\n"
           "hello\r\n[    0.100] kernel: a warning\r\n@exit 3\r\nafter\r\n")


class CleanLines(unittest.TestCase):
    def test_firmware_escapes_and_carriage_returns_go(self):
        self.assertEqual(console.clean_lines(RUN_LOG)[:3], ["SeaBIOS", "GRUB", "before the run"])

    def test_text_stays_as_it_is(self):
        self.assertEqual(console.clean_lines("a [1;2] b\n\n c"), ["a [1;2] b", "", " c"])


class ExactLines(unittest.TestCase):
    def test_compact_and_full_variants_are_exact(self):
        full = COMPACT.replace('"loglevel":"4"', '"hz":"1000","vsyscall":"emulate","maxcpus":"64"')
        for line in (COMPACT, full, COMPACT.replace("254.4", "1e+05"), COMPACT.replace("254.4", "0")):
            with self.subTest(line=line):
                self.assertTrue(console.is_exact_result(line))

    def test_what_a_benchmark_must_not_print(self):
        for bad in ("[ 1.0] " + COMPACT, COMPACT + " ", COMPACT.replace("254.4", "-1"),
                    COMPACT.replace("254.4", "1.2.3"), COMPACT.replace('"4"', '"a\\"b"'),
                    COMPACT.replace('{"os":"rewind","release":"61121f9","loglevel":"4"}', "{}"),
                    COMPACT.replace('"4"', '{"x":"4"}'), COMPACT.replace("syscall_getppid", "Syscall"),
                    COMPACT.replace(',"unit":"ns"', ""), COMPACT[:-1]):
            with self.subTest(bad=bad):
                self.assertFalse(console.is_exact_result(bad))

    def test_a_log_reader_still_forgives_a_prefix(self):
        self.assertEqual(console.parse_result("[ 1.0] " + COMPACT)["variant"]["loglevel"], "4")

    def test_meta_lines(self):
        self.assertTrue(console.is_exact_meta(META))
        for bad in (META.replace("2600.000", "2600"), META.replace('"cpus":2', '"cpus":0'), META + "x",
                    META.replace(',"build":"default"', ""), META.replace('"default"', '"No PV"')):
            with self.subTest(bad=bad):
                self.assertFalse(console.is_exact_meta(bad))

    def test_the_log_keeps_the_kernel_builds_its_figures_came_from(self):
        log = console.parse(META + "\n" + META.replace('"default"', '"nopv"') + "\n")
        self.assertEqual(log.builds, {"default", "nopv"})


class ProgramRuns(unittest.TestCase):
    def test_output_between_the_markers(self):
        run = console.program_run(console.clean_lines(RUN_LOG))
        self.assertEqual(run.output, [("hello", False), ("[    0.100] kernel: a warning", True)])
        self.assertEqual(run.status, 3)

    def test_a_run_that_never_ended_has_no_status(self):
        run = console.program_run(["@run-begin", "working", "x @exit 0", "@exit 0 later"])
        self.assertEqual((run.output[-1], run.status), (("@exit 0 later", False), None))

    def test_exit_outside_a_run_does_not_count(self):
        self.assertIsNone(console.program_run(["@exit 0"]).status)


class CompactVariantsInSteps(unittest.TestCase):
    def test_figures_belong_to_their_step_whatever_the_variant_holds(self):
        log = console.parse(f"@repro-step 0\n{COMPACT}\n@repro-end 0 0\n")
        self.assertEqual(log.steps[0].results[0]["metric"], "syscall_getppid")
        self.assertEqual((log.release, log.garbled, log.outside), ("61121f9", [], []))


class ConsoleLogCommand(unittest.TestCase):
    def run_tool(self, *args):
        return subprocess.run([str(TOP / "tools" / "console-log"), *args], capture_output=True, text=True)

    def setUp(self):
        work = tempfile.TemporaryDirectory()
        self.addCleanup(work.cleanup)
        self.log, self.status = os.path.join(work.name, "console.log"), os.path.join(work.name, "status")
        Path(self.log).write_text(RUN_LOG)

    def test_text(self):
        self.assertEqual(self.run_tool("text", self.log).stdout, "\n".join(console.clean_lines(RUN_LOG)))

    def test_exit_status(self):
        self.assertEqual(self.run_tool("exit-status", self.log).stdout, "3\n")

    def test_run_splits_program_and_kernel_lines(self):
        done = self.run_tool("run", self.log, self.status)
        self.assertEqual((done.stdout, done.stderr), ("hello\n", "[    0.100] kernel: a warning\n"))
        self.assertEqual(Path(self.status).read_text(), "3\n")

    def test_bad_usage(self):
        self.assertEqual(self.run_tool("text").returncode, 2)


if __name__ == "__main__":
    unittest.main()
