#!/usr/bin/env bash
# The gate of a change meant to keep output: every file undercroft writes for a
# fixed set of runs, hashed, recorded before the change and compared after it.
#
#   tests/same_output.sh record MANIFEST [BIN]    hash the runs into MANIFEST
#   tests/same_output.sh compare MANIFEST [BIN]   the same runs; exit 1 on any difference
#
# The runs: SAME_N seeds (default 1000) of JSON per node method and of the mixed
# dungeon (and the methods' options), the examples' booklets on every paper and
# backend, saddle and saddle-print sheets, a mini-zine per paper, and SVG, PNG and
# UVTT maps. The golden traces are compared by the unit tests themselves.
set -euo pipefail
mode=${1:-}
manifest=${2:-}
bin=${3:-build/undercroft}
N=${SAME_N:-1000}
if [ -z "$mode" ] || [ -z "$manifest" ] || { [ "$mode" != record ] && [ "$mode" != compare ]; }; then
    echo "usage: $0 record|compare MANIFEST [BIN]" >&2
    exit 64
fi
[ -x "$bin" ] || { echo "same_output: no executable '$bin' (run make first)" >&2; exit 66; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Batches of JSON: "label|options".
batches=(
    "mixed|"
    "mixed-2x2|--size 2x2"
    "grid|--method grid"
    "leximorph|--method leximorph"
    "leximorph-rotate|--method leximorph --rotate --sectors 6"
    "numbered|--method numbered"
    "pips|--method pips"
    "clock|--method clock"
    "tictactoe|--method tictactoe"
    "compass|--method compass"
    "compass-dropdice|--method compass --drop-dice --variety"
)
for b in "${batches[@]}"; do
    label=${b%%|*}
    opts=${b#*|}
    mkdir -p "$work/json/$label"
    # shellcheck disable=SC2086 # opts is a list of options
    "$bin" --seed "same-$label" --count "$N" $opts -o "$work/json/$label/{n}.json" >/dev/null 2>&1 ||
        { echo "same_output: the batch '$label' failed" >&2; exit 1; }
done

# Single files: "name|options".
singles=(
    "gk-a4.pdf|--seed goblin-king"
    "gk-a4-haru.pdf|--seed goblin-king --backend haru"
    "s42-4x2.pdf|--seed 42 --size 4x2"
    "gk-a5.pdf|--seed goblin-king --size 2x2 --paper a5"
    "gk-a5-haru.pdf|--seed goblin-king --size 2x2 --paper a5 --backend haru"
    "gk-letter-player.pdf|--seed goblin-king --size 2x2 --paper letter --player"
    "gk-letter-player-haru.pdf|--seed goblin-king --size 2x2 --paper letter --player --backend haru"
    "gk-digest.pdf|--seed goblin-king --size 2x2 --paper digest --show-dice"
    "gk-saddle.pdf|--seed goblin-king --size 2x2 --impose saddle"
    "gk-saddle-haru.pdf|--seed goblin-king --size 2x2 --impose saddle --backend haru"
    "gk-saddle-print.pdf|--seed goblin-king --size 2x2 --paper digest --impose saddle-print"
    "zine8.pdf|--seed zine8 --size 1x1 --impose minizine"
    "zine8-letter-haru.pdf|--seed zine8 --size 1x1 --impose minizine --paper letter --backend haru"
    "gk-classic.pdf|--seed goblin-king --size 2x1 --style classic"
    "gk-lowink.pdf|--seed goblin-king --size 2x1 --style lowink"
    "gk.json|--seed goblin-king"
    "maps.svg|--seed goblin-king --size 2x2"
    "maps.png|--seed goblin-king --size 2x1 --dpi 60"
    "vtt.uvtt|--seed goblin-king --size 2x1 --grid-pixels 20"
)
mkdir -p "$work/one"
for s in "${singles[@]}"; do
    name=${s%%|*}
    opts=${s#*|}
    # shellcheck disable=SC2086
    "$bin" $opts -o "$work/one/$name" >/dev/null 2>&1 ||
        { echo "same_output: '$bin $opts -o $name' failed" >&2; exit 1; }
done

(cd "$work" && find . -type f -print0 | sort -z | xargs -0 sha256sum) >"$work/manifest"
if [ "$mode" = record ]; then
    cp "$work/manifest" "$manifest"
    echo "same_output: recorded $(wc -l <"$manifest") files in $manifest"
    exit 0
fi
if diff -q "$manifest" "$work/manifest" >/dev/null; then
    echo "same_output: all $(wc -l <"$manifest") files byte-identical"
    exit 0
fi
changed=$(diff "$manifest" "$work/manifest" | grep '^>' | awk '{print $3}' || true)
echo "same_output: $(echo "$changed" | grep -c . ) of $(wc -l <"$manifest") files differ:" >&2
echo "$changed" | head -30 >&2
exit 1
