"""test_lmbench_table - host tests of tools/lmbench-table, the lmbench table of
docs/real-programs.md made from the console logs of interleaved boots: each
lmbench output shape read, medians over the boots, the direction of "faster"
for latencies and bandwidths, a program that printed nothing, a log without
lmbench in it.

    python3 -m unittest discover -s tests/tools     (or tests/tools/run-checks)
"""
import subprocess
import tempfile
import unittest
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent.parent
TOOL = TOP / "tools" / "lmbench-table"


def log(read_us, mem_mbs, prot=True):
    """One boot's lmbench.sh output, three programs' shapes and lat_fs's."""
    return (f"== /lmb/lat_syscall read\nSimple read: {read_us} microseconds\n-- status 0\n"
            "== /lmb/lat_sig prot /tmp/XXX\n"
            + ("Protection fault: 5.5 microseconds\n" if prot else "") + "-- status 0\n"
            "== /lmb/lat_ctx -s 0 2 4\n\n\"size=0k ovr=9.19\n2 81.13\n4 115.37\n-- status 0\n"
            "== /lmb/lat_fs /tmp\n0k\t500\t56274\t169859\n-- status 0\n"
            f"== /lmb/bw_mem 8m rd\n8.39 {mem_mbs}\n-- status 0\n== done\n")


class Table(unittest.TestCase):
    def run_tool(self, rewind, linux):
        with tempfile.TemporaryDirectory() as tmp:
            paths = {}
            for kernel, texts in (("rewind", rewind), ("linux", linux)):
                paths[kernel] = []
                for i, text in enumerate(texts):
                    p = Path(tmp) / f"{kernel}-{i}.txt"
                    p.write_text(text)
                    paths[kernel].append(str(p))
            return subprocess.run([str(TOOL), "--rewind", *paths["rewind"], "--linux", *paths["linux"]],
                                  capture_output=True, text=True, timeout=30)

    def rows(self, result):
        self.assertEqual(result.returncode, 0, result.stderr)
        return {cells[0]: cells[1:] for cells in
                ([c.strip() for c in line.strip("|").split("|")] for line in result.stdout.splitlines()[2:])}

    def test_medians_ranges_and_the_faster_kernel(self):
        rows = self.rows(self.run_tool([log(1.0, 2000), log(3.0, 9000), log(2.0, 4000)],
                                       [log(4.0, 3000), log(5.0, 3500), log(6.0, 1000)]))
        self.assertEqual(rows["lat_syscall read"], ["2 (1-3)", "5 (4-6)", "0.40", "rewind"])
        # a bandwidth: more is faster
        self.assertEqual(rows["bw_mem 8m rd"], ["4000 (2000-9000)", "3000 (1000-3500)", "1.33", "rewind"])

    def test_every_output_shape_is_read(self):
        rows = self.rows(self.run_tool([log(1.0, 100)], [log(1.0, 100)]))
        self.assertEqual(rows["lat_ctx -s 0 2 4 (2)"][0], "81.1")
        self.assertEqual(rows["lat_ctx -s 0 2 4 (4)"][0], "115")
        self.assertEqual(rows["lat_fs /tmp (0k created/s)"][0], "56274")
        self.assertEqual(rows["lat_fs /tmp (0k deleted/s)"][0], "169859")
        self.assertEqual(rows["lat_sig prot /tmp/XXX"], ["5.5", "5.5", "1.00", "same"])

    def test_a_program_that_printed_nothing_has_no_ratio(self):
        rows = self.rows(self.run_tool([log(1.0, 100, prot=False)], [log(1.0, 100)]))
        self.assertEqual(rows["lat_sig prot /tmp/XXX"], ["-", "5.5", "-", "-"])

    def test_a_log_without_lmbench_fails(self):
        result = self.run_tool(["the guest did not boot\n"], [log(1.0, 100)])
        self.assertEqual(result.returncode, 1)
        self.assertIn("holds no lmbench program", result.stderr)
