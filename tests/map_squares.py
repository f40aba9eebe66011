#!/usr/bin/env python3
"""Reads the size of a 10-ft square of every map in a PDF from its scale bar.

    map_squares.py FILE.pdf

prints one line per scale bar found, "PAGE SQUARE_MM", pages from 1.  A map's
scale bar is five squares long, "0" under its left end and "50 ft" under its
right, "1 square = 10 ft" above it (layout/symbols.c): the square is the
distance between the centres of the two labels over five.  Uses pdftotext
-bbox (poppler); exit 1 when the file cannot be read."""
import re
import subprocess
import sys
from html import unescape

PT_MM = 25.4 / 72


def words_by_page(path):
    out = subprocess.run(["pdftotext", "-bbox", path, "-"], capture_output=True, check=True, text=True).stdout
    pages = []
    for chunk in out.split("<page ")[1:]:
        words = []
        for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>',
                             chunk):
            x0, y0, x1, y1 = (float(m.group(i)) for i in range(1, 5))
            words.append((x0, y0, x1, y1, unescape(m.group(5))))
        pages.append(words)
    return pages


def same_line(a, b):
    return abs((a[1] + a[3]) / 2 - (b[1] + b[3]) / 2) < 0.6 * (a[3] - a[1])


def scale_bars(words):
    """The squares (points) of the scale bars among @words."""
    found = []
    for i, w in enumerate(words):
        if w[4] != "square":
            continue
        # "50" then "ft" on one line below "square", the nearest such.
        below = [v for v in words if v[4] == "50" and v[1] > w[3] and v[1] - w[3] < 4 * (w[3] - w[1])]
        for fifty in sorted(below, key=lambda v: v[1] - w[3] + abs(v[0] - w[0])):
            ft = [v for v in words if v[4] == "ft" and same_line(v, fifty) and 0 <= v[0] - fifty[2] < 8]
            zero = [v for v in words if v[4] == "0" and same_line(v, fifty) and 0 < fifty[0] - v[2]]
            if not ft or not zero:
                continue
            z = max(zero, key=lambda v: v[0])
            right = (fifty[0] + min(ft, key=lambda v: v[0])[2]) / 2
            left = (z[0] + z[2]) / 2
            found.append((right - left) / 5)
            break
    return found


def main(path):
    try:
        pages = words_by_page(path)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"map_squares.py: {path}: {e}", file=sys.stderr)
        return 1
    for p, words in enumerate(pages, 1):
        for s in scale_bars(words):
            print(f"{p} {s * PT_MM:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]) if len(sys.argv) == 2 else 2)
