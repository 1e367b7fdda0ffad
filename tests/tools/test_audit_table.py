"""test_audit_table - the permission audit of docs/robustness.md stays whole:
every system call the kernel defines (a SYSCALLn(name, ...) in its C
sources) is named in the first column of the audit table, with the check
Linux makes and where rewind makes it; and every user-suite test the table
cites exists. A new system call without its row fails here, so the audit
cannot fall behind the system-call table again.

    python3 -m unittest discover -s tests/tools     (or tests/tools/run-checks)
"""
import re
import unittest
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent.parent
KERNEL_DIRS = ("kernel", "fs", "mm", "ipc", "drivers", "locking")
DEFINITION = re.compile(r"^SYSCALL[0-6]\(\s*(\w+)", re.MULTILINE)
TEST_DEFINITION = re.compile(r"^TEST\((\w+)\)", re.MULTILINE)
CITED = re.compile(r"`(\w+)`")


def defined_system_calls():
    names = set()
    for folder in KERNEL_DIRS:
        for source in (TOP / folder).rglob("*.c"):
            names.update(DEFINITION.findall(source.read_text(errors="replace")))
    return names


def audit_rows():
    """The cells of each row of the table under '### The audit'."""
    text = (TOP / "docs" / "robustness.md").read_text()
    section = text.split("### The audit", 1)[1]
    section = re.split(r"^#{2,3} ", section, maxsplit=1, flags=re.MULTILINE)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


def user_suite_tests():
    names = set()
    for source in (TOP / "user" / "suites").rglob("*.c"):
        names.update(TEST_DEFINITION.findall(source.read_text(errors="replace")))
    return names


class AuditTable(unittest.TestCase):
    def test_every_system_call_has_a_row(self):
        named = set()
        for cells in audit_rows():
            named.update(re.findall(r"\w+", cells[0]))
        missing = sorted(defined_system_calls() - named)
        self.assertEqual(missing, [], "system calls without a row in docs/robustness.md's audit "
                         "table (say Linux's check, where rewind makes it, and its test)")

    def test_cited_tests_exist(self):
        tests = user_suite_tests()
        cited = set()
        for cells in audit_rows():
            cited.update(CITED.findall(cells[-1]))
        self.assertEqual(sorted(cited - tests), [],
                         "tests cited in docs/robustness.md's audit table that no suite defines")


if __name__ == "__main__":
    unittest.main()
