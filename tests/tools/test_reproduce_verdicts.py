"""test_reproduce_verdicts - host tests of tools/reproduce's judgement on
figures made by hand: the controls an experiment must pass, repeats dropped
from a verdict, the host's load beside a run, and --compare of two results.

    python3 -m unittest discover -s tests/tools     (or tests/tools/run-checks)
"""
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

from repro_fixtures import HAND_RUN, TOP, by_hand, vsyscall, write_experiment
from reprolib import compare, controls, experiments, intervals, load, outputs, records, runner, summary
import wellformed

HAND = HAND_RUN + """[[ratio]]
name = "slow / fast"
numerator = "t_slow"
denominator = "t_fast"
seed = 4
expect = "higher"
[[ratio]]
name = "other / fast"
numerator = "t_other"
denominator = "t_fast"
seed = 4
expect = "higher"
[[control]]
name = "base about 1"
numerator = "t_base"
denominator = "t_fast"
at_most = 2
why = "the ground must not collapse"
guards = ["slow / fast"]
"""


def hand():
    with tempfile.TemporaryDirectory() as d:
        return experiments.load(write_experiment(d, HAND, "hand"))


def hand_figures(base, repeats=3):
    """t_fast 10, t_slow 50 (ratio 5) and t_other 50 in each repeat; t_base as given."""
    return [("default", r, m, v) for r in range(1, repeats + 1)
            for m, v in (("t_fast", 10), ("t_slow", 50), ("t_other", 50), ("t_base", base))]


def judged(records_list):
    groups = summary.group_figures(records_list)
    summary.account_steps(groups, records_list)
    return controls.judge(hand(), groups)


class Controls(unittest.TestCase):
    def test_a_control_that_holds_leaves_the_verdict(self):
        ratio_rows, control_rows = judged(by_hand(hand_figures(base=12)))
        self.assertEqual(control_rows[0].state, "holds")
        self.assertEqual([r.verdict for r in ratio_rows], ["yes", "yes"])

    def test_a_failed_control_voids_what_it_guards_with_the_reason(self):
        ratio_rows, control_rows = judged(by_hand(hand_figures(base=1260)))
        self.assertEqual(control_rows[0].state, "fails")
        self.assertEqual(ratio_rows[0].verdict,
                         'void: control "base about 1" failed (126, 126 - 126; must be <= 2)')
        self.assertEqual(ratio_rows[1].verdict, "yes")	# not guarded

    def test_a_control_straddling_its_bound_leaves_it_inconclusive(self):
        figures = hand_figures(base=12)
        figures[3] = ("default", 1, "t_base", 30)	# repeat 1: 3x, the others 1.2x
        ratio_rows, control_rows = judged(by_hand(figures))
        self.assertEqual(control_rows[0].state, "unsettled")
        self.assertEqual(ratio_rows[0].verdict, 'inconclusive: control "base about 1" unsettled')

    def test_the_report_shows_controls_and_void_verdicts(self):
        e = hand()
        with tempfile.TemporaryDirectory() as d:
            records.append(os.path.join(d, "results.jsonl"), [{"type": "run", "started": "now", "command": "t",
                                                               "experiments": ["hand"], "boots_planned": 1}]
                           + by_hand(hand_figures(base=1260)))
            outputs.write(d, {"hand": e})
            report = Path(d, "report.md").read_text()
        self.assertIn("### Controls", report)
        self.assertIn("| base about 1 | default | <= 2 | 126 (126 - 126, min-max of 3) | fails |", report)
        self.assertIn('void: control "base about 1" failed', report)

    def test_bad_controls_are_named(self):
        with tempfile.TemporaryDirectory() as d:
            for text, why in ((HAND.replace("at_most = 2", ""), "at_least and/or at_most"),
                              (HAND.replace('guards = ["slow / fast"]', 'guards = ["nope"]'), "guards name no ratio"),
                              (HAND.replace('why = "the ground must not collapse"', ""), "'why' is missing")):
                with self.subTest(why=why), self.assertRaisesRegex(experiments.ExperimentError, why):
                    experiments.load(write_experiment(d, text, "hand"))

    def test_the_experiments_declare_their_controls(self):
        for name in ("rwsem", "nocache", "paravirt"):
            e = experiments.load(TOP / "experiments" / f"{name}.toml")
            with self.subTest(experiment=name):
                self.assertTrue(e.controls)


class DroppedRepeats(unittest.TestCase):
    def test_a_zero_repeat_is_dropped_and_counted_never_silently(self):
        """A report's row once read "5.01 (1 - 1)": a zero dropped unsaid, the median outside its range."""
        figures = hand_figures(base=12)
        figures[0] = ("default", 1, "t_fast", 0)
        ratio_rows, _ = judged(by_hand(figures))
        row = ratio_rows[0]
        self.assertEqual(row.pair.estimate.dropped, {"zero": 1})
        self.assertTrue(row.low <= row.ours <= row.high)
        self.assertEqual(row.pair.estimate.interval.n, 2)

    def test_failed_and_missing_repeats_are_counted(self):
        figures = [f for f in hand_figures(base=12) if not (f[1] == 3 and f[2] == "t_slow")]
        ratio_rows, _ = judged(by_hand(figures, steps={("default", 2): "exit 1"}))
        self.assertEqual(ratio_rows[0].pair.estimate.dropped, {"failed": 1, "missing": 1})
        self.assertEqual(ratio_rows[0].pair.estimate.interval.n, 1)

    def test_the_report_shows_the_losses_beside_the_figure(self):
        figures = hand_figures(base=12)
        figures[0] = ("default", 1, "t_fast", 0)
        with tempfile.TemporaryDirectory() as d:
            records.append(os.path.join(d, "results.jsonl"), [{"type": "run", "started": "now", "command": "t",
                                                               "experiments": ["hand"], "boots_planned": 1}]
                           + by_hand(figures, steps={("default", 4): "truncated"}))
            outputs.write(d, {"hand": hand()})
            self.assertEqual(wellformed.check(d), [])
            report = Path(d, "report.md").read_text()
        self.assertIn("| 5 (5 - 5, min-max of 2; dropped: 1 failed, 1 zero) *partial* |", report)
        self.assertIn("| 3 of 4 (1 failed) |", report)


class HostLoad(unittest.TestCase):
    def test_a_span_records_the_load(self):
        got = load.Span().end()
        self.assertEqual(set(got), {"load_start", "load_end", "host_steal_pct"})
        self.assertIsNotNone(got["load_start"])

    def test_a_loaded_timed_ground_is_warned_about(self):
        warning = load.loaded_warning(by_hand(hand_figures(12), load_avg=11.0))
        self.assertIn("reached 11.0 on 2 CPUs", warning)
        self.assertIn("--ground icount", warning)
        self.assertIsNone(load.loaded_warning(by_hand(hand_figures(12), load_avg=1.5)))
        self.assertIsNone(load.loaded_warning(by_hand(hand_figures(12), machine={"accelerator": "icount"}, load_avg=11.0)))

    def test_the_report_names_the_ground_and_the_load(self):
        for accel, load_avg, wanted, unwanted in (("tcg", 9.0, "**Loaded host.**", "Figures repeat exactly"),
                                                  ("icount", 9.0, "**Ground: ICOUNT.**", "**Loaded host.**")):
            with self.subTest(ground=accel), tempfile.TemporaryDirectory() as d:
                records.append(os.path.join(d, "results.jsonl"),
                               [{"type": "run", "started": "now", "command": "t", "experiments": ["hand"],
                                 "boots_planned": 1}]
                               + by_hand(hand_figures(12), machine={"accelerator": accel}, load_avg=load_avg))
                outputs.write(d, {"hand": hand()})
                report = Path(d, "report.md").read_text()
                self.assertIn(wanted, report)
                self.assertNotIn(unwanted, report)
                self.assertIn("| 9 - 9 |", report)	# the boot's load, start - end

    def test_icount_stretches_estimates_and_time_outs(self):
        e = vsyscall()
        timed = runner.Options("/src", "/b", "/out", 2, "512M", True, 1, None, False)
        icount = runner.Options("/src", "/b", "/out", 2, "512M", True, 1, None, False, ground="icount")
        boot = runner.boots(e, with_linux=False)[0]
        self.assertAlmostEqual(boot.estimate(icount), boot.estimate(timed) * runner.GROUND_SLOWDOWN["icount"])
        step = boot.plan(timed)[0]
        self.assertGreater(icount.step_limit(step), timed.step_limit(step))


class Compare(unittest.TestCase):
    def write_run(self, d, name, figures):
        path = Path(d, name)
        path.mkdir()
        records.append(str(path / "results.jsonl"), [{"type": "run", "started": "now", "command": "t",
                                                      "experiments": ["hand"], "boots_planned": 1}]
                       + by_hand(figures))
        return str(path)

    def test_faster_slower_and_no_change(self):
        with tempfile.TemporaryDirectory() as d:
            a = self.write_run(d, "a", [("default", r, m, v) for r in (1, 2, 3)
                                        for m, v in (("t_fast", 10), ("t_slow", 50 + r), ("t_base", 20))])
            b = self.write_run(d, "b", [("default", r, m, v) for r in (1, 2, 3)
                                        for m, v in (("t_fast", 5), ("t_slow", 49 + 2 * r), ("t_base", 20.1))])
            found, unmatched = compare.rows(a, b, 0.01)
            verdicts = {row[0].split(": ")[1].split("@")[0]: row[5] for row in found}
            self.assertEqual(verdicts, {"t_fast": "faster", "t_slow": "no change", "t_base": "no change"})
            self.assertEqual(unmatched, 0)
            path, text = compare.write(a, b, 0.01)
            self.assertEqual(path, os.path.join(a, "compare-b.md"))
            self.assertIn("| hand: t_fast@default@rewind | 10 ms | 5 ms | -50.0 % | 0.5 - 0.5 (min-max of 3) "
                          "| faster | 0 / 0 |", text)

    def test_a_zero_repeat_is_dropped_and_counted(self):
        with tempfile.TemporaryDirectory() as d:
            a = self.write_run(d, "a", [("default", r, "t_fast", v) for r, v in ((1, 0), (2, 10), (3, 10))])
            b = self.write_run(d, "b", [("default", r, "t_fast", 10) for r in (1, 2, 3)])
            (row,), _ = compare.rows(a, b, 0.01)
            self.assertEqual((row[3], row[5], row[6]), ("+0.0 %", "no change", "1 / 0"))

    def test_direction_follows_the_unit(self):
        slower = intervals.Interval(1.2, 1.1, 1.3, "min-max", 3)
        self.assertEqual(compare.verdict(slower, "lower", 0.01), "slower")
        self.assertEqual(compare.verdict(slower, "higher", 0.01), "faster")
        self.assertEqual(compare.verdict(slower, None, 0.01), "higher")
        self.assertEqual(compare.verdict(intervals.Interval(1.0, 0.9, 1.3, "min-max", 3), "lower", 0.01),
                         "no change")

    def test_the_command_prints_the_table(self):
        with tempfile.TemporaryDirectory() as d:
            a = self.write_run(d, "a", hand_figures(12))
            b = self.write_run(d, "b", hand_figures(24))
            done = subprocess.run([str(TOP / "tools" / "reproduce"), "--compare", a, b],
                                  capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertIn("| hand: t_base@default@rewind | 12 ms | 24 ms | +100.0 % |", done.stdout)
            self.assertTrue(Path(a, "compare-b.md").exists())


if __name__ == "__main__":
    unittest.main()
