#!/usr/bin/env bash
# make install into a temporary DESTDIR, run the installed program from a
# folder with no source tree near it, check the man page covers every option
# of --help, then make uninstall and check nothing is left.
#   usage: tests/install.sh   (from the source tree; make test-install)
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ucr-install.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
D=$TMP/stage P=/opt/undercroft-test

make -C "$SRC" --no-print-directory -s install DESTDIR="$D" PREFIX="$P" >"$TMP/log" 2>&1 &&
    ok || bad "make install: $(tail -5 "$TMP/log")"
for f in bin/undercroft share/man/man1/undercroft.1 share/undercroft/templates/tables/door.txt \
         share/undercroft/templates/styles/ink.ini share/undercroft/templates/pages/a4.ini \
         share/undercroft/templates/letters.txt share/undercroft/fonts/DejaVuSans.ttf \
         share/undercroft/fonts/DejaVu.LICENSE share/undercroft/fonts/Humor-Sans.LICENSE; do
    [ -e "$D$P/$f" ] && ok || bad "not installed: $P/$f"
done
[ -x "$D$P/bin/undercroft" ] && ok || bad "the installed program is not executable"

# Run it from elsewhere: the installed program finds its own data
# (../share/undercroft).  Below, with that data gone, it says so rather than
# fall back on the source tree it was built in.
mkdir "$TMP/elsewhere"
(cd "$TMP/elsewhere" && env -u UNDERCROFT_DATADIR "$D$P/bin/undercroft" --seed goblin-king -o g.pdf 2>"$TMP/err") &&
    ok || bad "the installed program failed: $(cat "$TMP/err")"
(cd "$TMP/elsewhere" && env -u UNDERCROFT_DATADIR "$D$P/bin/undercroft" --seed 7 --method leximorph -o l.json 2>"$TMP/err") &&
    ok || bad "installed leximorph (letters.txt) failed: $(cat "$TMP/err")"
[ -s "$TMP/elsewhere/g.pdf" ] && head -c 5 "$TMP/elsewhere/g.pdf" | grep -q '%PDF-' && ok || bad "no PDF from the installed program"
# The same booklet as the build in the tree.
"$SRC/build/undercroft" --seed goblin-king -o "$TMP/tree.pdf" 2>/dev/null
cmp -s "$TMP/tree.pdf" "$TMP/elsewhere/g.pdf" && ok || bad "the installed program's booklet differs from the tree's"
# With its data gone it says so.
mv "$D$P/share/undercroft" "$TMP/data-away"
(cd "$TMP/elsewhere" && env -u UNDERCROFT_DATADIR "$D$P/bin/undercroft" --seed 1 -o x.pdf 2>"$TMP/err"); st=$?
# (The configured folder is PREFIX/share/undercroft of the build.)
[ $st -eq 66 ] && grep -q "no data folder: '.*/share/undercroft' (from the install)" "$TMP/err" && ok ||
    bad "data missing: exit $st: $(cat "$TMP/err")"
mv "$TMP/data-away" "$D$P/share/undercroft"

# The man page: it renders, and names every option --help lists.
if command -v man >/dev/null; then
    MANWIDTH=100 man -l "$D$P/share/man/man1/undercroft.1" >"$TMP/man.txt" 2>"$TMP/man.err" && ok ||
        bad "man undercroft: $(cat "$TMP/man.err")"
    [ ! -s "$TMP/man.err" ] && ok || bad "man warns: $(cat "$TMP/man.err")"
else
    sed 's/\\-/-/g' "$D$P/share/man/man1/undercroft.1" >"$TMP/man.txt"
fi
sed -i 's/‐/-/g' "$TMP/man.txt"
"$SRC/build/undercroft" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u >"$TMP/options"
while read -r opt; do
    grep -qF -- "$opt" "$TMP/man.txt" && ok || bad "the man page does not describe $opt"
done <"$TMP/options"
for words in "EXIT STATUS" "TABLES" "STYLES" "PAGE TEMPLATES" "LETTERS" "74"; do
    grep -qF "$words" "$TMP/man.txt" && ok || bad "the man page lacks '$words'"
done

make -C "$SRC" --no-print-directory -s uninstall DESTDIR="$D" PREFIX="$P" >"$TMP/log" 2>&1 &&
    ok || bad "make uninstall: $(tail -5 "$TMP/log")"
left=$(find "$D" -type f | sed "s|^$D||")
[ -z "$left" ] && ok || bad "make uninstall left: $left"

echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
