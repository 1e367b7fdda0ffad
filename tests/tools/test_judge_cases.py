"""test_judge_cases - tools/reprolib's verdicts and control states on the
figures of tests/judge_cases.txt, which the in-boot runner's judge
(user/lib/judge.c, tests/unit/test_judge.c) must give as well: one table,
two judges, so the USB stick's report and tools/reproduce's cannot drift.
"""
import sys
import unittest
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
TOP = HERE.parent.parent
sys.path.insert(0, str(TOP / "tools"))

from reprolib import controls, intervals, ratios  # noqa: E402

CASES = TOP / "tests" / "judge_cases.txt"


def cases():
    """(line number, head words, values, wanted verdict) per row of the table."""
    for number, line in enumerate(CASES.read_text().splitlines(), 1):
        if line.strip() and not line.startswith("#"):
            head, values, want = (part.strip() for part in line.split("|"))
            yield number, head.split(), [float(v) for v in values.split()], want


def judged(head, values):
    interval = intervals.of_values(values)
    if head[0] == "ratio":
        expect, seed, tolerance = head[1], float(head[2]), float(head[3])
        return ratios.verdict(SimpleNamespace(expect=expect, seed=seed, tolerance=tolerance), interval)
    return controls.state(SimpleNamespace(at_least=float(head[1]), at_most=float(head[2])), interval)


class JudgeCases(unittest.TestCase):
    def test_every_row_of_the_shared_table_is_judged_as_written(self):
        rows = list(cases())
        self.assertGreater(len(rows), 20)
        for number, head, values, want in rows:
            with self.subTest(line=number):
                self.assertEqual(judged(head, values), want)


if __name__ == "__main__":
    unittest.main()
