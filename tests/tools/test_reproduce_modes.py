"""test_reproduce_modes - host tests of tools/reproduce's [[modes]]
(reprolib/modes.py): a test ratio sorting the repeats into two modes, "k of
N" and each split ratio's median per mode in the report, on figures made by
hand shaped as rwsem's xfs_repair cells on icount (one repeat of three
collapses).

    python3 -m unittest discover -s tests/tools     (or tests/tools/run-checks)
"""
import tempfile
import unittest

from repro_fixtures import HAND_RUN, TOP, by_hand, check_file_error, write_experiment
from reprolib import controls, experiments, modes, report, summary

HAND = HAND_RUN + """[[ratio]]
name = "wall 4 / -1, osq"
numerator = "wall4@osq"
denominator = "wall1@osq"
seed = 4.45
expect = "higher"
[[ratio]]
name = "osq / off at 4"
numerator = "wall4@osq"
denominator = "wall4@off"
seed = 5.5
expect = "higher"
[[ratio]]
name = "off 4 / -1"
numerator = "wall4@off"
denominator = "wall1@off"
seed = 0.8
expect = "lower"
[[modes]]
name = "collapsed"
numerator = "sys4@osq"
denominator = "sys1@osq"
above = 2
why = "a spin to the end of a slice is system CPU"
splits = ["wall 4 / -1, osq", "osq / off at 4"]
"""


def hand():
    with tempfile.TemporaryDirectory() as d:
        return experiments.load(write_experiment(d, HAND, "hand"))


def icount_like(osq_wall4=(2800, 2900, 4200), osq_sys4=(600, 650, 4600)):
    """Three repeats: stride -1 2,700 ms wall and 1,250 ms system CPU under
    both policies, off at stride 4 2,750 ms; osq at stride 4 as given."""
    figures = []
    for repeat, (wall4, sys4) in enumerate(zip(osq_wall4, osq_sys4), 1):
        figures += [("osq", repeat, "wall1", 2700), ("osq", repeat, "sys1", 1250),
                    ("osq", repeat, "wall4", wall4), ("osq", repeat, "sys4", sys4),
                    ("off", repeat, "wall1", 2700), ("off", repeat, "wall4", 2750)]
    return figures


def judged(figures, experiment=None):
    records = by_hand(figures)
    groups = summary.group_figures(records)
    summary.account_steps(groups, records)
    experiment = experiment or hand()
    ratio_rows, _ = controls.judge(experiment, groups)
    return experiment, ratio_rows, modes.rows(experiment, groups)


class Sorting(unittest.TestCase):
    def test_one_collapse_in_three_is_counted_and_split_out(self):
        _, _, rows = judged(icount_like())
        self.assertEqual(len(rows), 1)
        row = rows[0]
        self.assertEqual(row.count(), "1 of 3")
        self.assertEqual((row.inside, row.outside), ({3}, {1, 2}))
        test, wall, osq_off = row.splits
        self.assertEqual(test.name, "sys4@osq / sys1@osq above 2")
        self.assertEqual(wall.name, "wall 4 / -1, osq")
        self.assertAlmostEqual(wall.inside[0], 4200 / 2700)
        self.assertEqual([round(v, 4) for v in wall.outside], [round(2800 / 2700, 4), round(2900 / 2700, 4)])
        self.assertAlmostEqual(osq_off.inside[0], 4200 / 2750)

    def test_only_the_named_ratios_are_split(self):
        _, _, rows = judged(icount_like())
        self.assertNotIn("off 4 / -1", [s.name for s in rows[0].splits])

    def test_the_threshold_is_strict_and_every_repeat_can_be_in_one_mode(self):
        _, _, rows = judged(icount_like(osq_sys4=(2600, 2700, 3000)))
        self.assertEqual(rows[0].count(), "3 of 3")
        _, _, rows = judged(icount_like(osq_sys4=(2500, 600, 650)))	# 2500 / 1250 is 2: not above
        self.assertEqual(rows[0].count(), "0 of 3")

    def test_a_repeat_without_the_test_figure_is_not_sorted(self):
        figures = [f for f in icount_like() if not (f[1] == 2 and f[2] == "sys4")]
        _, _, rows = judged(figures)
        self.assertEqual(rows[0].count(), "1 of 2")
        self.assertEqual(rows[0].splits[1].unsorted, 1)

    def test_without_modes_nothing_is_sorted(self):
        with tempfile.TemporaryDirectory() as d:
            plain = experiments.load(write_experiment(d, HAND.split("[[modes]]")[0], "hand"))
        _, _, rows = judged(icount_like(), plain)
        self.assertEqual(rows, [])


class Report(unittest.TestCase):
    def test_the_modes_table_gives_both_medians_and_the_threshold(self):
        _, _, rows = judged(icount_like())
        text = "\n".join(report._modes_section(rows))
        self.assertIn("### Modes", text)
        self.assertIn("**collapsed: 1 of 3 repeats**, sorted by sys4@osq / sys1@osq above 2: a spin", text)
        self.assertIn("| ratio | collapsed | not collapsed | all |", text)
        wall = next(line for line in text.splitlines() if line.startswith("| wall 4 / -1, osq |"))
        self.assertEqual(wall, "| wall 4 / -1, osq | 1.56 of 1 | 1.06 (1.04 - 1.07) of 2 | 1.07 (1.04 - 1.56) of 3 |")

    def test_the_seed_table_says_how_many_collapsed(self):
        experiment, ratio_rows, rows = judged(icount_like())
        lines = report._ratio_section(experiment, ratio_rows, rows)
        wall = next(line for line in lines if line.startswith("| wall 4 / -1, osq |"))
        self.assertIn("min-max of 3); collapsed in 1 of 3 (see Modes)", wall)
        off = next(line for line in lines if line.startswith("| off 4 / -1 |"))
        self.assertNotIn("collapsed", off)

    def test_no_modes_no_section(self):
        self.assertEqual(report._modes_section([]), [])


class Files(unittest.TestCase):
    def check_error(self, text, message):
        check_file_error(self, text, message)

    def test_splits_must_name_ratios(self):
        self.check_error('[[modes]]\nname = "x"\nnumerator = "a"\ndenominator = "b"\nabove = 2\nwhy = "w"\n'
                         'splits = ["none such"]\n', "splits name no ratio")

    def test_the_threshold_is_positive(self):
        self.check_error('[[modes]]\nname = "x"\nnumerator = "a"\ndenominator = "b"\nabove = 0\nwhy = "w"\n',
                         "positive")

    def test_rwsem_sorts_its_xfs_repair_osq_cells_by_system_cpu(self):
        e = experiments.load(TOP / "experiments" / "rwsem.toml")
        (m,) = e.modes
        self.assertEqual((m.numerator.metric, m.denominator.metric), ("sys_ms_stride4", "sys_ms_stride_m1"))
        self.assertEqual((m.numerator.variant, m.denominator.variant, m.above), ("osq", "osq", 2.5))
        self.assertTrue(m.splits and all("xfs_repair" in s and "osq" in s for s in m.splits))


if __name__ == "__main__":
    unittest.main()
