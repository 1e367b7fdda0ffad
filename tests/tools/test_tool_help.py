"""test_tool_help - every program in tools/ answers --help with its usage
on stdout and exit status 0, before doing anything else: the shell tools
through tools/lib/usage.sh, the Python ones through argparse or
tools/reprolib/usage.py, each message starting with a "usage: " line.

    python3 -m unittest discover -s tests/tools     (or tests/tools/run-checks)
"""
import os
import re
import subprocess
import unittest
from pathlib import Path

TOOLS = Path(__file__).resolve().parent.parent.parent / "tools"


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


if __name__ == "__main__":
    unittest.main()
