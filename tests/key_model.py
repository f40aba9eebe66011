#!/usr/bin/env python3
"""The key is the model: every exit, door, stair and tunnel that a booklet's
key prints, read back from the PDF text, against the dungeon's JSON.

    tests/key_model.py BIN N [SEED] [--keep DIR]
    tests/key_model.py BIN SEED,SEED,... [--keep DIR]

makes the dungeons SEED-1 … SEED-N (mixed node methods, 3x3) as JSON and as
PDF booklets with BIN (a batch, both cores), or the seeds named, reads every node's key from the
PDF with pdftotext (the prose entries from the text in reading order, the
room table's Exits column from the words' positions) and compares, area by
area:

  - the exits (passage ends at the area): the side they leave by, where they
    lead (an area, a dead end, a tunnel to another node's area, the way
    out, collapsed beyond, back into the area itself), whether a door stands
    at this end and at the far end (secret or not in the prose, the kind in
    the room table), and whether the passage is collapsed;
  - the stairs and ladders of the area (links without a side) and where
    they lead.

Prints every difference and the totals; exits 1 if there is any.
"""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SIDES = ("north", "east", "south", "west")
TITLES = r"(Room|Intersection|Stairs up|Stairs down|Ladder up|Ladder down|Trap door)"
NUMBERS = {"twice": 2, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


# --- the model ----------------------------------------------------------------

def edge_sides(node, at):
    """The map sides an exit square lies on (two at a corner)."""
    x, y = at
    sides = set()
    if y == 0:
        sides.add("north")
    if y == node["height"] - 1:
        sides.add("south")
    if x == 0:
        sides.add("west")
    if x == node["width"] - 1:
        sides.add("east")
    return sides


def area_side(area, cell):
    """The wall of @area a passage end at @cell leaves by; None when the cell
    lies inside it (stairs in the middle of the floor)."""
    x, y = int(cell[0]), int(cell[1])
    ax, ay, w, h = area["x"], area["y"], area["w"], area["h"]
    if ax <= x < ax + w and ay <= y < ay + h:
        return None
    if y < ay:
        return "north"
    if y >= ay + h:
        return "south"
    if x < ax:
        return "west"
    return "east"


def door_of(node, key, passage, cell):
    """The door of @passage in @key's wall at the passage's end square
    @cell, else the last of that area and passage, else None."""
    found = None
    for d in node["doors"]:
        if d["area"] == key and d["passage"] == passage:
            if d["cell"] == [int(cell[0]), int(cell[1])]:
                return d
            found = d
    return found


def model_exits(md, node):
    """{area key: [exit tuple]}: (side, dest, near door kind, far door kind, collapsed)."""
    verts = node["graph"]["vertices"]
    areas = {a["key"]: a for a in node["areas"]}
    out = collections.defaultdict(list)
    for i, p in enumerate(node["passages"]):
        for end in (0, 1):
            v = verts[p["from"] if end == 0 else p["to"]]
            o = verts[p["to"] if end == 0 else p["from"]]
            if v["kind"] != "area" or (end == 1 and p["from"] == p["to"]):
                continue
            key = v["area"]
            here_cell, far_cell = p["path"][0 if end == 0 else -1], p["path"][-1 if end == 0 else 0]
            side = area_side(areas[key], here_cell)
            near = door_of(node, key, i, here_cell)
            far = None
            if o["kind"] == "area":
                far = door_of(node, o["area"], i, far_cell)
                if far is near:
                    far = None
                dest = ("loop",) if p["from"] == p["to"] else ("area", str(o["area"]))
            elif o["kind"] == "dead-end":
                dest = ("dead",)
            else:
                dest = ("collapsed",)
                es = edge_sides(node, o["at"])
                if len(es) > 1:   # a corner: the side no other exit of the area leaves by alone
                    alone = set()
                    for q in node["passages"]:
                        ends = [verts[q["from"]], verts[q["to"]]]
                        for x, y in (ends, ends[::-1]):
                            if x.get("area") == key and y["kind"] == "exit" and y is not o:
                                ys = edge_sides(node, y["at"])
                                if len(ys) == 1:
                                    alone |= ys
                    es = (es - alone) or es
                for ln in node["links"]:
                    if ln["area"] == key and ln.get("side") in es:
                        if ln["kind"] == "entrance":
                            dest = ("out",)
                        else:
                            dest = ("tunnel", "%s-%d" % (ln["to"]["node"], ln["to"]["area"]))
            out[key].append((side, dest, near and near["kind"], far and far["kind"], p["kind"] == "blocked"))
    return out


def model_stairs(md, node):
    """{area key: [(kind, target)]} for links without a side."""
    out = collections.defaultdict(list)
    for ln in node["links"]:
        if "side" in ln or ln["kind"] == "entrance":
            continue
        if ln["to"] is None:
            target = "the surface" if ln["exit"] == "surface" else "below"
        else:
            target = "%s-%d" % (ln["to"]["node"], ln["to"]["area"])
        out[ln["area"]].append((ln["kind"], target))
    return out


# --- the prose ----------------------------------------------------------------

def node_sections(text):
    """{node id: the text of its key} from the whole booklet's text."""
    lines = [ln.replace("\f", "") for ln in text.split("\n")]
    # The page furniture: the footer "node A, The Lower Kennels · level 1"
    # with the page number on a line before it or at its start.
    keep = []
    for line in lines:
        if re.match(r"^(\d+ )?node [A-Z]+, .* · level \d+( \d+)?$", line):
            if keep and re.match(r"^\d+$", keep[-1]):
                keep.pop()
            continue
        keep.append(line)
    sections, cur, buf = {}, None, []
    for line in keep:
        m = re.match(r"^Key to node ([A-Z]+)( \(continued\))?", line)
        if m:
            if not m.group(2):
                if cur:
                    sections[cur] = " ".join(buf)
                cur, buf = m.group(1), []
            continue
        if cur is not None:
            buf.append(line)
            if re.match(r"^\d+ areas · \d+ passages", line):   # the node's figures close its key
                sections[cur] = " ".join(buf)
                cur, buf = None, []
    if cur:
        sections[cur] = " ".join(buf)
    return sections


def prose_entries(section):
    """{area key: entry text} of a node's key section (after its table)."""
    found = [(m.start(), int(m.group(1))) for m in
             re.finditer(r"(?:^|(?<=[\s.]))(\d+)\. " + TITLES + r"\b", section)]
    out, last = {}, 0
    chosen = []
    for pos, k in found:
        if k > last:
            chosen.append((pos, k))
            last = k
    for j, (pos, k) in enumerate(chosen):
        end = chosen[j + 1][0] if j + 1 < len(chosen) else len(section)
        out[k] = section[pos:end]
    return out


def clause_dest(rest):
    """(dest, far door, collapsed) of the words after the near door."""
    collapsed = rest.startswith("a collapsed passage")
    m = re.search(r"the long tunnel to node ([A-Z]+-\d+) \(", rest)
    if m:
        return ("tunnel", m.group(1)), None, collapsed
    if "the way out" in rest:
        return ("out",), None, collapsed
    if "ends in rock" in rest:
        return ("dead",), None, collapsed
    if "leaves the map and is collapsed beyond" in rest:
        return ("collapsed",), None, collapsed
    m = re.search(r"loops back here, coming in from the (\w+)(?: through (.*))?$", rest)
    if m:
        far = None if not m.group(2) else ("secret" if m.group(2) == "a secret door" else "door")
        return ("loop",), far, collapsed
    m = re.search(r"\) to (.*) into (\d+)(?: on level \d+)?$", rest)
    if m:
        return ("area", m.group(2)), "secret" if m.group(1) == "a secret door" else "door", collapsed
    m = re.search(r" to (\d+)(?: on level \d+)?$", rest)
    if m:
        return ("area", m.group(1)), None, collapsed
    return ("?", rest), None, collapsed


DEST_STARTS = ("a passage", "a collapsed passage", "the long tunnel", "the way out", "two passages",
               "three passages", "four passages", "five passages", "six passages")


def prose_exits(entry):
    """[exit tuple] of an entry, with door kinds as 'secret' or 'door'."""
    m = re.search(r"Exits — (.*?)\.(?:\s|$)", entry)
    if not m:
        return []
    out = []
    for clause in re.split(r"; (?=(?:north|south|east|west)[:,] )", m.group(1)):
        cm = re.match(r"^(north|south|east|west)(?:, (twice|\w+) times|, (twice))?: (.*)$", clause)
        if not cm:
            out.append(("?", ("?", clause), None, None, False))
            continue
        side, rest = cm.group(1), cm.group(4)
        times = NUMBERS.get(cm.group(2) or cm.group(3) or "", 1)
        tm = re.match(r"^(two|three|four|five|six) passages \((.*)$", rest)
        if tm:
            times, rest = NUMBERS[tm.group(1)], "a passage (" + tm.group(2).replace(" ft each", " ft", 1)
        near = None
        if rest.startswith("the stairs in the middle") or rest.startswith("the ladder in the middle"):
            rest = rest.split(", ", 2)[-1]
            rest = rest[3:] if rest.startswith("to ") else rest
            side = None
        elif not rest.startswith(DEST_STARTS):
            near = "secret" if rest.startswith("a secret door to ") else "door"
            # The door leads to the first passage named; a collapsed passage
            # may go on "to the way out" or "to the long tunnel", so those
            # are the destination only where no passage stands between.
            cuts = [rest.find(" to " + s) for s in DEST_STARTS if "passage" in s]
            cuts = [c for c in cuts if c >= 0] or [c for c in (rest.find(" to " + s) for s in DEST_STARTS) if c >= 0]
            cut = min(cuts) if cuts else -1
            rest = rest[cut + 4:] if cut >= 0 else rest
        dest, far, collapsed = clause_dest(rest)
        out += [(side, dest, near, far, collapsed)] * times
    return out


STAIR_PHRASES = {
    "Stairs down": "stairs-down", "Stairs up": "stairs-up", "A ladder down": "ladder-down",
    "A ladder up": "ladder-up", "A trap door in the floor, a ladder beneath it down": "ladder-down",
}


def prose_stairs(entry):
    out = []
    for m in re.finditer(r"(Stairs down|Stairs up|A ladder down|A ladder up|"
                         r"A trap door in the floor, a ladder beneath it down) to "
                         r"([A-Z]+-\d+|the surface|the levels below)", entry):
        target = "below" if m.group(2) == "the levels below" else m.group(2)
        out.append((STAIR_PHRASES[m.group(1)], target))
    return out


# --- the room table -------------------------------------------------------------

def table_rows(bbox_xml, nareas):
    """{node id: {area key: Exits cell text}} from pdftotext -bbox output."""
    body = re.sub(r"<!DOCTYPE[^>]*>", "", bbox_xml)
    body = re.sub(r"<head>.*?</head>", "", body, flags=re.S)
    root = ET.fromstring(body)
    ns = "{http://www.w3.org/1999/xhtml}"
    out = collections.defaultdict(dict)
    for page in root.iter(ns + "page"):
        words = [(float(w.get("xMin")), float(w.get("yMin")), w.text or "") for w in page.iter(ns + "word")]
        table_page(words, nareas, out)
    return out


def table_page(words, nareas, out):
    head = [w for w in words if w[2] == "Key"]
    node = None
    for hx, hy, _ in head:
        line = sorted((w for w in words if abs(w[1] - hy) < 1), key=lambda w: w[0])
        texts = [w[2] for w in line]
        if texts[:3] == ["Key", "to", "node"] and len(texts) > 3:
            node = texts[3]
    if not node:
        return
    # The footer ("node A, The Lower Kennels · level 1") ends the page's text.
    foot = min((w[1] for w in words if w[2] == "node" and
                any(v[2] == "level" and abs(v[1] - w[1]) < 1 for v in words) and
                any(v[2] == "·" and abs(v[1] - w[1]) < 1 for v in words)), default=1e9)
    hashes = [w for w in words if w[2] == "#"]
    for hx, hy, _ in hashes:
        exits = [w for w in words if w[2] == "Exits" and abs(w[1] - hy) < 1]
        if not exits:
            continue
        ex = exits[0][0] - 2
        done = out[node]
        rows, want = [], (max(done) + 1 if done else 1)
        # The page number sits on the footer's line in a larger type (its top a
        # little above the footer's): nothing within 4 pt of the footer is a row.
        # Whatever starts left of the Area column is a row's number or, after
        # the last row, the prose (its margin a little off the "#": keymodel-17
        # E-65, the last row of a page, once took the prose beside the Exits
        # column down to the footer as its cell).
        area = [w for w in words if w[2] == "Area" and abs(w[1] - hy) < 1]
        left = (area[0][0] - 2) if area else hx + 2
        below = sorted((w for w in words if hy + 1 < w[1] < foot - 4 and w[0] < left), key=lambda w: (w[1], w[0]))
        end = None
        for x, y, t in below:
            if t == str(want) and want <= nareas.get(node, 0):
                rows.append((y, want))
                want += 1
            else:
                end = y
                break
        for j, (y, k) in enumerate(rows):
            y2 = rows[j + 1][0] if j + 1 < len(rows) else (end if end is not None else foot)
            cell = sorted((w for w in words if w[0] >= ex and y - 1 <= w[1] < y2 - 1), key=lambda w: (round(w[1]), w[0]))
            # A cell's lines follow each other; a blank line's gap or more ends
            # the table (keymodel-2 I-8, the last row, took the prose below it).
            kept, last = [], None
            for w in cell:
                if last is not None and w[1] - last > 16:
                    break
                kept.append(w)
                last = w[1]
            done[k] = " ".join(w[2] for w in kept)


def split_top(s):
    parts, depth, cur = [], 0, ""
    i = 0
    while i < len(s):
        c = s[i]
        depth += c == "("
        depth -= c == ")"
        if depth == 0 and s.startswith("; ", i):
            parts.append(cur)
            cur, i = "", i + 2
            continue
        cur += c
        i += 1
    if cur:
        parts.append(cur)
    return parts


KINDS = {"door": "door", "secret door": "secret", "locked door": "locked", "trapped door": "trapped"}


def table_exits(cell):
    out = []
    for item in split_top(cell):
        m = re.match(r"^([NESW]) (.*?)(?: ×(\d+))?$", item.strip())
        if not m:
            out.append(("?", ("?", item), None, None, False))
            continue
        side = {"N": "north", "E": "east", "S": "south", "W": "west"}[m.group(1)]
        rest, times = m.group(2), int(m.group(3) or 1)
        collapsed = "(collapsed)" in rest
        rest = rest.replace(" (collapsed)", "")
        pm = re.match(r"^(.*?)(?: \((.*)\))?$", rest)
        what, inner = pm.group(1), pm.group(2) or ""
        near = far = None
        parts = re.split(r"[;,] ", inner) if inner else []
        collapsed = collapsed or "collapsed" in parts
        for part in parts:
            fm = re.match(r"^(door|secret door|locked door|trapped door) at ", part)
            if fm:
                far = fm.group(1)
            elif part in KINDS:
                near = part
        if re.match(r"^\d+$", what):
            dest = ("area", what)
        elif re.match(r"^[A-Z]+-\d+$", what):
            dest = ("tunnel", what)
        elif what == "dead end":
            dest = ("dead",)
        elif what == "the way out":
            dest = ("out",)
        elif what == "collapsed":
            dest = ("collapsed",)
        elif what.startswith("back here from"):
            dest = ("loop",)
        else:
            dest = ("?", what)
        out += [(side, dest, near and KINDS[near], far and KINDS[far], collapsed)] * times
    return out


# --- comparing -----------------------------------------------------------------

def loose(exits):
    """A passage that leaves the map into a collapsed tunnel is collapsed
    however its own squares are marked."""
    return [(s, d, n, f, c or d == ("collapsed",)) for s, d, n, f, c in exits]


def coarse(kind):
    return None if kind is None else ("secret" if kind == "secret" else "door")


def compare(expect, got, how, where, diffs):
    """Multisets alike; a None side on either part (stairs in the floor)
    matches any side."""
    left = list(got)
    missing = []
    for e in expect:
        hit = None
        for j, g in enumerate(left):
            if g[1:] == e[1:] and (g[0] == e[0] or g[0] is None or e[0] is None):
                hit = j
                break
        if hit is None:
            missing.append(e)
        else:
            left.pop(hit)
    if missing or left:
        diffs.append("%s %s: model has %s, key has %s" % (where, how, missing, left))


def check(md, text, bbox, diffs, counts):
    sections = node_sections(text)
    nareas = {n["id"]: len(n["areas"]) for n in md["nodes"]}
    table = table_rows(bbox, nareas)
    for node in md["nodes"]:
        nid = node["id"]
        exits, stairs = model_exits(md, node), model_stairs(md, node)
        entries = prose_entries(sections.get(nid, ""))
        for a in node["areas"]:
            key = a["key"]
            where = "%s %s-%d" % (md["seed"], nid, key)
            want = loose(exits.get(key, []))
            counts["exits"] += len(want)
            if key in entries:
                counts["entries"] += 1
                prose_want = [(s, d, coarse(n), coarse(f), c) for s, d, n, f, c in want]
                compare(prose_want, loose(prose_exits(entries[key])), "prose exits", where, diffs)
                compare(sorted(stairs.get(key, [])), sorted(prose_stairs(entries[key])), "stairs", where, diffs)
                counts["stairs"] += len(stairs.get(key, []))
            elif a["kind"] != "junction" or stairs.get(key):
                # A bare junction lives in the room table only (describe.h,
                # ucr_key_area_has_prose); everything else has its entry.
                diffs.append("%s: no key entry" % where)
            if key in table.get(nid, {}):
                counts["rows"] += 1
                compare(want, loose(table_exits(table[nid][key])), "table exits", where, diffs)
            else:
                diffs.append("%s: no room-table row" % where)


def main():
    args = sys.argv[1:]
    keep = None
    if "--keep" in args:
        keep = args[args.index("--keep") + 1]
        args = [a for i, a in enumerate(args) if a != "--keep" and (i == 0 or args[i - 1] != "--keep")]
    binary = args[0]
    work = keep or tempfile.mkdtemp(prefix="key_model.")
    os.makedirs(work, exist_ok=True)
    if args[1].isdigit():
        n, seed = int(args[1]), args[2] if len(args) > 2 else "keymodel"
        names = ["%s-%d" % (seed, i) for i in range(1, n + 1)]
        for ext in ("json", "pdf"):
            subprocess.run([binary, "--seed", seed, "--count", str(n), "-o", os.path.join(work, "{seed}." + ext)],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    else:
        # Named seeds, one run each (the ones a 1,000-dungeon run once found
        # different: tests/Makefile's run/key-model keeps them checked).
        names = args[1].split(",")
        n = len(names)
        for name in names:
            for ext in ("json", "pdf"):
                subprocess.run([binary, "--seed", name, "-o", os.path.join(work, name + "." + ext)],
                               check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    diffs, counts = [], collections.Counter()
    for name in names:
        base = os.path.join(work, name)
        md = json.load(open(base + ".json"))
        text = subprocess.run(["pdftotext", "-raw", base + ".pdf", "-"], capture_output=True, text=True,
                              check=True).stdout
        bbox = subprocess.run(["pdftotext", "-bbox", base + ".pdf", "-"], capture_output=True, text=True,
                              check=True).stdout
        check(md, text, bbox, diffs, counts)
    for d in diffs[:60]:
        print(d)
    print("key_model: %d dungeons, %d key entries, %d room-table rows, %d exits, %d stairs: %d differences"
          % (n, counts["entries"], counts["rows"], counts["exits"], counts["stairs"], len(diffs)))
    if not keep:
        subprocess.run(["rm", "-rf", work])
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
