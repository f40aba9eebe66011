#!/usr/bin/env bash
# How many seeds make a one-sheet mini-zine (issue #21: at least 95% for every
# node method and for the mix):
#
#   tests/zine_rate.sh [BIN]      (make zine-rate)
#
# For every node method that draws pocket nodes (the ones --node-size pocket
# takes), and for the mix, a batch of ZINE_N seeds (default 1000) z-1 … z-N of
# `--size 1x1 --impose minizine` on ZINE_PAPER (default a4) sheets; prints the
# share made per method.  A mini-zine is made only with its map whole on two
# facing panels at 3 mm a square or more and its key on the panels left (the
# program refuses it otherwise), so a file is a success.  Exit 1 when a method
# that draws pocket nodes makes fewer than 95%; the mix is held to it only
# when it draws pocket nodes too (every method does), and reported either way.
set -uo pipefail
bin=${1:-build/undercroft}
N=${ZINE_N:-1000}
paper=${ZINE_PAPER:-a4}
[ -x "$bin" ] || { echo "zine_rate: no executable '$bin' (run make first)" >&2; exit 66; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The methods, from the program's own list; the pocket ones, by asking it.
methods=$("$bin" --method help | awk 'NR > 1 && NF { print $1 }')
rows=()
for m in $methods; do
    if "$bin" --seed 1 --size 1x1 --method "$m" --node-size pocket -o "$work/probe.json" 2>/dev/null; then
        rows+=("$m|--method $m|yes")
    else
        rows+=("$m|--method $m|no")
    fi
done
if "$bin" --seed 1 --size 1x1 --node-size pocket -o "$work/probe.json" 2>/dev/null; then
    rows+=("mix||yes")
else
    rows+=("mix||no")
fi

status=0
printf '%-10s %-8s %12s %8s   %s\n' method pocket made share 'first seeds refused'
for r in "${rows[@]}"; do
    IFS='|' read -r name opts pocket <<<"$r"
    if [ "$pocket" = no ] && [ "$name" != mix ]; then
        printf '%-10s %-8s %12s %8s   %s\n' "$name" no - - "(draws standard nodes only: not measured)"
        continue
    fi
    mkdir -p "$work/$name"
    # shellcheck disable=SC2086  # $opts is zero or two words
    "$bin" --seed z --count "$N" --size 1x1 --impose minizine --paper "$paper" $opts \
        -o "$work/$name/{seed}.pdf" 2>"$work/$name.err" >/dev/null
    made=$(find "$work/$name" -name '*.pdf' | wc -l)
    refused=$(grep -o 'seed z-[0-9]* failed' "$work/$name.err" | awk '{print $2}' | head -5 | tr '\n' ' ')
    share=$(awk -v m="$made" -v n="$N" 'BEGIN { printf "%.1f%%", 100 * m / n }')
    printf '%-10s %-8s %12s %8s   %s\n' "$name" "$pocket" "$made/$N" "$share" "$refused"
    if [ "$pocket" = yes ] && [ $((made * 100)) -lt $((N * 95)) ]; then
        status=1
    fi
    rm -rf "${work:?}/$name"
done
[ $status -eq 0 ] || echo "zine_rate: a method that draws pocket nodes makes fewer than 95% mini-zines" >&2
exit $status
