"""test_doc_paths - every repository path that a comment or a document
names exists, no file cites documents that live outside the repository,
and a file that names a seed ("seed 002") names docs/seeds.md first, where
each seed has its section: a fresh clone must explain itself, and a renamed
file must not leave its old name behind in the prose.

A path is a word that starts with a top-level folder of the repository
(kernel/x86/entry.c, docs/seeds.md, tools/reproduce). Not checked, since
they name no file of this tree: globs and patterns (fs/unix_*.c,
tests/unit/test_<thing>.c), placeholders in capitals
(experiments/NAME.toml), parts of longer paths (build/user/bin/...,
$tests/...), files of Linux's own tree (a path with "Linux" just before it:
"Linux's mm/filemap.c"), and words that only look like paths, such as a
commit subject's "locking/rwsem:". A path without an extension is checked
only under tools/ or when it has three or more parts, and a benchmark named
by its program (user/bench/fstime) resolves to its source (.c).

    python3 -m unittest discover -s tests/tools     (or tests/tools/run-checks)
"""
import os
import re
import unittest
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent.parent
TOP_FOLDERS = ("kernel", "fs", "mm", "docs", "tools", "user", "tests", "drivers", "locking", "uapi",
               "boot", "experiments")
# Not the project's prose: build outputs, recorded console logs and fuzz inputs (data, not text).
SKIPPED_DIRS = {".git", "build", "results", os.path.join("tests", "tools", "logs"),
                os.path.join("tests", "fuzz", "corpus")}

PATH = re.compile(r"(?<![\w./$-])((?:%s)/[\w./-]*\w/?)" % "|".join(TOP_FOLDERS))
PATTERN_NEXT = "*<%{$["		# right after a path, these make it a glob or a pattern
PLACEHOLDER = re.compile(r"(?<![a-z])[A-Z]{3,}(?![a-z])")
UPPER_FILES = re.compile(r"README|Makefile|LICENSE")
LINUX_CONTEXT = 60		# characters before a path searched for "Linux"
LINE_START = re.compile(r"[\s*#/(`]*$")	# a comment's or paragraph's continuation: look one line up
SOURCE_OF_PROGRAM = (".c", ".asm", ".sh")

SEEDS = Path("docs") / "seeds.md"
SEED = re.compile(r"\bseed (\d{3})\b", re.IGNORECASE)

# Built from pieces, so that this file does not cite them itself.
OUTSIDE_CITATIONS = re.compile("DESIGN" + r"\.md §|linux-" + "facts §")


def text_files():
    for root, dirs, files in os.walk(TOP):
        rel_root = os.path.relpath(root, TOP)
        dirs[:] = sorted(d for d in dirs if os.path.normpath(os.path.join(rel_root, d)) not in SKIPPED_DIRS)
        for name in sorted(files):
            path = Path(root) / name
            if path == Path(__file__).resolve():
                continue		# its own examples name missing files on purpose
            try:
                yield path.relative_to(TOP), path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue		# binary: no prose to check


def is_checked(path):
    """Whether a word that looks like a path is meant as one of this tree."""
    if PLACEHOLDER.search(UPPER_FILES.sub("", path)):
        return False
    last = path.rstrip("/").rsplit("/", 1)[-1]
    if "." in last or path.endswith("/"):
        return True
    return path.startswith("tools/") or path.count("/") >= 2


def resolves(path):
    if (TOP / path).exists():
        return True
    return "." not in path.rsplit("/", 1)[-1] and any((TOP / (path + ext)).exists()
                                                        for ext in SOURCE_OF_PROGRAM)


def dangling_paths(text):
    """(line number, path) of each path in text that names no file here."""
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        before = lines[number - 2] if number > 1 else ""
        for m in PATH.finditer(line):
            path = m.group(1)
            after = line[m.end():m.end() + 1]
            if after and after in PATTERN_NEXT or not is_checked(path):
                continue
            context = line[:m.start()]
            if LINE_START.match(context):
                context = before + " " + context
            context = context[-LINUX_CONTEXT:]
            if "Linux" in context or resolves(path):
                continue
            yield number, path


def seeds_without_their_page(name, text):
    """(line number, seed) where a file first names a seed before naming
    docs/seeds.md, the page that tells it: "seed 002" alone means nothing
    to a reader of one file."""
    for number, line in enumerate(text.splitlines(), 1):
        if "seeds.md" in line:
            return
        m = SEED.search(line)
        if m:
            yield number, m.group(1)
            return


class DocPaths(unittest.TestCase):
    def test_every_named_repository_path_exists(self):
        missing = [f"{name}:{number}: {path} does not exist"
                   for name, text in text_files() for number, path in dangling_paths(text)]
        self.assertEqual(missing, [], "\n" + "\n".join(missing))

    def test_no_citation_of_documents_outside_the_repository(self):
        found = [f"{name}:{number}: {m.group(0)!r} names a document outside the repository"
                 for name, text in text_files()
                 for number, line in enumerate(text.splitlines(), 1)
                 for m in OUTSIDE_CITATIONS.finditer(line)]
        self.assertEqual(found, [], "\n" + "\n".join(found))

    def test_every_seed_is_cited_with_its_page(self):
        headings = set(re.findall(r"^## Seed (\d{3})$", (TOP / SEEDS).read_text(), re.MULTILINE))
        unknown, unexplained = [], []
        for name, text in text_files():
            if name == SEEDS:
                continue
            unknown += [f"{name}: seed {seed} has no section in {SEEDS}"
                        for seed in sorted(set(SEED.findall(text)) - headings)]
            unexplained += [f"{name}:{number}: seed {seed} is named before {SEEDS} is"
                            for number, seed in seeds_without_their_page(name, text)]
        self.assertEqual(unknown + unexplained, [], "\n" + "\n".join(unknown + unexplained))

    def test_the_checker_sees_what_it_should(self):
        text = ("see docs/seeds.md and docs/no-such-page.md\n"
                "fs/unix_*.c, experiments/NAME.toml, build/user/bin/x.c\n"
                "user/bench/fstime tools/no-such-tool\n"
                "Linux's mm/no_such_file.c; \"locking/rwsem: Support optimistic spinning\"\n")
        self.assertEqual(list(dangling_paths(text)),
                         [(1, "docs/no-such-page.md"), (3, "tools/no-such-tool")])
        self.assertEqual(list(seeds_without_their_page("a", "x\nas seed 002 showed\n")), [(2, "002")])
        self.assertEqual(list(seeds_without_their_page("a", "docs/seeds.md (seed 002)\n")), [])


if __name__ == "__main__":
    unittest.main()
