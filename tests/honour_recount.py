#!/usr/bin/env python3
"""What was drawn as rolled, recounted from the JSON (issue #22).

    honour_recount.py BIN N [SEED]

For every node method (and compass with --drop-dice) runs `BIN stats
--method M --count N --seed SEED` and writes the JSON models of the same
seeds (SEED-1 ... SEED-N), then recounts every row of the report from the
JSON alone: the methods' roll records (the rules below, read as
src/key/honour.c reads them, a record at a time), the outcomes a method kept
itself ("outcomes"), and the superstructure's stairs from each tunnel's
rolled halves against the levels of its two nodes.  Fails on any figure
that differs, and on any rule of a method that its sample never rolled (a
rule whose records no longer read as the report expects)."""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

MISS = "(?:nothing fits there|no room)"
CROSSED = "(?:; crosses [^;]*)*"  # the crossings a record lists before "(cut short"
# (methods, rule, rolled, [(reason pattern, reason)]): src/key/honour.c's table.
RULES = [
    ("numbered", "5: back to the current room, a loop (seed 000)",
     r"back to the current room = room [0-9]+ → ",
     [(r"back to the current room = room [0-9]+ → room [0-9]+ \(no way there: a dead end\)", "no loop fits: a dead end"),
      (r"back to the current room = room [0-9]+ → [^;]*" + CROSSED + r"\(cut short", "cut short")]),
    ("numbered", "a room's number: the corridor reaches that room (seed 000)",
     r"= room [0-9]+ → room [0-9]+",
     [(r"= room [0-9]+ → room [0-9]+ \(no way there: a dead end\)", "no way there: a dead end"),
      (r"= room [0-9]+ → room [0-9]+[^;]*" + CROSSED + r"\(cut short", "cut short")]),
    ("numbered", "a new room: its corridor as long as rolled (d10, seed 000)",
     r"→ new room [0-9]+; corridor d10=",
     [(r"→ new room [0-9]+; corridor d10=[^;(]*\(no room for it: routed\) \(no space for it that way",
       "no space that way at all: no room made"),
      (r"→ new room [0-9]+; corridor d10=[^;(]*\(no room for it", "no room for that length: routed")]),
    ("numbered", "a new room: made where the exit faces (seed 000)",
     r"→ new room [0-9]+",
     [(r"\(no space for it that way", "no space that way: counted on to an old room")]),
    ("numbered clock tictactoe", "an exit or a way: drawn (seed 000, 001)",
     r"(?:way [0-9]+ \(position [0-9]+\)|exit [0-9]+ \([a-z]+ wall\)):",
     [(r"walled up", "no free wall: walled up"),
      (r"→ already joined", "already joined: no corridor of its own"),
      (r"\(no room for it: the GM adds none\)", "the GM's added exit found no room"),
      (r"→ shares its corridor out of the [a-z]+ wall, which branches", "shares a corridor: branches off it")]),
    ("numbered clock tictactoe compass", "corridor check: a door (seed 000)",
     r"corridor check [^:]*: 1d10=[0-9]+: a door",
     [(": a door on the [a-z]+ wall: " + MISS + "; [a-z]+ wall: " + MISS + "$", "nothing fits on either side"),
      (r": a door: nothing fits there$", "nothing fits")]),
    ("numbered clock tictactoe compass", "corridor check: a side passage (seed 000)",
     r"corridor check [^:]*: 1d10=[0-9]+: a side passage",
     [(": a side passage on the [a-z]+ wall: " + MISS + "; [a-z]+ wall: " + MISS + "$",
       "nothing fits on either side"),
      (r": a side passage: nothing fits there(?: \(its destination, rolled first: .*\))?$", "nothing fits")]),
    ("clock tictactoe", "something already there: connect to it (seed 001)",
     r" is there",
     [(r" is there[^;→]*\((?:no way there: a dead end|no space or no way for it)\)", "no way there: a dead end"),
      (r" is there[^;→]*\(cut short", "cut short"),
      (r" is there \(its walls are out of reach\)", "joins the room's corridor")]),
    ("clock tictactoe", "nothing mapped, d10 a room: drawn (seed 001)",
     r"nothing mapped there: 1d10=[0-9]+: a room",
     [(r": a room; room size [^;→]*\(no space or no way for it\)", "no space or no way: a dead end"),
      (r": a room; room size [^;→]*\(no way there: a dead end\)", "no way there: a dead end"),
      (r": a room; room size [^;→]*\(cut short", "cut short")]),
    ("clock tictactoe", "nothing mapped, d10 a junction: drawn (seed 001)",
     r"nothing mapped there: 1d10=[0-9]+: a junction",
     [(r": a junction \(the node's junctions are all drawn\)", "junctions all drawn: a dead end"),
      (r": a junction[^;→]*\(no way there", "no way there: a dead end")]),
    ("compass", "d10 direction: the corridor reaches that room (seed 001 variant)",
     r"compass-direction 1d10=[0-9]+: [a-z-]+, to ",
     [(r"\(no way there: the corridor joins", "joins a corridor on its way")]),
    ("compass", "--drop-dice: the door on the wall the die lands by (seed 001 variant)",
     r"drop die [0-9]+ lands by the [a-z]+ wall",
     [(r"lands by the [a-z]+ wall \([^)]*\), the door in the [a-z]+ wall, which faces where it leads",
       "moved to the wall facing where it leads"),
      (r"wall is full: the door is in the", "that wall is full")]),
    ("compass", "SubMethod II's junction table: the room or junction where a side passage leads (seed 001 variant)",
     r"clock-unmapped 1d10=[0-9]+: a (room|junction)",
     [(r"\(no room for it: a dead end\)", "no room for it: a dead end")]),
    ("compass", "the leximorph junction table: a room at the junction (seed 001 variant, seed 002)",
     r"leximorph-junction d6=6: room",
     [(r"no room fits beside it", "no room fits beside it")]),
    ("pips", "a way meets the map: it crosses as stairs or a slope (seed 003)",
     r"blocked(?:, the map's edge beyond what it meets,)? after [0-9]+ ft|pips-cross 1d[0-9]+=[0-9]+",
     [(r"blocked, the map's edge beyond what it meets, after [0-9]+ ft", "the map's edge beyond it"),
      (r"blocked after [0-9]+ ft", "blocked: cut short")]),
    ("pips", "a way runs as long as rolled: 60 ft, or 20 ft to a dead end (seed 003)",
     r"→ (?:60 ft of corridor|20 ft, dead end)",
     [(r"at the map's edge after [0-9]+ ft → ", "the map's edge"),
      (r"blocked, the map's edge beyond what it meets, after [0-9]+ ft → ", "runs into the map, its edge beyond"),
      (r"blocked after [0-9]+ ft → ", "runs into the map: cut short"),
      (r"beside the map after [0-9]+ ft → ", "beside the map: no way past")]),
    ("pips", "the way out by the wall the die landed by (seed 003)",
     r"\(landed (?:north|east|south|west)\), pips-lie 1d6=[0-9] \([^)]*\) (?:\(that wall (?:is taken|faces)|→ (?:wall|corner) |→ every wall)",
     [(r"\(landed (?:north|east|south|west)\), pips-lie 1d6=[0-9] \([^)]*\) \(that wall is taken",
       "that wall taken: another"),
      (r"\(landed (?:north|east|south|west)\), pips-lie 1d6=[0-9] \([^)]*\) \(that wall faces the map's edge",
       "that wall on the map's edge: another"),
      (r"\(landed (?:north|east|south|west)\), pips-lie 1d6=[0-9] \([^)]*\) → every wall is taken",
       "every wall taken: walled up")]),
    ("pips", "4-6: a room drawn (seed 003)",
     r"pips-what 1d6=[456] \(",
     [(r"→ no room for it: a dead end", "no room: a dead end")]),
]
SUPER = "stairs down, up on double 5s or 6s (seed 004)"


def way(half):
    """Levels down that one half of a tunnel rolled (seed 004: stairs down, up
    on double 5s or 6s; a reroll may add more)."""
    return sum(1 if w == "down" else -1 for w in re.findall(r"stairs (down|up)", half))


def recount(models):
    """{(method, rule): (rolled, {reason: n})} from the JSON models."""
    rows = {}

    def row(method, rule):
        return rows.setdefault((method, rule), [0, {}])

    for d in models:
        for n in d["nodes"]:
            for methods, rule, rolled, reasons in RULES:
                if n["method"] not in methods.split():
                    continue
                r = row(n["method"], rule)
                for rec in n["rolls"]:
                    k = len(re.findall(rolled, rec))
                    if not k:
                        continue
                    r[0] += k
                    for pattern, reason in reasons:
                        m = min(k, len(re.findall(pattern, rec)))
                        if m:
                            r[1][reason] = r[1].get(reason, 0) + m
                            k -= m
            for o in n.get("outcomes", []):
                r = row(n["method"], o["rule"])
                r[0] += 1
                if o["reason"] is not None:
                    r[1][o["reason"]] = r[1].get(o["reason"], 0) + 1
        depth = {n["id"]: n["depth"] for n in d["nodes"]}
        r = row("*superstructure*", SUPER)
        for t in d["superstructure"]["tunnels"]:
            said = way(t["rolled"][0]) - way(t["rolled"][1])
            if t["kind"] == "blocked" or not said:
                continue
            r[0] += 1
            went = depth[t["to"]] - depth[t["from"]]
            if went * said < 0:
                r[1]["the other way"] = r[1].get("the other way", 0) + 1
            elif went == 0:
                r[1]["level: down and up again"] = r[1].get("level: down and up again", 0) + 1
    return rows


def report(text):
    """{(method, rule): (rolled, as_rolled, {reason: n})} from the stats output."""
    rows = {}
    part = text.split("What was drawn as rolled", 1)[1]
    for line in part.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 6 or not cells[2].isdigit():
            continue
        rest = {}
        if cells[5] != "–":
            for item in cells[5].split("; "):
                name, n = item.rsplit(" ", 1)
                rest[name] = int(n)
        rows[(cells[0], cells[1])] = (int(cells[2]), int(cells[3]), rest)
    return rows


def main():
    binary, count = sys.argv[1], int(sys.argv[2])
    seed = sys.argv[3] if len(sys.argv) > 3 else "honour"
    methods = subprocess.run([binary, "--method", "help"], capture_output=True, text=True, check=True).stdout
    names = re.findall(r"^  ([a-z]+) ", methods, re.M)
    failures, rows_checked = [], 0
    runs = [(m, []) for m in names] + [("compass", ["--drop-dice"])]
    with tempfile.TemporaryDirectory() as tmp:
        for method, extra in runs:
            out = os.path.join(tmp, method + "".join(extra))
            os.mkdir(out)
            stats = subprocess.run([binary, "stats", "--method", method, "--count", str(count), "--seed", seed] + extra,
                                   capture_output=True, text=True, check=True).stdout
            subprocess.run([binary, "--seed", seed, "--count", str(count), "--method", method, "--jobs", "1",
                            "-o", os.path.join(out, "{seed}.json")] + extra, capture_output=True, check=True)
            models = [json.load(open(f)) for f in sorted(glob.glob(os.path.join(out, "*.json")))]
            said, counted = report(stats), recount(models)
            for key, (rolled, reasons) in counted.items():
                if key[0] not in (method, "*superstructure*"):
                    continue
                rows_checked += 1
                got = said.get(key)
                want = (rolled, rolled - sum(reasons.values()), reasons)
                if got != want:
                    failures.append(f"{method} {' '.join(extra)}: {key[1]}: the report says {got}, the JSON {want}")
                is_drop = key[1].startswith("--drop-dice")
                if rolled == 0 and key[0] != "*superstructure*" and is_drop == bool(extra):
                    failures.append(f"{method} {' '.join(extra)}: '{key[1]}' never rolled in {count} dungeons")
            for key in said:
                if key[0] == method and key not in counted:
                    failures.append(f"{method}: the report has '{key[1]}', the recount does not")
    for f in failures:
        print("honour_recount:", f, file=sys.stderr)
    print(f"honour_recount: {rows_checked} rows over {count} dungeons per method, {len(failures)} differences")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
