"""test_qemu_run - tools/qemu-run refuses a machine nobody asked for: CPUS=
and MEM= that QEMU would quietly turn into something else (-smp 0 boots one
CPU) end with a message naming what is valid, before any QEMU starts
(--print shows the command line it would run); a headless rewind boot has
no screen (-vga none, fbcon=0 first on the kernel's command line) unless
SCREEN=1 asks for it, and the interactive boot keeps its screen.

    python3 -m unittest discover -s tests/tools     (or tests/tools/run-checks)
"""
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

QEMU_RUN = Path(__file__).resolve().parent.parent.parent / "tools" / "qemu-run"


def qemu_run_print(*options, **env):
    """qemu-run --print on a stand-in ISO (only its existence is checked), with env."""
    with tempfile.NamedTemporaryFile(suffix=".iso") as iso:
        return subprocess.run([str(QEMU_RUN), "--iso", iso.name, "--print", *options], capture_output=True,
                              text=True, timeout=60, env=dict(os.environ, ACCEL="tcg", **env))


class MachineSize(unittest.TestCase):
    def test_nonsense_cpus_refused_with_the_range(self):
        for cpus in ("0", "-1", "two", "65", "1.5"):
            with self.subTest(cpus=cpus):
                r = qemu_run_print(CPUS=cpus)
                self.assertEqual(r.returncode, 2, r.stdout)
                self.assertIn("CPUS must be a whole number from 1 to 64", r.stderr)

    def test_nonsense_memory_refused(self):
        for mem in ("0", "abc", "-512M", "1.5G", "512X"):
            with self.subTest(mem=mem):
                r = qemu_run_print(MEM=mem)
                self.assertEqual(r.returncode, 2, r.stdout)
                self.assertIn("MEM must be a size such as 512M", r.stderr)

    def test_good_sizes_reach_the_command_line(self):
        for cpus, mem in (("1", "512M"), ("64", "2G"), ("4", "1024")):
            with self.subTest(cpus=cpus, mem=mem):
                r = qemu_run_print(CPUS=cpus, MEM=mem)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertIn(f"-smp {cpus} -m {mem} ", r.stdout)


class Screen(unittest.TestCase):
    def test_headless_boot_has_no_screen_and_fbcon_off_first(self):
        r = qemu_run_print("--headless", CMDLINE="fbcon=1 run=x", SCREEN="0")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(" -vga none ", r.stdout)
        # --print quotes the argument: the blank is escaped
        self.assertIn("name=opt/rewind/cmdline\\,string=fbcon=0\\ fbcon=1\\ run=x", r.stdout)

    def test_headless_boot_without_cmdline_still_turns_fbcon_off(self):
        r = qemu_run_print("--headless", SCREEN="0", CMDLINE="")
        self.assertIn("name=opt/rewind/cmdline\\,string=fbcon=0 ", r.stdout)

    def test_screen_1_keeps_the_screen(self):
        r = qemu_run_print("--headless", SCREEN="1", CMDLINE="")
        self.assertNotIn("-vga none", r.stdout)
        self.assertNotIn("fbcon=0", r.stdout)

    def test_interactive_boot_keeps_the_screen(self):
        r = qemu_run_print(SCREEN="0", CMDLINE="")
        self.assertNotIn("-vga none", r.stdout)
        self.assertNotIn("fbcon=0", r.stdout)


if __name__ == "__main__":
    unittest.main()
