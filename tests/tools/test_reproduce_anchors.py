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


def group(kernel, values, metric="stat_batchmin", bench="lat_core"):
    g = summary.Group("coreops", kernel, bench, "default" if kernel == "rewind" else "linux", (), metric, "ns")
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

    def test_report_has_the_anchor_table(self):
        e = experiments.load(TOP / "experiments" / "coreops.toml")
        lines = report._anchor_section(e, [group("rewind", [100, 100]), group("linux", [400, 400])])
        stat = next(line for line in lines if line.startswith("| stat |"))
        self.assertIn("| 0.25 (", stat)
        self.assertTrue(stat.endswith("| at most 0.8 | met |"))
        self.assertIn("### Against Linux 6.1 (the anchor)", lines)


class AnchorFiles(unittest.TestCase):
    def check_error(self, text, message):
        check_file_error(self, text, message)

    def test_an_anchor_names_no_variant(self):
        self.check_error('[[anchor]]\nname = "x"\nmetric = "m@v"\n', "names no variant")

    def test_a_goal_is_positive(self):
        self.check_error('[[anchor]]\nname = "x"\nmetric = "m"\nat_most = 0\n', "positive")

    def test_without_a_goal_anything_is_met(self):
        with tempfile.TemporaryDirectory() as d:
            e = experiments.load(write_experiment(d, MINIMAL + '[[anchor]]\nname = "x"\nmetric = "m"\n'))
        self.assertEqual(anchors.state(e.anchors[0], span(5, 9)), anchors.MET)


if __name__ == "__main__":
    unittest.main()
