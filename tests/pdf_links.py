#!/usr/bin/env python3
"""Reads a PDF's links and outline back through `qpdf --json`.

    pdf_links.py FILE.pdf

prints one line per link annotation, "link PAGE -> TARGET NAME", and one per
outline entry, "outline LEVEL TARGET TITLE" (pages from 1; TARGET 0 when the
destination resolves to no page; NAME is the named destination or "-").
Exit 1 when the file cannot be read.  Works for both backends: cairo writes
named destinations, libharu explicit ones."""
import json
import subprocess
import sys


def main(path):
    raw = subprocess.run(["qpdf", "--json=2", "--json-key=qpdf", path], capture_output=True, check=True)
    objs = json.loads(raw.stdout)["qpdf"][1]

    def get(ref):
        while isinstance(ref, str) and ref.endswith(" R"):
            ref = objs.get("obj:" + ref, {}).get("value")
        return ref

    trailer = objs["trailer"]["value"]
    catalog = get(trailer["/Root"])
    pages = []

    def walk(node_ref):
        node = get(node_ref)
        if node.get("/Type") == "/Pages":
            for kid in node["/Kids"]:
                walk(kid)
        else:
            pages.append(node_ref)

    walk(catalog["/Pages"])
    page_no = {ref: i + 1 for i, ref in enumerate(pages)}

    names = {}

    def walk_names(node_ref):
        node = get(node_ref)
        for kid in node.get("/Kids", []):
            walk_names(kid)
        arr = node.get("/Names", [])
        for i in range(0, len(arr), 2):
            key = arr[i]
            key = key[2:] if key.startswith("u:") else key
            names[key] = get(arr[i + 1])

    tree = get(catalog.get("/Names"))
    if isinstance(tree, dict) and "/Dests" in tree:
        walk_names(tree["/Dests"])
    old = get(catalog.get("/Dests"))
    if isinstance(old, dict):
        for k, v in old.items():
            names[k[1:]] = get(v)

    def target(dest):
        dest = get(dest)
        name = "-"
        if isinstance(dest, str):
            name = dest[2:] if dest.startswith("u:") else dest
            dest = names.get(name)
        if isinstance(dest, dict):
            dest = get(dest.get("/D"))
        if isinstance(dest, list) and dest:
            return page_no.get(dest[0], 0), name
        return 0, name

    for i, ref in enumerate(pages):
        for a in get(get(ref).get("/Annots")) or []:
            a = get(a)
            if a.get("/Subtype") != "/Link":
                continue
            d = a.get("/Dest")
            if d is None and isinstance(get(a.get("/A")), dict):
                d = get(a["/A"]).get("/D")
            p, name = target(d)
            print("link %d -> %d %s" % (i + 1, p, name))

    def walk_outline(ref, level):
        while ref:
            item = get(ref)
            title = item.get("/Title", "")
            title = title[2:] if title.startswith("u:") else title
            d = item.get("/Dest")
            if d is None and isinstance(get(item.get("/A")), dict):
                d = get(item["/A"]).get("/D")
            p, _ = target(d)
            print("outline %d %d %s" % (level, p, title))
            if "/First" in item:
                walk_outline(item["/First"], level + 1)
            ref = item.get("/Next")

    outlines = get(catalog.get("/Outlines"))
    if isinstance(outlines, dict) and "/First" in outlines:
        walk_outline(outlines["/First"], 0)


if __name__ == "__main__":
    try:
        main(sys.argv[1])
    except Exception as e:  # a file we cannot read is a failed test
        print("pdf_links: %s: %s" % (sys.argv[1], e), file=sys.stderr)
        sys.exit(1)
