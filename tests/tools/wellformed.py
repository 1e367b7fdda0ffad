"""wellformed - checks that a results directory of tools/reproduce holds
every file it should, each well formed: results.jsonl, summary.csv,
report.md and the plots the report shows. Used by the host tests (on
directories made from recorded console logs) and by the quick end-to-end run
in `make test`. It checks form, never figures (docs/design.md, "Tests assert
mechanisms, not figures").
"""
import csv
import json
import math
import os
import re
import xml.etree.ElementTree as ET

FIGURE_KEYS = {"experiment", "kernel", "boot", "step", "program", "variant", "knobs", "repeat",
               "params", "bench", "metric", "value", "unit", "complete", "machine"}
CSV_HEADER = ["experiment", "kernel", "bench", "variant", "params", "metric", "unit",
              "n", "median", "min", "max", "spread_pct", "complete",
              "repeats_planned", "repeats_failed", "repeats_missing"]


def _jsonl(path):
    problems, records = [], []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            try:
                records.append(json.loads(line))
            except ValueError:
                problems.append(f"results.jsonl line {number} is not JSON")
    if not records or records[0].get("type") != "run":
        problems.append("results.jsonl does not begin with the run record")
    boots = {r["boot"] for r in records if r.get("type") == "boot"}
    if not boots:
        problems.append("results.jsonl has no boot record")
    for r in (r for r in records if r.get("type") == "figure"):
        missing = FIGURE_KEYS - set(r)
        value = r.get("value")
        if missing or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or r["boot"] not in boots:
            problems.append(f"bad figure record: {sorted(missing) or r}")
            break
    return problems, records


def _csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows or rows[0] != CSV_HEADER:
        return ["summary.csv has the wrong header"]
    for row in rows[1:]:
        try:
            n, median, low, high = int(row[7]), float(row[8]), float(row[9]), float(row[10])
            ok = len(row) == len(CSV_HEADER) and n >= 1 and low <= median <= high and row[12] in ("yes", "no")
        except (ValueError, IndexError):
            ok = False
        if not ok:
            return [f"bad summary.csv row: {row}"]
    return []


def _report(directory, experiments):
    with open(os.path.join(directory, "report.md")) as f:
        text = f.read()
    problems = []
    if not text.startswith("# rewind"):
        problems.append("report.md lacks its title")
    for name in experiments:
        if not re.search(rf"^## {re.escape(name)}: ", text, re.M):
            problems.append(f"report.md lacks the section of {name}")
    if experiments and "### Against the seed" not in text:
        problems.append("report.md lacks the seed comparison")
    for image in re.findall(r"\]\((plots/[^)]+\.png)\)", text):
        with open(os.path.join(directory, image), "rb") as f:
            if f.read(8) != b"\x89PNG\r\n\x1a\n":
                problems.append(f"{image} is not a PNG")
        try:
            ET.parse(os.path.join(directory, image[:-4] + ".svg"))
        except (OSError, ET.ParseError) as e:
            problems.append(f"{image[:-4]}.svg: {e}")
        pdf = os.path.join(directory, image[:-4] + ".pdf")
        if not os.path.isfile(pdf) or open(pdf, "rb").read(5) != b"%PDF-":
            problems.append(f"{image[:-4]}.pdf is missing or not a PDF")
    return problems


def check(directory):
    """The problems of a results directory; empty when it is well formed."""
    names = ["results.jsonl", "summary.csv", "report.md", "plots"]
    missing = [n for n in names if not os.path.exists(os.path.join(directory, n))]
    if missing:
        return [f"missing {', '.join(missing)}"]
    problems, records = _jsonl(os.path.join(directory, "results.jsonl"))
    run = records[0] if records else {}
    return problems + _csv(os.path.join(directory, "summary.csv")) + \
        _report(directory, run.get("experiments", []))
