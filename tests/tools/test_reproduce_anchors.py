"""test_reproduce_anchors - host tests of tools/reproduce's anchor rows
(reprolib/anchors.py): an experiment's figure on rewind over the same figure
on Linux in the same VM, paired by repeat, judged against its goal, and the
report's table of them (coreops, issue 30's core-operation table).

    python3 -m unittest discover -s tests/tools     (or tests/tools/run-checks)
"""
import unittest

from repro_fixtures import MINIMAL, TOP, check_file_error, span, write_experiment
from reprolib import anchors, experiments, report, summary
import tempfile


def group(kernel, values, metric="stat_batchmin", bench="lat_core", params=()):
    g = summary.Group("coreops", kernel, bench, "default" if kernel == "rewind" else "linux", params, metric,
                      "ns")
    g.samples = [(("b", repeat), v) for repeat, v in enumerate(values, 1)]
    g.planned = set(range(1, len(values) + 1))
    return g


def anchor(at_most=0.8, metric="stat_batchmin"):
    return experiments.Anchor("stat", experiments.MetricRef.parse(metric), at_most)


class Anchors(unittest.TestCase):
    def test_coreops_declares_an_anchor_per_row_on_one_cpu(self):
        e = experiments.load(TOP / "experiments" / "coreops.toml")
        self.assertEqual(e.cpus, (1,))
        self.assertGreaterEqual(len(e.anchors), 15)
        self.assertTrue(all(a.at_most == 0.8 and a.metric.metric.endswith("_batchmin") for a in e.anchors))

    def test_ratio_is_rewind_over_linux_paired_by_repeat(self):
        row = anchors.row([group("rewind", [100, 200, 300]), group("linux", [200, 400, 600])], anchor())
        self.assertAlmostEqual(row.estimate.value, 0.5)
        self.assertEqual((row.rewind, row.linux, row.unit), (200, 400, "ns"))
        self.assertEqual(row.state, anchors.MET)

    def test_other_metrics_and_benches_do_not_count(self):
        groups = [group("rewind", [90]), group("linux", [100]), group("linux", [1], metric="poll_10_pipes"),
                  group("rewind", [1000], bench="other")]
        row = anchors.row(groups, anchor(metric="lat_core:stat_batchmin"))
        self.assertAlmostEqual(row.estimate.value, 0.9)

    def test_goal_is_judged_on_the_whole_interval(self):
        self.assertEqual(anchors.state(anchor(), span(0.5, 0.8)), anchors.MET)
        self.assertEqual(anchors.state(anchor(), span(0.81, 2)), anchors.MISSED)
        self.assertEqual(anchors.state(anchor(), span(0.7, 0.9)), anchors.UNSETTLED)
        self.assertEqual(anchors.state(anchor(), None), "not measured")

    def test_without_linux_the_row_is_not_measured(self):
        row = anchors.row([group("rewind", [100, 110])], anchor())
        self.assertIsNone(row.estimate.value)
        self.assertEqual(row.state, "not measured")
        self.assertEqual(row.estimate.dropped, {"missing": 2})

    def test_a_row_per_cpu_count_never_pooled(self):
        with tempfile.TemporaryDirectory() as d:
            e = experiments.load(write_experiment(d, MINIMAL + '[[anchor]]\nname = "stat"\nmetric = "stat_batchmin"\n'))
        two, four = (("cpus", 2),), (("cpus", 4),)
        groups = [group("rewind", [100], params=two), group("linux", [200], params=two),
                  group("rewind", [900], params=four), group("linux", [300], params=four)]
        rows = anchors.rows(e, groups)
        self.assertEqual([r.label for r in rows], ["stat (cpus=2)", "stat (cpus=4)"])
        self.assertAlmostEqual(rows[0].estimate.value, 0.5)
        self.assertAlmostEqual(rows[1].estimate.value, 3.0)

    def test_one_parameter_set_keeps_the_plain_name(self):
        e = experiments.load(TOP / "experiments" / "coreops.toml")
        one = (("cpus", 1),)
        rows = anchors.rows(e, [group("rewind", [1], params=one), group("linux", [2], params=one)])
        self.assertEqual(rows[0].label, e.anchors[0].name)

    def test_scaling_rows_are_better_higher_without_a_goal(self):
        e = experiments.load(TOP / "experiments" / "scaling.toml")
        self.assertEqual(e.cpus, (2, 4))
        self.assertTrue(e.anchors and all(a.better == "higher" and a.at_most == float("inf") for a in e.anchors))

    def test_report_has_the_anchor_table(self):
        e = experiments.load(TOP / "experiments" / "coreops.toml")
        lines = report._anchor_section(e, [group("rewind", [100, 100]), group("linux", [400, 400])])
        stat = next(line for line in lines if line.startswith("| stat |"))
        self.assertIn("| 0.25 (", stat)
        self.assertTrue(stat.endswith("| lower | at most 0.8 | met |"))
        self.assertIn("### Against Linux 6.1 (the anchor)", lines)


class AnchorFiles(unittest.TestCase):
    def check_error(self, text, message):
        check_file_error(self, text, message)

    def test_an_anchor_names_no_variant(self):
        self.check_error('[[anchor]]\nname = "x"\nmetric = "m@v"\n', "names no variant")

    def test_a_goal_is_positive(self):
        self.check_error('[[anchor]]\nname = "x"\nmetric = "m"\nat_most = 0\n', "positive")

    def test_better_is_lower_or_higher(self):
        self.check_error('[[anchor]]\nname = "x"\nmetric = "m"\nbetter = "up"\n', "lower")

    def test_a_goal_is_for_times_only(self):
        self.check_error('[[anchor]]\nname = "x"\nmetric = "m"\nbetter = "higher"\nat_most = 2\n', "has none")

    def test_without_a_goal_anything_is_met(self):
        with tempfile.TemporaryDirectory() as d:
            e = experiments.load(write_experiment(d, MINIMAL + '[[anchor]]\nname = "x"\nmetric = "m"\n'))
        self.assertEqual(anchors.state(e.anchors[0], span(5, 9)), anchors.MET)


if __name__ == "__main__":
    unittest.main()
