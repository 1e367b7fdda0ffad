"""test_reproduce - host tests of tools/reproduce's library on recorded
console logs (logs/): the experiment files, the plan and guest script, the
log parser (whole, truncated and garbled logs), the statistics, the seed
verdicts, and a results directory made end to end from the logs.

    python3 -m unittest discover -s tests/tools     (or tests/tools/run-checks)
"""
import dataclasses
import os
import re
import subprocess
import tempfile
import unittest
from pathlib import Path
from types import SimpleNamespace

from repro_fixtures import MACHINE, MINIMAL, TOP, read_log, scaling, span, vsyscall, write_experiment
from reprolib import (console, experiments, hosted, intervals, numbers, onboard, outputs, plan, plots, ratios,
                      records, runner, summary)
import wellformed



class ExperimentFiles(unittest.TestCase):
    def test_vsyscall_declares_runs_variants_ratios(self):
        e = vsyscall()
        self.assertEqual([r.bench for r in e.runs], ["vsyscall_bench", "fsmark_lite"])
        self.assertEqual([v.name for v in e.runs[1].variants], ["tsc", "tick"])
        self.assertEqual(e.runs[0].variants[0].name, "default")
        self.assertTrue(all(r.seed > 0 and r.expect in experiments.EXPECTATIONS for r in e.ratios))

    def test_every_registered_experiment_loads(self):
        self.assertIn("vsyscall", experiments.load_all(TOP / "experiments"))

    def test_profile_frames_are_kernel_functions(self):
        """A frame the compiler inlined is never in a sampled stack: its share reads 0."""
        elf = TOP / "build" / "kernel.elf"
        if not elf.exists():
            self.skipTest("no build/kernel.elf")
        out = subprocess.run(["nm", str(elf)], capture_output=True, text=True, check=True).stdout
        functions = {f[2] for f in (line.split() for line in out.splitlines())
                     if len(f) == 3 and f[1] in "tT"}
        for name, e in experiments.load_all(TOP / "experiments").items():
            for frame in e.profile_frames:
                with self.subTest(experiment=name, frame=frame):
                    self.assertIn(frame, functions)

    def test_unknown_name_lists_the_valid_ones(self):
        registry = {"vsyscall": vsyscall(), "scaling": scaling()}
        with self.assertRaisesRegex(experiments.ExperimentError, "nope.*experiments are: vsyscall, scaling"):
            experiments.select(registry, ["nope"])
        self.assertEqual(len(experiments.select(registry, [])), 2)

    def test_metric_references(self):
        ref = experiments.MetricRef.parse("fsmark_lite:user_us@tick")
        self.assertEqual((ref.bench, ref.metric, ref.variant), ("fsmark_lite", "user_us", "tick"))
        with self.assertRaises(ValueError):
            experiments.MetricRef.parse("bad metric")

    def test_malformed_files_are_named(self):
        cases = {
            'name = "bad"\n': "no \\[\\[run\\]\\]",
            'name = "bad"\nrun = [1]\n': "'run' must be a list of tables",
            'name = "bad"\n[knob_defaults]\nhz = "1 2"\n': "bad knob hz",
            'name = "other"\n[[run]]\nbench = "b"\nseconds = 1\n': "name must be the file's name",
            MINIMAL.replace("seconds = 1", 'seconds = "x"'): "'seconds' must be float",
            MINIMAL + 'variants = [{ name = "a", knobs = { hz = "100" } }]\n': "needs a value in \\[knob_defaults\\]",
            MINIMAL + 'args = "-p 1"\nsweep = { param = "threads", values = [1, 2] }\n': "must contain {threads}",
            MINIMAL + '[[ratio]]\nname = "r"\nnumerator = "a"\ndenominator = "b"\nseed = 2\nexpect = "up"\n':
                "expect must be one of",
            MINIMAL + '[[ratio]]\nname = "r"\nnumerator = "a b"\ndenominator = "b"\nseed = 2\nexpect = "higher"\n':
                "bad metric reference",
            "name = [": "bad.toml",
            "linux_boots = [\"vsyscall='x'\"]\n" + MINIMAL: "linux_boots must be strings",
        }
        with tempfile.TemporaryDirectory() as d:
            for text, message in cases.items():
                with self.subTest(message=message):
                    with self.assertRaisesRegex(experiments.ExperimentError, message):
                        experiments.load(write_experiment(d, text))


    def test_list_gives_each_experiment_its_estimated_cost(self):
        """The README's durations point at --list, so that they are the files' own figures."""
        done = subprocess.run([str(TOP / "tools" / "reproduce"), "--list"], capture_output=True,
                              text=True, check=True)
        names = sorted(p.stem for p in (TOP / "experiments").glob("*.toml"))
        listed = re.findall(r"(?m)^(\S+) +(\d+):(\d\d) +(\d+):(\d\d)  \S", done.stdout)
        self.assertEqual(sorted(n for n, *_ in listed), names)
        for name, full_m, full_s, quick_m, quick_s in listed:
            with self.subTest(experiment=name):
                self.assertGreater(int(full_m) * 60 + int(full_s), int(quick_m) * 60 + int(quick_s))

    def test_quick_args_default_to_args(self):
        with tempfile.TemporaryDirectory() as d:
            e = experiments.load(write_experiment(
                d, MINIMAL + 'args = "-p {threads}"\nsweep = { param = "threads", values = [1, 2] }\n'))
        self.assertEqual(e.runs[0].quick_args, "-p {threads}")
        self.assertEqual(e.runs[0].sweep.quick_values, (1, 2))


class Plans(unittest.TestCase):
    def test_variants_interleave_within_each_repeat(self):
        steps = plan.steps(vsyscall(), quick=True, repeats=2)
        self.assertEqual([(s.bench, s.variant, s.repeat) for s in steps], [
            ("vsyscall_bench", "default", 1), ("fsmark_lite", "tsc", 1), ("fsmark_lite", "tick", 1),
            ("vsyscall_bench", "default", 2), ("fsmark_lite", "tsc", 2), ("fsmark_lite", "tick", 2)])
        self.assertEqual([s.number for s in steps], list(range(6)))

    def test_sweep_values_fill_the_arguments(self):
        steps = plan.steps(scaling(), quick=True, repeats=1)
        self.assertEqual([(s.params["threads"], s.variant, s.args) for s in steps], [
            (1, "off", "-q -p 1"), (1, "osq", "-q -p 1"), (4, "off", "-q -p 4"), (4, "osq", "-q -p 4")])

    def test_guest_script_sets_knobs_and_marks_steps(self):
        e = vsyscall()
        script = plan.guest_script(e, plan.steps(e, quick=True, repeats=2)).splitlines()
        self.assertIn("echo '@repro-step 1'", script)
        self.assertIn('knob cputime tsc && /bin/fsmark_lite -q -n 100 -L 1 -r 1; echo "@repro-end 1 $?"', script)
        self.assertIn('knob cputime tick && /bin/fsmark_lite -q -n 100 -L 1 -r 1; echo "@repro-end 2 $?"', script)
        # back to the default, not chained: a kernel without the knob still runs the step
        at = script.index("echo '@repro-step 3'")
        self.assertEqual(script[at + 1], "knob cputime tsc")
        self.assertEqual(script[at + 2], '/bin/vsyscall_bench -q -r 1; echo "@repro-end 3 $?"')
        self.assertEqual(plan.boot_knobs(e), ["cputime=tsc"])

    def test_linux_script_has_no_knobs(self):
        e = vsyscall()
        steps = plan.steps(e, quick=True, repeats=1, linux=True)
        self.assertEqual([s.variant for s in steps], ["linux", "linux"])
        self.assertNotIn("knob", plan.guest_script(e, steps, linux=True))


class ConsoleLogs(unittest.TestCase):
    def test_complete_log(self):
        log = read_log("vsyscall-rewind-complete.console")
        self.assertEqual(sorted(log.steps), list(range(6)))
        self.assertTrue(all(s.began and s.status == 0 for s in log.steps.values()))
        self.assertEqual(len(log.steps[0].results), 28)
        self.assertEqual(len(log.steps[1].results), 18)
        self.assertEqual((log.tsc_mhz, log.release, log.garbled), (2596.419, "f773543", []))

    def test_recorded_rewind_log_with_failed_steps(self):
        log = read_log("vsyscall-rewind-quick.console")
        self.assertEqual([log.steps[n].status for n in range(6)], [0, 1, 1, 0, 1, 1])
        self.assertEqual(log.cpu_model, "QEMU TCG CPU version 2.5+")
        self.assertGreater(len(log.steps[0].results), 0)
        self.assertEqual(log.steps[1].results, [])

    def test_recorded_linux_log(self):
        log = read_log("vsyscall-linux-xonly-quick.console")
        self.assertTrue(all(s.status == 0 for s in log.steps.values()))
        metrics = {r["metric"] for s in log.steps.values() for r in s.results}
        self.assertIn("gettimeofday_vsyscall_xonly_batchmin", metrics)
        self.assertEqual(log.steps[0].results[0]["variant"]["os"], "Linux")

    def test_truncated_log_leaves_the_open_step_without_status(self):
        log = read_log("vsyscall-rewind-truncated.console")
        self.assertEqual([log.steps[n].status for n in range(4)], [0] * 4)
        self.assertTrue(log.steps[4].began)
        self.assertIsNone(log.steps[4].status)
        self.assertNotIn(5, log.steps)
        self.assertEqual(len(log.garbled), 1)	# the line cut in half

    def test_garbled_lines_are_counted_not_fatal(self):
        log = read_log("vsyscall-rewind-garbled.console")
        self.assertEqual(len(log.steps[0].results), 26)	# two results lost, two recovered
        self.assertEqual(len(log.garbled), 3)
        self.assertTrue(all(s.status == 0 for s in log.steps.values()))

    def test_result_lines(self):
        ok = '@result {"bench":"b","variant":{},"metric":"m","value":1.5,"unit":"ns"}'
        self.assertEqual(console.parse_result("junk" + ok + "[ 1.0] tail")["value"], 1.5)
        for bad in (ok.replace("1.5", '"1.5"'), ok.replace("1.5", "true"), ok.replace('"unit":"ns"', '"u":1'),
                    ok.replace("1.5", "Infinity"), ok[:-1], "@result [1]"):
            with self.subTest(bad=bad):
                self.assertIsNone(console.parse_result(bad))

    def test_meta_lines_tell_where_it_ran(self):
        log = console.parse('[ 1.0] x\n@meta {"bench":"b","cpu":"QEMU TCG CPU","hypervisor":"TCGTCGTCGTCG",'
                            '"cpus":2,"tsc_mhz":2596.1}\n@meta {"bench"\n')
        self.assertEqual((log.cpu_model, log.hypervisor, log.tsc_mhz), ("QEMU TCG CPU", "TCGTCGTCGTCG", 2596.1))
        self.assertEqual(len(log.garbled), 1)

    def test_empty_log(self):
        log = console.parse("")
        self.assertEqual((log.steps, log.outside, log.tsc_mhz), ({}, [], None))


def boot(experiment, kernel, log_name, quick, repeats, qemu_status=0, linux_params=""):
    """Records of one boot as the runner makes them, from a recorded log."""
    steps = plan.steps(experiment, quick, repeats, kernel == "linux")
    log = read_log(log_name)
    head = {"boot": f"{experiment.name}-{kernel}{linux_params}", "experiment": experiment.name,
            "kernel": kernel, "linux_params": linux_params,
            "status": runner.boot_status(qemu_status, log, steps), "qemu_status": qemu_status,
            "seconds": 1.0, "timeout": 60, "console_log": f"logs/{log_name}"}
    return records.boot_records(head, steps, log, MACHINE)


def results_dir(directory, experiment_list, boots, planned=None):
    jsonl = os.path.join(directory, "results.jsonl")
    records.append(jsonl, [{"type": "run", "started": "now", "command": "test",
                            "experiments": [e.name for e in experiment_list],
                            "boots_planned": planned or len(boots)}])
    for b in boots:
        records.append(jsonl, b)
    return outputs.write(directory, {e.name: e for e in experiment_list})


class Records(unittest.TestCase):
    def test_step_statuses_and_completeness(self):
        rs = boot(vsyscall(), "rewind", "vsyscall-rewind-truncated.console", True, 2, qemu_status=124)
        head = rs[0]
        self.assertEqual((head["status"], head["steps"], head["steps_ok"]), ("timeout", 6, 4))
        steps = [r["status"] for r in rs if r["type"] == "step"]
        self.assertEqual(steps, ["ok"] * 4 + ["truncated", "not run"])
        incomplete = [r for r in rs if r["type"] == "figure" and not r["complete"]]
        self.assertTrue(incomplete and all(r["step"] == 4 for r in incomplete))
        self.assertEqual(rs[-1]["machine"]["guest_tsc_mhz"], 2596.419)

    def test_boot_status(self):
        steps = plan.steps(vsyscall(), True, 2)
        whole, cut = read_log("vsyscall-rewind-complete.console"), read_log("vsyscall-rewind-truncated.console")
        self.assertEqual(runner.boot_status(0, whole, steps), "ok")
        self.assertEqual(runner.boot_status(124, cut, steps), "timeout")
        self.assertEqual(runner.boot_status(1, cut, steps), "ended early (QEMU status 1)")
        self.assertEqual(runner.boot_status("hung: step 4 ran over 9 s", cut, steps), "hung: step 4 ran over 9 s")

    def test_failed_steps_say_their_exit_status(self):
        rs = boot(vsyscall(), "rewind", "vsyscall-rewind-quick.console", True, 2)
        self.assertEqual([r["status"] for r in rs if r["type"] == "step"],
                         ["ok", "exit 1", "exit 1", "ok", "exit 1", "exit 1"])
        self.assertEqual(rs[0]["status"], "ok")

    def test_unreadable_lines_are_skipped(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "results.jsonl")
            records.append(path, [{"type": "run"}])
            with open(path, "a") as f:
                f.write('{"type": "figure", "cut off\n[1]\n')
            got, bad = records.load(path)
            self.assertEqual((len(got), bad), (1, 2))


class Statistics(unittest.TestCase):
    def groups(self, log="vsyscall-rewind-complete.console"):
        rs = boot(vsyscall(), "rewind", log, True, 2)
        groups = summary.group_figures(rs)
        summary.account_steps(groups, rs)
        return {(g.variant, g.metric): g for g in groups}

    def test_median_min_max_spread(self):
        g = self.groups()[("tick", "user_us_per_file_vsyscall_trap")]
        self.assertEqual(len(g.samples), 2)
        self.assertAlmostEqual(g.median, sum(g.values) / 2)
        self.assertAlmostEqual(g.spread_pct, (max(g.values) - min(g.values)) / g.median * 100)

    def test_groups_of_a_cut_off_step_are_incomplete(self):
        groups = self.groups("vsyscall-rewind-truncated.console")
        self.assertFalse(groups[("tsc", "files_per_s_vdso")].complete)
        self.assertTrue(groups[("default", "gettimeofday_vdso")].complete)


class ReadableNumbers(unittest.TestCase):
    def test_no_scientific_notation_for_people(self):
        cases = {1234567.0: "1,234,567", 9999.7: "10,000", 123.456: "123.5", 0.5: "0.5",
                 0.0000123: "0.0000123", 0: "0", -2500000: "-2,500,000", 3.0: "3"}
        for value, text in cases.items():
            self.assertEqual(numbers.readable(value), text)
        for exponent in range(-9, 13):
            self.assertNotIn("e", numbers.readable(1.2345 * 10 ** exponent))


class Verdicts(unittest.TestCase):
    def ratio(self, expect, seed, tolerance=2.0):
        ref = experiments.MetricRef("m")
        return experiments.Ratio("r", ref, ref, seed, "", expect, tolerance)

    def test_verdicts(self):
        higher = self.ratio("higher", 11.33)
        self.assertEqual(ratios.verdict(higher, span(9, 12)), "yes")
        self.assertEqual(ratios.verdict(higher, span(1.3, 1.5)), "direction only (smaller effect)")
        self.assertEqual(ratios.verdict(higher, span(400, 500)), "direction only (larger effect)")
        self.assertEqual(ratios.verdict(higher, span(0.8, 0.9)), "no (wrong direction)")
        self.assertEqual(ratios.verdict(higher, None), "not measured")
        self.assertEqual(ratios.verdict(self.ratio("lower", 0.66), span(0.6, 0.7)), "yes")
        self.assertEqual(ratios.verdict(self.ratio("higher", 1.17), span(1.02, 1.05)),
                         "direction only (smaller effect)")
        self.assertEqual(ratios.verdict(self.ratio("higher", 1.17), span(1.2, 1.2)), "yes")
        same = self.ratio("same", 1.0, 1.25)
        self.assertEqual(ratios.verdict(same, span(1.0, 1.1)), "yes")
        self.assertEqual(ratios.verdict(same, span(1.5, 1.6)), "no (not about 1)")
        self.assertEqual(ratios.verdict(same, span(1.1, 1.6)), "inconclusive (interval reaches past the tolerance)")

    def test_an_interval_straddling_1_is_inconclusive_never_wrong(self):
        higher = self.ratio("higher", 11.33)
        self.assertEqual(ratios.verdict(higher, span(0.5, 20)), "inconclusive (interval straddles 1)")
        self.assertEqual(ratios.verdict(self.ratio("lower", 0.95), span(0.51, 1.09)),
                         "inconclusive (interval straddles 1)")
        self.assertEqual(ratios.verdict(higher, span(1.0, 3)), "inconclusive (interval straddles 1)")

    def test_magnitude_is_judged_on_the_interval(self):
        """A median short of the seed's effect reproduces when the interval reaches it."""
        higher = self.ratio("higher", 11.33)
        self.assertEqual(ratios.verdict(higher, span(1.5, 4, value=2)), "yes")

    def test_few_repeats_give_their_range_many_a_bootstrap(self):
        few = intervals.of_values([1.0, 3.0, 2.0])
        self.assertEqual((few.value, few.low, few.high, few.method), (2.0, 1.0, 3.0, "min-max"))
        many = [1.0 + k / 10 for k in range(11)]
        boot = intervals.of_values(many)
        self.assertEqual(boot.method, "bootstrap")
        self.assertTrue(min(many) <= boot.low <= boot.value <= boot.high <= max(many))
        self.assertEqual(boot, intervals.of_values(many))	# a fixed seed: the same report each time
        self.assertIsNone(intervals.of_values([]))

    def test_rows_per_variant_and_linux_column(self):
        rs = boot(vsyscall(), "rewind", "vsyscall-rewind-complete.console", True, 2)
        rs += boot(vsyscall(), "linux", "vsyscall-linux-xonly-quick.console", True, 2)
        groups = summary.group_figures(rs)
        by_name = {r.name: r for r in vsyscall().ratios}
        trap = ratios.rows(groups, by_name["gettimeofday: vsyscall trap / vDSO"])
        self.assertEqual(len(trap), 1)
        self.assertEqual(trap[0].verdict, "yes")
        self.assertTrue(trap[0].low <= trap[0].ours <= trap[0].high)
        user = ratios.rows(groups, by_name["fs_mark user CPU per file: trap / legacy"])
        self.assertEqual([r.label for r in user], ["tsc", "tick"])
        syscall = ratios.rows(groups, by_name["gettimeofday: syscall / vDSO"])
        self.assertIsNotNone(syscall[0].linux)

    def test_explicit_variants_across_a_sweep(self):
        e = scaling()
        groups = summary.group_figures(boot(e, "rewind", "scaling.console", False, 2))
        rows = ratios.rows(groups, e.ratios[0])
        self.assertEqual([r.label for r in rows], ["threads=1", "threads=2", "threads=4"])
        # one thread, no contention: its repeats fall either side of 1
        self.assertEqual(rows[0].verdict, "inconclusive (interval straddles 1)")
        self.assertEqual(rows[2].verdict, "yes")

    def test_missing_metrics_are_not_measured(self):
        rs = boot(vsyscall(), "rewind", "vsyscall-rewind-quick.console", True, 2)
        rows = ratios.rows(summary.group_figures(rs), vsyscall().ratios[0])
        self.assertEqual((rows[0].ours, rows[0].verdict), (None, "not measured"))


class Plots(unittest.TestCase):
    """plots.py's choices on made-up groups."""

    @staticmethod
    def group(values, variant="default"):
        return summary.Group("e", "rewind", "b", variant, (), "m", "ns", [((0, i), v) for i, v in enumerate(values)])

    def script(self, groups, variants=(), builds=()):
        run = experiments.Run("b", "", "", 1, 1, tuple(variants), None)
        e = SimpleNamespace(name="e", runs=(run,), builds=tuple(builds))
        plot = experiments.Plot("p", "a plot", (experiments.MetricRef("m", None, None),))
        return plots._script(e, plot, groups, "e-p")

    def test_a_zero_on_a_log_scale_is_drawn_at_the_floor(self):
        data, script = self.script([self.group([0, 10, 2000])])
        self.assertIn("set logscale y", script)
        self.assertIn("set yrange [1:*]", script)
        self.assertIn("0 drawn at 1 (log scale)", script)
        self.assertEqual(data.split()[1:], ["10", "1", "2000"])

    def test_one_series_has_no_legend_two_have_one(self):
        self.assertIn("set key off", self.script([self.group([1, 2])])[1])
        two = self.script([self.group([1, 2]), self.group([3, 4], "osq")],
                          [experiments.Variant("osq", {"rwsem_spin": "osq"})])[1]
        self.assertIn("set key top left", two)
        self.assertIn("title 'rewind, rwsem_spin=osq'", two)

    def test_a_second_build_is_named_by_its_make_variables(self):
        script = self.script([self.group([1, 2]), self.group([3, 4], "nopv")],
                             builds=[experiments.Build("nopv", ("PARAVIRT=n",), "nopv")])[1]
        self.assertIn("title 'rewind, PARAVIRT=n build'", script)


class ResultsDirectories(unittest.TestCase):
    def test_complete_run_with_linux(self):
        e = vsyscall()
        with tempfile.TemporaryDirectory() as d:
            reasons = results_dir(d, [e], [
                boot(e, "rewind", "vsyscall-rewind-complete.console", True, 2),
                boot(e, "linux", "vsyscall-linux-xonly-quick.console", True, 2, linux_params="2")])
            self.assertEqual(reasons, [])
            self.assertEqual(wellformed.check(d), [])
            report = Path(d, "report.md").read_text()
            self.assertIn("| gettimeofday: vsyscall trap / vDSO | default | 11.33: 237.44 / 20.95 ns (001) | ", report)
            self.assertIn("Linux 6.1, same VM", report)
            self.assertIn(": complete.", report)
            for plot in ("vsyscall-gettimeofday", "vsyscall-fsmark-user-cpu"):
                self.assertTrue(Path(d, "plots", plot + ".png").exists())
                script = Path(d, "plots", plot + ".gp").read_text()
                self.assertIn("histogram errorbars", script)
                self.assertRegex(script, r"set xlabel 'metric \(\w+")
                self.assertRegex(script, r"set ylabel 'median \(\w+\)'")
                self.assertIn("bars: min-max", script)
                self.assertTrue(Path(d, "plots", plot + ".pdf").read_bytes().startswith(b"%PDF-"))

    def test_partial_run_is_marked(self):
        e = vsyscall()
        with tempfile.TemporaryDirectory() as d:
            reasons = results_dir(d, [e], [
                boot(e, "rewind", "vsyscall-rewind-truncated.console", True, 2, qemu_status=124)], planned=3)
            self.assertEqual(reasons[:2], ["only 1 of 3 boots ran", "boot vsyscall-rewind: timeout"])
            self.assertEqual(wellformed.check(d), [])
            report = Path(d, "report.md").read_text()
            self.assertIn("**partial**", report)
            self.assertIn("| vsyscall-rewind | 4 | fsmark_lite | tsc | 2 | truncated |", report)

    def test_garbled_run_is_well_formed(self):
        e = vsyscall()
        with tempfile.TemporaryDirectory() as d:
            results_dir(d, [e], [boot(e, "rewind", "vsyscall-rewind-garbled.console", True, 2)])
            self.assertEqual(wellformed.check(d), [])
            self.assertIn("| vsyscall-rewind | ok | 6 of 6 | 1 | 3 |", Path(d, "report.md").read_text())

    def test_scaling_experiment_draws_lines(self):
        e = scaling()
        with tempfile.TemporaryDirectory() as d:
            results_dir(d, [e], [boot(e, "rewind", "scaling.console", False, 2)])
            self.assertEqual(wellformed.check(d), [])
            script = Path(d, "plots", "scaling-wall.gp").read_text()
            self.assertIn("with yerrorlines title 'rewind, rwsem_spin=osq'", script)
            self.assertIn("set ylabel 'median (ms)'", script)
            self.assertIn("n = 2 repeats per point; point: median, bars: min-max", script)
            self.assertIn("set key top left", script)
            self.assertIn("set xlabel 'threads'", script)
            data = Path(d, "plots", "scaling-wall.dat").read_text()
            self.assertIn("# rewind, rwsem_spin=off\n1 103 102 104\n2 ", data)

    def test_a_broken_directory_is_caught(self):
        e = vsyscall()
        with tempfile.TemporaryDirectory() as d:
            results_dir(d, [e], [boot(e, "rewind", "vsyscall-rewind-complete.console", True, 2)])
            Path(d, "plots", "vsyscall-gettimeofday.png").write_bytes(b"not a png")
            with open(Path(d, "summary.csv"), "a") as f:
                f.write("x,y\n")
            problems = wellformed.check(d)
            self.assertEqual(len(problems), 2, problems)


def rwsem():
    return experiments.load(TOP / "experiments" / "rwsem.toml")


PROFILE = """# rewind profile v1
# profile=997: samples per second per CPU, by LAPIC timer NMI (now off); hz=1000
# cpu 0: 10 samples, 0 lost
6 0 K osq_lock optimistic_spin rwsem_xadd_down_write_failed sys_mprotect syscall_entry
2 0 k handle_fault page_fault
2 0 u 0x401000
# end
"""


def rwsem_console(steps):
    """A console log in which every step prints one figure, and the profiled ones their profile."""
    out = []
    for s in steps:
        out += [f"@repro-step {s.number}",
                '@result {"bench":"repair_storm","variant":{"os":"rewind"},'
                f'"metric":"wall_ms_tmax_osq","value":{10 + s.number},"unit":"ms"}}',
                f"@repro-end {s.number} 0"]
        if s.profile:
            out += ["knob profile off", f"@repro-profile {s.number}", PROFILE]
    return "\n".join(out) + "\n"


class QuietProgress:
    def show(self, text):
        pass

    def say(self, text):
        pass

    def advance(self, seconds):
        pass


HOSTED_EXPERIMENT = MINIMAL + """
[[hosted]]
program = "hosted/fake"
args = "{status}"
seconds = 1
[[ratio]]
name = "slow / fast"
numerator = "t_slow"
denominator = "t_fast"
seed = 2
expect = "higher"
"""

FAKE_HOSTED = """#!/bin/sh
v='"variant":{"os":"Linux"}'
echo '@result {"bench":"fake",'"$v"',"metric":"t_slow","value":30,"unit":"ns"}'
echo '@result {"bench":"fake",'"$v"',"metric":"t_fast","value":10,"unit":"ns"}'
exit $1
"""


class HostedGround(unittest.TestCase):
    def run_hosted(self, d, status):
        build = Path(d, "build")
        (build / "hosted").mkdir(parents=True, exist_ok=True)
        fake = build / "hosted" / "fake"
        fake.write_text(FAKE_HOSTED)
        fake.chmod(0o755)
        e = experiments.load(write_experiment(d, HOSTED_EXPERIMENT.replace("{status}", str(status))))
        out = Path(d, f"out{status}")
        (out / "logs").mkdir(parents=True)
        opts = runner.Options(top=str(TOP), build=str(build), out=str(out), cpus=2, memory="512M",
                              quick=False, repeat=None, step_timeout=None, with_linux=False)
        return e, out, hosted.run(e, opts, MACHINE, QuietProgress(), "test")

    def test_nocache_declares_its_hosted_program(self):
        e = experiments.load(TOP / "experiments" / "nocache.toml")
        self.assertEqual([h.program for h in e.hosted], ["hosted/fstime_host"])

    def test_a_bad_program_is_named(self):
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaisesRegex(experiments.ExperimentError, "program must be hosted/<name>"):
                experiments.load(write_experiment(d, MINIMAL + '[[hosted]]\nprogram = "../x"\nseconds = 1\n'))

    def test_hosted_figures_make_a_column_of_their_own(self):
        with tempfile.TemporaryDirectory() as d:
            e, out, rs = self.run_hosted(d, 0)
            head = rs[0]
            self.assertEqual((head["kernel"], head["status"], head["steps"], head["steps_ok"]),
                             ("hosted", "ok", 3, 3))	# one run per repeat
            rows = ratios.rows(summary.group_figures(rs), e.ratios[0])
            self.assertEqual((rows[0].ours, rows[0].hosted.value), (None, 3.0))
            self.assertEqual(results_dir(str(out), [e], [rs]), [])
            self.assertEqual(wellformed.check(str(out)), [])
            report = Path(out, "report.md").read_text()
            self.assertIn("hosted: this CPU, user mode", report)
            self.assertIn("| 3 (3 - 3, min-max of 3) (yes) |", report)

    def test_a_failing_program_marks_its_figures(self):
        with tempfile.TemporaryDirectory() as d:
            e, out, rs = self.run_hosted(d, 3)
            self.assertEqual(rs[0]["status"], "failed")
            self.assertEqual({r["status"] for r in rs if r["type"] == "step"}, {"exit 3"})
            self.assertFalse(any(r["complete"] for r in rs if r["type"] == "figure"))


class CpuListsAndProfiles(unittest.TestCase):
    def test_rwsem_declares_cpus_and_a_profiled_run(self):
        e = rwsem()
        self.assertEqual(e.cpus, (2, 4))
        self.assertEqual([(r.bench, r.profile) for r in e.runs if r.profile],
                         [("xfs_repair_bench", 997), ("repair_storm", 997)])
        self.assertIn("osq_lock", e.profile_frames)

    def test_bad_cpus_and_profile_are_named(self):
        with tempfile.TemporaryDirectory() as d:
            for text in ('cpus = [0]\n' + MINIMAL, 'cpus = [2, 2]\n' + MINIMAL,
                         MINIMAL + 'profile = -1\n'):
                with self.assertRaises(experiments.ExperimentError):
                    experiments.load(write_experiment(d, text))

    def test_one_boot_per_cpu_count_and_cpus_a_parameter(self):
        e = rwsem()
        boots = runner.boots(e, with_linux=False)
        self.assertEqual([(b.id, b.cpus) for b in boots], [("rwsem-rewind-cpus2", 2), ("rwsem-rewind-cpus4", 4)])
        steps = plan.steps(e, quick=True, repeats=1, cpus=4)
        self.assertTrue(all(s.params == {"cpus": 4} for s in steps))
        self.assertEqual(plan.steps(vsyscall(), quick=True, repeats=1, cpus=4)[0].params, {})
        self.assertEqual([b.cpus for b in runner.boots(vsyscall(), with_linux=False)], [None])

    def test_per_cpu_estimates_grow_with_the_boots_cpus(self):
        e = rwsem()
        # xfs_repair's work does not grow with the CPUs; the storm's threads do
        self.assertEqual([r.per_cpu for r in e.runs], [False, False, True, True, True])
        repair, storm = e.runs[0], e.runs[2]
        for cpus in e.cpus:
            boot = next(b for b in runner.boots(e, with_linux=False) if b.cpus == cpus)
            opts = runner.Options(top=TOP, build="", out="", cpus=2, memory="512M", quick=False,
                                  repeat=1, step_timeout=None, with_linux=False)
            steps = boot.plan(opts)
            first_storm = next(s for s in steps if s.bench == storm.bench)
            self.assertEqual(steps[0].seconds, repair.seconds)
            self.assertEqual(first_storm.seconds, storm.seconds * cpus)
            self.assertEqual(opts.step_limit(first_storm), int(60 + 5 * storm.seconds * cpus))
        # without a CPU list, the boot's --cpus count; a run not per_cpu keeps its estimate
        first_storm = next(s for s in plan.steps(e, quick=True, repeats=1, vcpus=3) if s.bench == storm.bench)
        self.assertEqual(first_storm.seconds, storm.quick_seconds * 3)
        self.assertEqual(plan.steps(vsyscall(), quick=True, repeats=1, vcpus=8)[0].seconds,
                         vsyscall().runs[0].quick_seconds)
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(experiments.ExperimentError):
                experiments.load(write_experiment(d, MINIMAL + 'per_cpu = "yes"\n'))

    def test_only_cpus_narrows_a_cpu_list(self):
        e = rwsem()
        self.assertEqual([b.cpus for b in runner.boots(e, with_linux=False, only_cpus=[2])], [2])
        self.assertEqual(runner.boots(e, with_linux=False, only_cpus=[3]), [])
        # an experiment without a list boots once at --cpus, whatever the filter
        self.assertEqual([b.cpus for b in runner.boots(vsyscall(), with_linux=False, only_cpus=[4])], [None])

    def test_profiled_steps_run_once_and_print_the_profile(self):
        e = rwsem()
        steps = plan.steps(e, quick=True, repeats=2)
        profiled = [s for s in steps if s.profile]
        self.assertEqual({s.repeat for s in profiled}, {1})
        self.assertEqual(len(profiled), 8)	# xfs_repair off and osq, the storm's six policies
        self.assertFalse(any(s.profile for s in plan.steps(e, quick=True, repeats=1, linux=True)))
        script = plan.guest_script(e, steps).splitlines()
        n = next(s.number for s in profiled if s.bench == "repair_storm" and s.variant == "osq")
        at = script.index(f"echo '@repro-step {n}'")
        self.assertEqual(script[at + 1], "echo reset > /proc/profile")
        self.assertEqual(script[at + 2], f'knob rwsem_spin osq && knob profile 997 && /bin/repair_storm -P -n 48; '
                                         f'echo "@repro-end {n} $?"')
        self.assertEqual(script[at + 3:at + 6], ["knob profile off", f"echo '@repro-profile {n}'",
                                                 "cat /proc/profile"])

    def test_profiles_are_saved_drawn_and_their_share_reported(self):
        e = rwsem()
        steps = plan.steps(e, quick=True, repeats=1, cpus=2)
        text = rwsem_console(steps)
        log = console.parse(text)
        self.assertEqual(log.garbled, [])
        with tempfile.TemporaryDirectory() as d:
            saved = runner._save_profiles(text, "rwsem-rewind-cpus2", steps, d)
            self.assertEqual(sorted(saved), [s.number for s in steps if s.profile])
            head = {"boot": "rwsem-rewind-cpus2", "experiment": "rwsem", "kernel": "rewind",
                    "linux_params": "", "status": "ok", "qemu_status": 0, "seconds": 1.0,
                    "timeout": 60, "console_log": "logs/x.console"}
            results_dir(d, [e], [records.boot_records(head, steps, log, MACHINE, None, saved)])
            report = Path(d, "report.md").read_text()
            self.assertIn("### Profiles", report)
            # these steps have no times: nothing to say how much was sampled
            self.assertIn("| 10 | 75.0 % | 75.0 % | - | `sys_mprotect` 100.0 % | [flame graph](plots/flame-rwsem-rewind-cpus2-step",
                          report)
            svgs = sorted(Path(d, "plots").glob("flame-*.svg"))
            self.assertEqual(len(svgs), 8)
            self.assertIn("osq_lock", svgs[0].read_text())

    def test_extract_and_kernel_share(self):
        from reprolib import profile
        kept = profile.extract("noise\r\n" + PROFILE.replace("\n", "\r\n") + "after\n")
        self.assertTrue(kept.splitlines()[0] in profile.HEADERS and kept.endswith(profile.END + "\n"))
        p = profile.parse(kept)
        self.assertAlmostEqual(profile.kernel_share(p, ("osq_lock",)), 0.75)
        self.assertEqual(profile.kernel_share(p, ("nothing",)), 0.0)
        self.assertIsNone(profile.kernel_share(profile.parse(PROFILE.replace("K osq", "u osq")
                                                             .replace("k handle", "u handle")), ("x",)))
        with self.assertRaises(profile.ProfileError):
            profile.extract(PROFILE.replace("# end", ""))

    def test_busy_share_leaves_the_idle_loop_out(self):
        from reprolib import profile
        p = profile.parse(PROFILE.replace("# end", "4 0 k native_safe_halt sched_idle_loop ap_main\n"
                                                   "4 0 k sched_idle_loop kernel_main\n# end"))
        self.assertAlmostEqual(profile.kernel_share(p, ("osq_lock",)), 6 / 16)
        self.assertAlmostEqual(profile.kernel_share(p, ("osq_lock",), busy=True), 6 / 8)
        self.assertAlmostEqual(profile.sampled_fraction(p, 0.01), 18 / 9.97)
        self.assertIsNone(profile.sampled_fraction(p, None))

    def test_self_share_counts_leaves_and_names_the_system_calls_under_them(self):
        from reprolib import profile
        p = profile.parse(PROFILE.replace("# end", "3 0 k optimistic_spin rwsem_xadd_down_write_failed sys_munmap "
                                                   "syscall_entry\n"
                                                   "1 0 k apic_timer osq_lock optimistic_spin sys_mprotect\n"
                                                   "1 0 k optimistic_spin handle_fault page_fault\n# end"))
        spin = ("osq_lock", "optimistic_spin")
        # kernel samples: 6 + 2 + 3 + 1 + 1 = 13; the interrupt inside the spin is its handler's
        self.assertAlmostEqual(profile.kernel_share(p, spin, self_only=True), 10 / 13)
        self.assertAlmostEqual(profile.kernel_share(p, spin), 11 / 13)
        self.assertEqual([(name, round(share, 3)) for name, share in profile.frame_callers(p, spin, True)],
                         [("sys_mprotect", 0.6), ("sys_munmap", 0.3), ("page_fault", 0.1)])
        self.assertEqual(profile.frame_callers(p, ("nothing",)), [])



def paravirt():
    return experiments.load(TOP / "experiments" / "paravirt.toml")


def stick_log(build, values):
    """The console of /bin/experiment --quick paravirt on kernel build `build`
    (repeats 1): each lat_mmap_lite step prints values[variant] as its 16 MiB
    figure, with @meta naming the build; the report after it is not a step's."""
    e = paravirt()
    steps = [s for s in plan.steps(e, True, 1, build=None if build == "default" else build) if not s.profile]
    lines = ["experiment paravirt: ...", '@experiment {"experiment":"paravirt","build":"%s","quick":true,'
             '"repeats":1,"steps":%d}' % (build, len(steps))]
    for s in steps:
        lines += [f"@repro-step {s.number}",
                  '@meta {"bench":"%s","cpu":"X","hypervisor":"none","cpus":4,"tsc_mhz":2000.000,"build":"%s"}'
                  % (s.bench, build)]
        if s.bench == "lat_mmap_lite":
            lines.append('@result {"bench":"lat_mmap_lite","variant":{"os":"rewind"},'
                         '"metric":"lat_mmap_16m_batchmin","value":%s,"unit":"us"}' % values[s.variant])
        lines.append(f"@repro-end {s.number} 0")
    lines += ["@report-begin", '@result {"bench":"lat_mmap_lite","variant":{"stat":"median"},'
              '"metric":"lat_mmap_16m_batchmin","value":1,"unit":"us"}', "@report-end"]
    return "\n".join(lines) + "\n"


class StickBoots(unittest.TestCase):
    """tools/reproduce --from-console: the stick's boots of two kernel builds, one report."""

    def write(self, d, name, text):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_two_builds_boots_pair_into_the_ratio(self):
        registry = {"paravirt": paravirt()}
        with tempfile.TemporaryDirectory() as d:
            default = self.write(d, "default.log", stick_log("default", {"indirect": 150, "patched": 108,
                                                                         "ident": 104}))
            nopv = self.write(d, "nopv.log", stick_log("nopv", {"nopv": 100}))
            found, names = onboard.results([default, nopv], registry)
        self.assertEqual(names, ["paravirt"])
        boots = [r for r in found if r["type"] == "boot"]
        self.assertEqual([(b["boot"], b["status"], b["build"]) for b in boots],
                         [("paravirt-stick-default", "ok", ""), ("paravirt-stick-nopv", "ok", "nopv")])
        self.assertEqual(boots[0]["machine"]["accelerator"], "bare metal")
        figures = [r for r in found if r["type"] == "figure"]
        self.assertEqual(len(figures), 4)	# the report's median line is no step's figure
        row = ratios.rows(summary.group_figures(found), paravirt().ratios[0])[0]
        self.assertAlmostEqual(row.ours, 1.08)

    def test_the_results_directory_is_the_last_line_on_stdout(self):
        """For scripts: --from-console prints where it wrote, --report where it rewrote."""
        tool = str(TOP / "tools" / "reproduce")
        with tempfile.TemporaryDirectory() as d:
            logs = [self.write(d, "default.log", stick_log("default", {"indirect": 150, "patched": 108,
                                                                        "ident": 104})),
                    self.write(d, "nopv.log", stick_log("nopv", {"nopv": 100}))]
            made = subprocess.run([tool, "--results", d, "--from-console", *logs],
                                  capture_output=True, text=True)
            self.assertIn(made.returncode, (0, 3), made.stderr)
            out = made.stdout.splitlines()[-1]
            self.assertEqual(os.path.dirname(out), d)
            self.assertTrue(os.path.isfile(os.path.join(out, "report.md")))
            again = subprocess.run([tool, "--report", out], capture_output=True, text=True)
            self.assertEqual(again.returncode, made.returncode, again.stderr)
            self.assertEqual(again.stdout.splitlines(), [out])

    def test_a_log_that_does_not_fit_the_plan_is_refused(self):
        registry = {"paravirt": paravirt()}
        with tempfile.TemporaryDirectory() as d:
            for text, why in ((stick_log("nopv", {"nopv": 1}).replace('"steps":3', '"steps":4'), "revision"),
                              (stick_log("nopv", {"nopv": 1}).replace('"build":"nopv"}', '"build":"default"}'),
                               "name kernel builds"),
                              (stick_log("nopv", {"nopv": 1}).replace('"nopv","quick"', '"pv99","quick"'),
                               "no kernel build"),
                              ("just a boot\n", "not a log of /bin/experiment")):
                with self.subTest(why=why), self.assertRaisesRegex(experiments.ExperimentError, why):
                    onboard.results([self.write(d, "x.log", text)], registry)


class SecondBuilds(unittest.TestCase):
    """An experiment's [[build]]: one more rewind boot, its figures a variant of their own."""

    def test_the_build_is_read_and_checked(self):
        self.assertEqual(paravirt().builds, (experiments.Build("nopv", ("PARAVIRT=n",), "nopv"),
                                             experiments.Build("pv30", ("PV_CALLEE_SAVE=y",), "pv30")))
        with tempfile.TemporaryDirectory() as d:
            for text in ('[[build]]\nname = "x"\ndir = "x"\nmake = ["PARAVIRT=n; rm"]\n' + MINIMAL,
                         '[[build]]\nname = "x y"\ndir = "x"\nmake = ["A=1"]\n' + MINIMAL,
                         '[[build]]\nname = "x"\ndir = "x"\nmake = []\n' + MINIMAL):
                with self.assertRaises(experiments.ExperimentError):
                    experiments.load(write_experiment(d, text))

    def test_one_more_boot_from_its_own_tree(self):
        e = paravirt()
        boots = runner.boots(e, with_linux=False)
        self.assertEqual([b.id for b in boots],
                         ["paravirt-rewind", "paravirt-rewind-nopv", "paravirt-rewind-pv30"])
        opts = runner.Options("/src", "/b", "/out", 2, "512M", True, 1, None, False)
        self.assertEqual([b.iso(opts) for b in boots],
                         ["/b/rewind.iso", "/b/nopv/rewind.iso", "/b/pv30/rewind.iso"])

    def test_its_steps_are_one_variant_without_knobs_but_keep_the_profile(self):
        e = paravirt()
        steps = plan.steps(e, quick=True, repeats=1, build="nopv")
        self.assertEqual({s.variant for s in steps}, {"nopv"})
        self.assertEqual(len(steps), len(e.runs))
        self.assertEqual(sum(1 for s in steps if s.profile), 1)
        script = plan.guest_script(e, steps, knobs=False)
        self.assertNotIn("knob paravirt", script)
        self.assertIn("knob profile 997 && /bin/lat_mmap_lite", script)

    def test_ratios_pair_the_two_builds_by_repeat(self):
        def figure(boot, variant, repeat, value):
            return {"type": "figure", "experiment": "paravirt", "kernel": "rewind", "bench": "lat_mmap_lite",
                    "variant": variant, "params": {}, "metric": "lat_mmap_16m_batchmin", "unit": "us",
                    "boot": boot, "repeat": repeat, "value": value, "complete": True}
        rs = [figure("paravirt-rewind", "patched", r, v) for r, v in ((1, 110), (2, 120))]
        rs += [figure("paravirt-rewind-nopv", "nopv", r, v) for r, v in ((1, 100), (2, 100))]
        row = ratios.rows(summary.group_figures(rs), paravirt().ratios[0])[0]
        self.assertAlmostEqual(row.ours, 1.15)
        self.assertEqual((row.low, row.high), (1.1, 1.2))

    def test_a_repeat_with_several_figures_is_its_median(self):
        def figure(variant, repeat, value):
            return {"type": "figure", "experiment": "paravirt", "kernel": "rewind", "bench": "lat_mmap_lite",
                    "variant": variant, "params": {}, "metric": "lat_mmap_16m_batchmin", "unit": "us",
                    "boot": "paravirt-rewind", "repeat": repeat, "value": value, "complete": True}
        # a step printing its metric once per loop: 0 first, then the real figures
        rs = [figure("patched", 1, v) for v in (0, 120, 130)] + [figure("patched", 2, v) for v in (0, 150, 160)]
        rs += [figure("nopv", r, v) for r in (1, 2) for v in (0, 100, 100)]
        row = ratios.rows(summary.group_figures(rs), paravirt().ratios[0])[0]
        self.assertEqual((row.low, row.high), (1.2, 1.5))


class StagedFilesAndMemory(unittest.TestCase):
    """An experiment's stage program and memory (rwsem's xfs_repair and image)."""

    def options(self, out, memory="512M"):
        return runner.Options(top=str(TOP), build="", out=out, cpus=2, memory=memory, quick=True,
                              repeat=1, step_timeout=None, with_linux=False)

    def test_memory_raises_mem_and_never_lowers_it(self):
        boot = runner.boots(rwsem(), with_linux=False)[0]
        self.assertEqual(boot.memory(self.options("")), "2G")
        self.assertEqual(boot.memory(self.options("", "4G")), "4G")
        self.assertEqual(boot.memory(self.options("", "3072")), "3072")
        self.assertEqual(runner.boots(vsyscall(), with_linux=False)[0].memory(self.options("")), "512M")
        with tempfile.TemporaryDirectory() as d:
            for text in ('memory = "2T"\n' + MINIMAL, 'memory = 2\n' + MINIMAL):
                with self.assertRaises(experiments.ExperimentError):
                    experiments.load(write_experiment(d, text))

    def test_stage_fills_the_guest_root_before_it_is_packed(self):
        with tempfile.TemporaryDirectory() as d:
            stage = Path(d, "stage")
            stage.write_text('#!/bin/sh\nmkdir -p "$1/xfs" && echo staged > "$1/xfs/pristine.img"\n')
            stage.chmod(0o755)
            e = dataclasses.replace(vsyscall(), stage=str(stage))
            boot = runner.boots(e, with_linux=False)[0]
            opts = self.options(d)
            command, env, _, _ = runner._stage(boot, boot.id, opts, boot.plan(opts))
            root = Path(d, "guest", boot.id, "root")
            self.assertEqual(Path(root, "xfs", "pristine.img").read_text(), "staged\n")
            listing = subprocess.run(["cpio", "-t"], input=Path(env["INITRD_EXTRA"]).read_bytes(),
                                     capture_output=True, check=True).stdout.decode()
            self.assertIn("xfs/pristine.img", listing)


if __name__ == "__main__":
    unittest.main()
