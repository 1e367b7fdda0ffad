"""usage - a Python tool's usage message is its docstring, as lib/usage.sh
makes a shell tool's its header comment: a "usage: " line for each
synopsis line (an indented line whose first word is the tool's name), then
the docstring. For the tools that read their arguments without argparse,
so that their message begins as argparse's does.

    usage(doc, argv)   argv starting with -h or --help: the message on stdout,
                       exit status 0; otherwise a bad command line: on stderr, 2
"""
import os
import sys


def message(doc):
    tool = os.path.basename(sys.argv[0])
    synopsis = [line.strip() for line in doc.splitlines()
                if line[:1].isspace() and line.split()[:1] == [tool]]
    return "".join(f"usage: {line}\n" for line in synopsis) + "\n" + doc.strip() + "\n"


def usage(doc, argv):
    asked = argv[:1] in (["-h"], ["--help"])
    print(message(doc), end="", file=sys.stdout if asked else sys.stderr)
    sys.exit(0 if asked else 2)
