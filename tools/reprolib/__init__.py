"""reprolib - tools/reproduce's library, one concept per module:

    experiments  the registry: experiments/*.toml, read and checked
    plan         one boot's steps (interleaved variants) and its guest script
    runner       boots the guests, follows their consoles, makes records
    console      reads a console log (for every harness, too): escapes, the run= framing,
                 step markers, @result and @meta lines and their exact form, guest facts
    records      results.jsonl
    machine      the host's facts about where a run happened
    progress     the line on the terminal
    summary      medians, spreads, summary.csv
    intervals    the interval of a ratio over repeats (min-max or bootstrap)
    ratios       our ratios beside the seeds', and the verdicts
    controls     the ratios that must hold for verdicts to mean anything
    modes        repeats sorted into two modes by a test ratio, "k of N" and a median per mode
    load         the host's load over boots and steps
    compare      two results directories figure by figure (--compare)
    numbers      figures for people: never in scientific notation
    plots        gnuplot bars and lines, PNG, SVG and PDF
    report       report.md
    outputs      results.jsonl -> summary.csv, plots/, report.md
    profile      /proc/profile -> samples kept by filters, flat profile with callers, collapsed stacks
    flamegraph   collapsed stacks -> an SVG flame graph to search and zoom in, or a differential one
    profile_diff two profiles -> each frame's and function's change in share
    usage        a hand-parsing tool's usage message from its docstring
"""
