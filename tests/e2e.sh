#!/usr/bin/env bash
# End-to-end tests: run the undercroft executable as a user would and check
# what it writes, what it says and how it exits.
#   usage: tests/e2e.sh path/to/undercroft
set -u
BIN=${1:?usage: tests/e2e.sh path/to/undercroft}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ucr-e2e.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0

ok()   { pass=$((pass + 1)); }
bad()  { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() { local what=$1; shift; if "$@"; then ok; else bad "$what"; fi; }

# run EXPECTED_STATUS args... : runs, keeps stdout/stderr in $TMP/out, $TMP/err
run() {
    local want=$1; shift
    "$BIN" "$@" >"$TMP/out" 2>"$TMP/err"
    local got=$?
    if [ "$got" -ne "$want" ]; then
        bad "undercroft $* exited $got, wanted $want: $(head -c 300 "$TMP/err")"
        return 1
    fi
    ok
}

# --- help and version ---------------------------------------------------------
run 0 --help && check "--help lists --seed, --output, --size, --format" \
    grep -q -- '--seed' "$TMP/out" && check "--help mentions --size" grep -q -- '--size' "$TMP/out" \
    && check "--help mentions exit codes" grep -q '73 cannot create' "$TMP/out"
run 0 --version && check "--version prints the version" grep -Eq '^undercroft [0-9]+\.[0-9]+\.[0-9]+$' "$TMP/out"

# --- bad input: one clear line, sysexits code, no file --------------------------
cd "$TMP" || exit 1
expect_usage() {   # expect_usage "words in the message" args...
    local words=$1; shift
    run 64 "$@" || return
    check "'$*' names the problem ('$words')" grep -q -- "$words" "$TMP/err"
    check "'$*' says it in one line" test "$(wc -l <"$TMP/err")" -eq 1
}
expect_usage "Unknown option --frobnicate" --frobnicate -o x.pdf
expect_usage "bad --size '0x3'" --size 0x3 -o x.pdf
expect_usage "bad --size 'banana'" --size banana -o x.pdf
expect_usage "bad --size '11x2'" --size 11x2 -o x.pdf
expect_usage "e.g. 3x3" --size 3x -o x.pdf
expect_usage "cannot tell the format of 'dungeon.txt'" --seed 1 -o dungeon.txt
expect_usage "unknown --format 'docx'" --seed 1 --format docx -o x.pdf
expect_usage "no output file" --seed 1
expect_usage "unexpected argument 'stray'" --seed 1 -o x.pdf stray
expect_usage "unknown --method 'nope'" --seed 1 --method nope -o x.pdf
run 0 --method help && check "--method help lists grid with its seed" grep -q "grid *seed 004" "$TMP/out"
check "no file left after usage errors" test -z "$(ls -A "$TMP" | grep -v -e '^out$' -e '^err$')"

run 73 --seed 1 -o "$TMP/no/such/dir/x.pdf" &&
    check "unwritable path is named" grep -q "cannot create '$TMP/no/such/dir/x.pdf'" "$TMP/err"
mkdir "$TMP/ro" && chmod 555 "$TMP/ro"
if [ "$(id -u)" != 0 ]; then
    run 73 --seed 1 -o "$TMP/ro/x.json" && check "read-only folder stays empty" test -z "$(ls -A "$TMP/ro")"
fi
check "nothing written outside the output path" test ! -e "$TMP/no"

# --- JSON model -------------------------------------------------------------------
run 0 --seed goblin-king -o "$TMP/d.json"
run 0 --seed goblin-king -o "$TMP/d2.json"
check "same seed, byte-identical JSON" cmp -s "$TMP/d.json" "$TMP/d2.json"
run 0 --seed goblin-queen -o "$TMP/q.json"
differs() { ! cmp -s "$1" "$2"; }
check "another seed, another dungeon" differs "$TMP/d.json" "$TMP/q.json"
run 0 --seed 42 --size 4x2 --format json -o "$TMP/forced.model"
run 0 --seed 42 --method grid -o "$TMP/grid.json"
check "--method grid makes every node a grid node" sh -c "grep -c '\"method\": \"grid\"' '$TMP/grid.json' | grep -qx 9"
check "no temporary files left behind" test -z "$(ls -A "$TMP" | grep '^\.')"

# The registered methods, as --method help lists them (mixed by default).
export UCR_E2E_METHODS="$("$BIN" --method help | awk 'NR > 1 { print $1 }')"
python3 - "$TMP/d.json" "$TMP/forced.model" <<'PY' && ok || bad "JSON model keys and consistency"
import json, os, sys
methods = set(os.environ["UCR_E2E_METHODS"].split())
d = json.load(open(sys.argv[1]))
assert d["format"] == "undercroft/1"
assert d["seed"] == "goblin-king" and d["version"]
ss = d["superstructure"]
assert ss["columns"] == 3 and ss["rows"] == 3
ids = [n["id"] for n in d["nodes"]]
assert ids == list("ABCDEFGHI"), ids
assert d["entrance"]["node"] in ids and isinstance(d["entrance"]["area"], int)
kinds = {"open", "door", "secret", "stairs", "ladder", "blocked"}
for t in ss["tunnels"]:
    assert t["from"] in ids and t["to"] in ids and t["kind"] in kinds, t
byid = {n["id"]: n for n in d["nodes"]}
for n in d["nodes"]:
    for k in ("id", "method", "depth", "width", "height", "areas", "passages", "doors", "links", "graph", "stats"):
        assert k in n, k
    assert n["method"] in methods and n["depth"] >= 1, n["method"]
    keys = sorted(a["key"] for a in n["areas"])
    assert keys == list(range(1, len(keys) + 1))
    for a in n["areas"]:
        assert a["kind"] in ("room", "junction", "stairs") and len(a["polygon"]) == 4
        for x, y in a["polygon"]:
            assert 0 <= x <= n["width"] and 0 <= y <= n["height"]
    for p in n["passages"]:
        assert p["width"] == 1 and p["path"]
    for dr in n["doors"]:
        assert dr["kind"] in ("door", "secret", "locked", "trapped") and len(dr["at"]) == 2
    # links: keyed at both ends
    for l in n["links"]:
        if l["to"] is None:
            assert l["exit"] in ("surface", "below")
            continue
        t = byid[l["to"]["node"]]
        back = [m for m in t["links"] if m["to"] and m["to"]["node"] == n["id"]
                and m["to"]["area"] == l["area"] and m["area"] == l["to"]["area"]]
        assert back, (n["id"], l)
    # stats agree with the graph: loops = E - V + C over passable edges
    V = len(n["graph"]["vertices"])
    E = [e for e in n["graph"]["edges"] if e[2] != "blocked"]
    parent = list(range(V))
    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]; x = parent[x]
        return x
    for u, v, _ in E:
        parent[find(u)] = find(v)
    C = len({find(v) for v in range(V)})
    s = n["stats"]
    assert s["loops"] == len(E) - V + C, (s, len(E), V, C)
    assert s["areas"] == len(n["areas"])
    for k in ("areas", "loops", "chokepoints", "dead_ends"):
        assert isinstance(s[k], int)
m = json.load(open(sys.argv[2]))
assert m["superstructure"]["columns"] == 4 and m["superstructure"]["rows"] == 2 and len(m["nodes"]) == 8
PY

# --- PDF booklet ------------------------------------------------------------------
run 0 --seed goblin-king -o "$TMP/b.pdf"
run 0 --seed goblin-king -o "$TMP/b2.pdf"
check "same seed, byte-identical PDF" cmp -s "$TMP/b.pdf" "$TMP/b2.pdf"
check "qpdf --check passes" qpdf --check "$TMP/b.pdf" >/dev/null
pages=$(pdfinfo "$TMP/b.pdf" | awk '/^Pages:/ {print $2}')
check "a cover, an overview and two pages per node at least ($pages)" test "${pages:-0}" -ge 20
check "fixed creation date without SOURCE_DATE_EPOCH" sh -c "pdfinfo '$TMP/b.pdf' | grep -q 'CreationDate:.*2017'"
SOURCE_DATE_EPOCH=1700000000 "$BIN" --seed goblin-king -o "$TMP/b3.pdf" 2>/dev/null
check "SOURCE_DATE_EPOCH sets the date" sh -c "pdfinfo '$TMP/b3.pdf' | grep -q 'CreationDate:.*2023'"
check "fonts are embedded" sh -c "pdffonts '$TMP/b.pdf' | awk 'NR>2 && \$(NF-4) != \"yes\" {exit 1}'"
pdftotext -layout "$TMP/b.pdf" "$TMP/b.txt"
for id in A B C D E F G H I; do
    check "node $id has a map page" grep -q "NODE $id\|Node $id" "$TMP/b.txt"
done
check "the key lists exits" grep -q "Exits" "$TMP/b.txt"
check "the key names where stairs lead" grep -Eq "(Stairs|ladder|Ladder) (down|up) to ([A-I]-[0-9]+|the)" "$TMP/b.txt"
check "the cover shows the seed" grep -q "goblin-king" "$TMP/b.txt"
check "the overview is there" grep -qi "superstructure" "$TMP/b.txt"
check "the key says what was rolled" grep -q "Rolled: 2d6=" "$TMP/b.txt"
check "the node page shows its loops" grep -q "loop" "$TMP/b.txt"
# Every area key of node A in the JSON appears in node A's key.
python3 - "$TMP/d.json" "$TMP/b.txt" <<'PY' && ok || bad "every area of node A is in the booklet key"
import json, re, sys
d = json.load(open(sys.argv[1])); text = open(sys.argv[2]).read()
start = text.index("Node A — key"); end = text.find("Node B", start)
block = text[start:end]
for a in d["nodes"][0]["areas"]:
    assert re.search(r"(^|\s)%d\. " % a["key"], block), a["key"]
PY

echo "e2e: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
