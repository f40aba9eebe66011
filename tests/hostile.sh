#!/usr/bin/env bash
# Hostile input, one table: each case is the arguments, the exit status and a
# piece of the one-line message it must print; after every case the output
# folder must hold no file and no temporary (".name.XXXXXX") at all.
#   usage: tests/hostile.sh path/to/undercroft
set -u
BIN=${1:?usage: tests/hostile.sh path/to/undercroft}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ucr-hostile.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
FX=$TMP/fx      # the hostile files, made once
W=$TMP/w        # the output folder of each case, made empty for each
mkdir -p "$FX"
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# hostile STATUS "message words" args... — run in an empty $W.
hostile() {
    local want=$1 words=$2; shift 2
    rm -rf "$W"; mkdir "$W"
    (cd "$W" && "$BIN" "$@" >"$TMP/out" 2>"$TMP/err")
    local got=$? what="undercroft $*"
    [ "$got" -eq "$want" ] && ok || bad "$what: exit $got, wanted $want: $(head -c 300 "$TMP/err")"
    grep -qF -- "$words" "$TMP/err" && ok || bad "$what: message lacks '$words': $(head -c 300 "$TMP/err")"
    [ "$(wc -l <"$TMP/err")" -eq 1 ] && ok || bad "$what: not one line: $(head -c 300 "$TMP/err")"
    [ -z "$(ls -A "$W")" ] && ok || bad "$what: left $(ls -A "$W" | tr '\n' ' ')"
}
# [LOC=locale] works "what" args... — exit 0 in an empty $W.
works() {
    local what=$1; shift
    rm -rf "$W"; mkdir "$W"
    if (cd "$W" && env ${LOC:+LC_ALL=$LOC} "$BIN" "$@" >"$TMP/out" 2>"$TMP/err"); then ok
    else bad "$what: undercroft $* failed: $(head -c 300 "$TMP/err")"; fi
}

# --- seeds and words in any language, in any locale ------------------------------
for loc in C POSIX C.UTF-8; do
    for seed in Zauberküche 地下城 'ἄβυσσος'; do
        LOC=$loc works "seed '$seed' in locale $loc" --seed "$seed" -o d.json
        grep -qF "\"seed\": \"$seed\"" "$W/d.json" && ok || bad "seed '$seed' ($loc) not kept as text"
        cp "$W/d.json" "$TMP/seed-$loc-$seed.json"
    done
done
for seed in Zauberküche 地下城; do
    cmp -s "$TMP/seed-C-$seed.json" "$TMP/seed-C.UTF-8-$seed.json" && ok ||
        bad "seed '$seed' gives another dungeon in C and C.UTF-8"
done
# Not UTF-8: refused by name (it would be printed into a UTF-8 booklet).
hostile 64 "bad --seed: byte 3 (0xff) is not UTF-8" --seed $'ab\xffcd' -o d.pdf
hostile 64 "bad --seed: byte 1 (0xe4) is not UTF-8" -s $'\xe4' -o d.pdf
hostile 64 "bad --seed: byte 2 (0xc3) is not UTF-8" --seed=$'a\xc3' -o d.pdf
hostile 64 "bad --word: byte 1 (0xff) is not UTF-8" --method leximorph --word $'\xff' -o d.json
hostile 64 "no letter 'ü'" --method leximorph --word Bück -o d.json
# A file name is bytes: any is fine.
works "an output name that is not UTF-8" --seed 1 -o $'d\xff.json'
[ -s "$W/"$'d\xff.json' ] && ok || bad "the output named in Latin-1 was not written"

echo "hostile: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
