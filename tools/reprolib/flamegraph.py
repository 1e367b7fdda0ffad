"""flamegraph - draws collapsed stacks (profile.counts_of) as an SVG flame
graph, with no external tool and nothing fetched when it is viewed:

    svg(counts, title, subtitle)           each frame in a stable warm colour per name
    svg(counts, ..., change=CHANGES)       a differential graph: each frame coloured by
                                           how its share moved (profile_diff.frame_changes),
                                           red grew, blue shrank, grey stayed
    write_flamegraph(text, path, title)    what `make reproduce` calls for its report

Opened in a browser the graph is interactive, by the plain script at the end
of this file embedded in it: a search box that highlights the frames whose
name matches a regular expression and shows the share of samples under
them, and a click on a frame that zooms on it (its ancestors span the
width, "Reset zoom" or a click on "all" goes back). Drawn without the
script (an image viewer), it is the full graph.
"""
import html

from . import profile

FRAME_H = 16
PAD = 10
TOP = 76	# the title, the subtitle and the row of controls above the frames
CHAR_W = 7	# pixels per character of the 11 px monospace labels
SEARCH_FILL = "rgb(230,0,230)"


def _tree(counts):
    """counts of root-first ';' stacks -> [samples, {name: subtree}] under "all"."""
    root = [0, {}]
    for stack, n in counts.items():
        root[0] += n
        node = root
        for name in stack.split(";"):
            node = node[1].setdefault(name, [0, {}])
            node[0] += n
    return root


def _depth(node):
    return 1 + max((_depth(child) for child in node[1].values()), default=0)


def name_colour(name):
    """A stable warm colour per name (FlameGraph's palette idea); user mode in blue."""
    if name == profile.USER_ROOT:
        return "rgb(120,170,220)"
    h = 0
    for ch in name:
        h = (h * 31 + ord(ch)) & 0xffffffff
    return f"rgb({205 + h % 50},{80 + (h >> 8) % 130},{(h >> 16) % 60})"


def change_colour(change, biggest):
    """Grey for no change, to full red (grew) or blue (shrank) at the biggest change drawn."""
    strength = min(abs(change) / biggest, 1.0) if biggest else 0.0
    far, near = round(235 - 195 * strength), round(235 + 20 * strength)
    return f"rgb({near},{far},{far})" if change > 0 else f"rgb({far},{far},{near})"


def label(name, width):
    """What fits in width pixels: the name, cut with "..", or nothing."""
    chars = int((width - 6) / CHAR_W)
    if chars < 3:
        return ""
    return name if len(name) <= chars else name[:chars - 2] + ".."


def svg(counts, title="rewind profile", subtitle="", change=None, width=1200):
    """counts: Counter of root-first ';' stacks -> the SVG text. change: {root-first
    tuple of names: change in share, in points} for a differential graph."""
    root = _tree(counts)
    total = root[0]
    height = TOP + _depth(root) * FRAME_H + PAD
    scale = (width - 2 * PAD) / (total or 1)
    biggest = max((abs(c) for c in (change or {}).values()), default=0.0)
    frames = []

    def draw(name, node, path, offset, depth):
        x, w = PAD + offset * scale, node[0] * scale
        y = height - PAD - (depth + 1) * FRAME_H
        share = f"{node[0]} samples, {100 * node[0] / (total or 1):.2f}%"
        if change is None:
            fill = name_colour(name)
        else:
            moved = change.get(path, 0.0)
            fill = change_colour(moved, biggest)
            share += f", {moved:+.2f} points"
        tip = html.escape(f"{name} ({share})")
        frames.append(f'<g class="f" data-n="{html.escape(name)}" data-x="{offset}" '
                      f'data-s="{node[0]}" data-d="{depth}"><title>{tip}</title>'
                      f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{FRAME_H - 1}" '
                      f'fill="{fill}" rx="2"/><text x="{x + 3:.1f}" y="{y + FRAME_H - 4}">'
                      f"{html.escape(label(name, w))}</text></g>")
        for child, sub in sorted(node[1].items()):
            draw(child, sub, path + (child,), offset, depth + 1)
            offset += sub[0]

    draw("all", root, (), 0, 0)
    return (f'<?xml version="1.0" standalone="no"?>\n'
            f'<svg version="1.1" xmlns="http://www.w3.org/2000/svg" width="{width}" '
            f'height="{height}" viewBox="0 0 {width} {height}" data-total="{total}" '
            f'data-pad="{PAD}" data-char="{CHAR_W}" data-search-fill="{SEARCH_FILL}">\n'
            f'<style>text {{ font-family: monospace; font-size: 11px; fill: #000; }}'
            f' .title {{ font-size: 16px; }} g.f, #unzoom {{ cursor: pointer; }}'
            f' #unzoom {{ fill: #226; text-decoration: underline; }}</style>\n'
            f'<rect width="100%" height="100%" fill="#fdfdf5"/>\n'
            f'<text class="title" x="{width / 2}" y="22" text-anchor="middle">'
            f'{html.escape(title)} - {total} samples</text>\n'
            f'<text x="{width / 2}" y="40" text-anchor="middle">{html.escape(subtitle)}</text>\n'
            f'<foreignObject x="{PAD}" y="48" width="300" height="24">'
            f'<input xmlns="http://www.w3.org/1999/xhtml" id="search" type="text" '
            f'placeholder="search: a regular expression" style="width: 280px"/></foreignObject>\n'
            f'<text id="unzoom" x="{PAD + 310}" y="64">Reset zoom</text>\n'
            f'<text id="matched" x="{width - PAD}" y="64" text-anchor="end"></text>\n'
            + "\n".join(frames)
            + f"\n<script type=\"text/ecmascript\"><![CDATA[{SCRIPT}]]></script>\n</svg>\n")


def write_flamegraph(profile_text, path, title="rewind profile", user_binary=None,
                     kernel_only=False):
    """For `make reproduce`: the flame graph of a /proc/profile text (or a console log
    holding one) into path. Returns the number of samples drawn; ProfileError if none."""
    p = profile.parse(profile_text)
    lookup = profile.user_symbols(user_binary) if user_binary else None
    counts = profile.collapsed_counts(p, lookup, profile.Filter(kernel_only=kernel_only))
    if not counts:
        raise profile.ProfileError("the profile holds no samples")
    with open(path, "w") as f:
        f.write(svg(counts, title))
    return sum(counts.values())


# The graph's behaviour in a browser. Each frame's <g> carries its name (data-n),
# its first sample's offset (data-x), its samples (data-s) and its depth
# (data-d), so that zooming and searching work in samples, not in pixels.
SCRIPT = r"""
(function () {
	"use strict";
	var svg = document.documentElement;
	var total = Number(svg.getAttribute("data-total"));
	var pad = Number(svg.getAttribute("data-pad"));
	var charWidth = Number(svg.getAttribute("data-char"));
	var searchFill = svg.getAttribute("data-search-fill");
	var span = Number(svg.getAttribute("width")) - 2 * pad;
	var frames = Array.prototype.slice.call(document.querySelectorAll("g.f"));
	var search = document.getElementById("search");
	var matched = document.getElementById("matched");

	function num(g, key) {
		return Number(g.getAttribute("data-" + key));
	}

	function label(name, width) {
		var chars = Math.floor((width - 6) / charWidth);
		if (chars < 3)
			return "";
		return name.length <= chars ? name : name.slice(0, chars - 2) + "..";
	}

	function place(g, x, width) {
		var rect = g.querySelector("rect"), text = g.querySelector("text");
		rect.setAttribute("x", x.toFixed(1));
		rect.setAttribute("width", width.toFixed(1));
		text.setAttribute("x", (x + 3).toFixed(1));
		text.textContent = label(g.getAttribute("data-n"), width);
		g.style.display = "";
	}

	/* Frames at one depth never overlap: the one below g that covers g's
	   samples is its ancestor, those above g inside them its descendants. */
	function zoom(g) {
		var x0 = num(g, "x"), n0 = num(g, "s"), d0 = num(g, "d");
		frames.forEach(function (f) {
			var x = num(f, "x"), n = num(f, "s"), d = num(f, "d");
			if (d < d0 && x <= x0 && x + n >= x0 + n0)
				place(f, pad, span);
			else if (d >= d0 && x >= x0 && x + n <= x0 + n0)
				place(f, pad + (x - x0) / n0 * span, n / n0 * span);
			else
				f.style.display = "none";
		});
	}

	/* The samples under any of the spans [first, end), a match inside a match counted once. */
	function covered(spans) {
		var samples = 0, end = 0;
		spans.sort(function (a, b) { return a[0] - b[0]; });
		spans.forEach(function (s) {
			if (s[1] > end) {
				samples += s[1] - Math.max(s[0], end);
				end = s[1];
			}
		});
		return samples;
	}

	function highlight() {
		var re = null, spans = [];
		search.style.background = "";
		try {
			re = search.value ? new RegExp(search.value) : null;
		} catch (e) {
			search.style.background = "#fcc";
		}
		frames.forEach(function (f) {
			var hit = re !== null && re.test(f.getAttribute("data-n"));
			f.querySelector("rect").style.fill = hit ? searchFill : "";
			if (hit)
				spans.push([num(f, "x"), num(f, "x") + num(f, "s")]);
		});
		if (re === null) {
			matched.textContent = "";
			return;
		}
		var n = covered(spans);
		matched.textContent = "Matched: " + (total ? 100 * n / total : 0).toFixed(2) +
			"% (" + n + " of " + total + " samples)";
	}

	frames.forEach(function (f) {
		f.addEventListener("click", function () { zoom(f); });
	});
	document.getElementById("unzoom").addEventListener("click", function () { zoom(frames[0]); });
	search.addEventListener("input", highlight);
})();
"""
