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
    (cd "$W" && exec "$BIN" "$@" >"$TMP/out" 2>"$TMP/err")
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
# No locale changes a byte, in any backend or format.  Fontconfig and Pango
# read LANG, LC_ALL, LC_CTYPE, FC_LANG, LANGUAGE and PANGO_LANGUAGE from the
# environment themselves (no generated locale needed: glibc refuses the
# locale, the libraries still read the name), so each is set alone.
rm -rf "$TMP/loc"; mkdir "$TMP/loc"
for f in cairo.pdf haru.pdf m.svg; do
    b=; case $f in haru.pdf) b="--backend haru" ;; m.svg) b="--node A" ;; esac
    (cd "$TMP/loc" && env -u LANG -u LC_ALL -u LC_CTYPE "$BIN" --seed 'Zauberküche' --size 1x1 $b -o "$f")
    for var in LANG LC_ALL LC_CTYPE FC_LANG LANGUAGE PANGO_LANGUAGE; do
        for loc in ar_SA.UTF-8 fa_IR.UTF-8 he_IL.UTF-8 ur_PK.UTF-8 ja_JP.UTF-8 tr_TR.UTF-8; do
            (cd "$TMP/loc" && env -u LANG -u LC_ALL -u LC_CTYPE "$var=$loc" "$BIN" --seed 'Zauberküche' --size 1x1 $b -o "x-$f")
            cmp -s "$TMP/loc/$f" "$TMP/loc/x-$f" && ok || bad "$var=$loc changes $f"
        done
    done
done

# Not UTF-8: refused by name (it would be printed into a UTF-8 booklet).
hostile 64 "bad --seed: byte 3 (0xff) is not UTF-8" --seed $'ab\xffcd' -o d.pdf
hostile 64 "bad --seed: byte 1 (0xe4) is not UTF-8" -s $'\xe4' -o d.pdf
hostile 64 "bad --seed: byte 2 (0xc3) is not UTF-8" --seed=$'a\xc3' -o d.pdf
hostile 64 "bad --word: byte 1 (0xff) is not UTF-8" --method leximorph --word $'\xff' -o d.json
hostile 64 "no letter 'ü'" --method leximorph --word Bück -o d.json
# Noncharacters and control characters are not text: refused at input (cairo
# refused them only when writing, 70, while the other backends took them).
for cp in FDD0 FDEF FFFE FFFF 1FFFE 1FFFF 10FFFE 10FFFF 0001 001B 007F 0085 009F; do
    ch=$(printf "\\U$(printf %08X 0x$cp)")
    hostile 64 "bad --seed: character 3: U+$cp is a" --seed "ab${ch}c" -o d.pdf
    mkdir -p "$FX/t-nc$cp"; printf 'roll: 1d6\n1-3: [door] a door\n4-6: [door] a %s door\n' "$ch" >"$FX/t-nc$cp/door.txt"
    hostile 65 "t-nc$cp/door.txt:3: U+$cp is a" --seed 1 --tables "$FX/t-nc$cp" -o d.pdf
done
hostile 64 "bad --word: character 2: U+FFFE is a noncharacter" --method leximorph --word $'B\uFFFE' -o d.json
# A seed is at most 1000 bytes (libharu failed at about 65,000: "error 0x105B").
hostile 64 "bad --seed: it is 65000 bytes long; the limit is 1000" --seed "$(head -c 65000 /dev/zero | tr '\0' s)" --backend haru -o d.pdf
works "a seed of 1000 bytes, haru" --seed "$(head -c 1000 /dev/zero | tr '\0' s)" --size 1x1 --backend haru -o d.pdf

# A file name is bytes: any is fine.
works "an output name that is not UTF-8" --seed 1 -o $'d\xff.json'
[ -s "$W/"$'d\xff.json' ] && ok || bad "the output named in Latin-1 was not written"

# --- what is at the output path ------------------------------------------------------
mkfifo "$FX/fifo.pdf"; mkdir "$FX/folder.pdf"
hostile 73 "will not replace '/dev/null': it is a character device" --seed 1 -f json -o /dev/null
hostile 73 "it is a FIFO, not a regular file" --seed 1 -o "$FX/fifo.pdf"
hostile 73 "it is a folder, not a regular file" --seed 1 -o "$FX/folder.pdf"
hostile 73 "it is a character device" --seed 1 --node A -o "$FX/fifo.pdf" -f png -o /dev/zero
[ -c /dev/null ] && [ -p "$FX/fifo.pdf" ] && ok || bad "a device or FIFO was replaced"
hostile 73 "cannot create" --seed 1 -o "$TMP/no/such/folder/d.pdf"
# A symbolic link is followed: the file it points to is replaced, the link stays.
rm -rf "$W"; mkdir "$W"; echo old >"$W/real.json"; chmod 640 "$W/real.json"; ln -s real.json "$W/link.json"
(cd "$W" && "$BIN" --seed 1 -o link.json 2>"$TMP/err") && ok || bad "-o link: $(cat "$TMP/err")"
[ -L "$W/link.json" ] && grep -q '"seed": "1"' "$W/real.json" && ok || bad "the link's target was not replaced"
[ "$(stat -c %a "$W/real.json")" = 640 ] && ok || bad "the replaced file lost its permissions"
[ "$(ls -A "$W" | wc -l)" -eq 2 ] && ok || bad "-o link left $(ls -A "$W")"
ln -s new.json "$W/dangling.json"
(cd "$W" && "$BIN" --seed 1 -o dangling.json 2>"$TMP/err") && [ -s "$W/new.json" ] && [ -L "$W/dangling.json" ] &&
    ok || bad "a link to a file not there yet does not make it: $(cat "$TMP/err")"
rm -rf "$W"; mkdir "$W"; ln -s /dev/null "$W/null.pdf"
(cd "$W" && "$BIN" --seed 1 -o null.pdf 2>"$TMP/err"); [ $? -eq 73 ] && [ -c /dev/null ] &&
    grep -q "will not replace 'null.pdf': it is a character device" "$TMP/err" && ok ||
    bad "a link to /dev/null: $(cat "$TMP/err")"
rm -rf "$W"; mkdir "$W"; ln -s loop.pdf "$W/loop.pdf"
(cd "$W" && "$BIN" --seed 1 -o loop.pdf 2>"$TMP/err"); [ $? -eq 73 ] &&
    grep -q "Too many levels of symbolic links" "$TMP/err" && ok || bad "a link loop: $(cat "$TMP/err")"

# --- -o - : standard output, for every single-file format ----------------------------
for f in pdf json svg png; do
    node=; case $f in svg|png) node="--node B" ;; esac
    works "-o - -f $f" --seed 7 $node -f $f -o -
    cp "$TMP/out" "$TMP/stdout.$f"
    works "-o file.$f" --seed 7 $node -o "$W/file.$f"
    cmp -s "$TMP/stdout.$f" "$W/file.$f" && ok || bad "-o - -f $f differs from the file"
done
hostile 64 "-o - writes one file: give --node ID" --seed 7 -f svg -o -
hostile 64 "cannot tell the format of '-'" --seed 7 -o -
(cd "$TMP" && "$BIN" --seed 1 -f json -o - >/dev/full 2>"$TMP/err"); [ $? -eq 74 ] &&
    grep -q "cannot write to standard output: No space left on device" "$TMP/err" && ok ||
    bad "-o - to a full device: $(cat "$TMP/err")"

# --- a write that fails part-way: says why, exit 74, the old file untouched ---------
# ulimit -f makes every write past 20 KiB fail (EFBIG) for anyone; a small tmpfs
# gives the real "No space left on device" when we may mount one (root).
for out in d.pdf d.json m.png; do
    rm -rf "$W"; mkdir "$W"; echo old >"$W/$out"
    node=; [ "$out" = m.png ] && node="--node A"
    (cd "$W" && trap '' XFSZ && ulimit -f 20 && "$BIN" --seed 1 $node -o "$out" 2>"$TMP/err")
    [ $? -eq 74 ] && ok || bad "-o $out past the file size limit: exit not 74"
    grep -q "cannot write '$out': File too large" "$TMP/err" && ok || bad "-o $out, EFBIG: $(cat "$TMP/err")"
    [ "$(cat "$W/$out")" = old ] && [ "$(ls -A "$W")" = "$out" ] && ok || bad "-o $out, EFBIG, left $(ls -A "$W")"
done
if [ "$(id -u)" = 0 ] && mkdir "$TMP/full" && mount -t tmpfs -o size=48k tmpfs "$TMP/full" 2>/dev/null; then
    echo old >"$TMP/full/d.pdf"; echo old >"$TMP/full/m-A.svg"
    (cd "$TMP/full" && "$BIN" --seed 1 -o d.pdf 2>"$TMP/err"); [ $? -eq 74 ] && ok || bad "full disk: exit not 74"
    grep -q "cannot write 'd.pdf': No space left on device" "$TMP/err" && ok || bad "full disk: $(cat "$TMP/err")"
    # A map set: A and B fit, a later one does not: none of the set is written.
    (cd "$TMP/full" && "$BIN" --seed 1 --size 4x4 -o m.svg 2>"$TMP/err"); [ $? -eq 74 ] && ok || bad "full disk, set: exit not 74"
    grep -q "No space left on device" "$TMP/err" && ok || bad "full disk, set: $(cat "$TMP/err")"
    [ "$(ls -A "$TMP/full" | tr '\n' ' ')" = "d.pdf m-A.svg " ] && [ "$(cat "$TMP/full/d.pdf" "$TMP/full/m-A.svg")" = "old
old" ] && ok || bad "full disk left $(ls -A "$TMP/full")"
    # A full TMPDIR (where cairo's PDF waits to be packed) is no reason to
    # fail: the booklet is written unpacked, and TMPDIR is left as it was.
    mkdir -p "$TMP/tmpfull-out"
    (cd "$TMP/tmpfull-out" && TMPDIR="$TMP/full" "$BIN" --seed 1 -o t.pdf 2>"$TMP/err"); rc=$?
    [ $rc -eq 0 ] && [ ! -s "$TMP/err" ] && qpdf --check "$TMP/tmpfull-out/t.pdf" >/dev/null && ok ||
        bad "full TMPDIR: exit $rc, $(cat "$TMP/err")"
    [ "$(ls -A "$TMP/full" | tr '\n' ' ')" = "d.pdf m-A.svg " ] && ok || bad "full TMPDIR left $(ls -A "$TMP/full")"
    umount "$TMP/full"
else
    echo "hostile: no tmpfs to fill (not root, or no mount): the EFBIG cases above stand for it"
fi

# --- a read-only folder, as an unprivileged user (root could write there) ----------
chmod 755 "$TMP"; mkdir -m 555 "$TMP/ro"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    AS_USER="setpriv --reuid=65534 --regid=65534 --clear-groups"
else
    AS_USER=
fi
if [ "$(id -u)" != 0 ] || [ -n "$AS_USER" ]; then
    (cd "$TMP/ro" && $AS_USER "$BIN" --seed 1 -o x.json 2>"$TMP/err"); [ $? -eq 73 ] && ok || bad "read-only folder: exit not 73"
    grep -q "cannot create 'x.json': Permission denied" "$TMP/err" && ok || bad "read-only folder: $(cat "$TMP/err")"
    [ -z "$(ls -A "$TMP/ro")" ] && ok || bad "read-only folder: left $(ls -A "$TMP/ro")"
else
    bad "read-only folder: running as root and no setpriv to drop privileges"
fi

# --- signals during a write: no temporary left, 128 + the signal -------------------
# Every signal that ends a process by default: the caught ones die of
# themselves (128 + N), SIGKILL cannot be caught.  The temporary has no name
# while it is written (O_TMPFILE), so we watch for the process's descriptor
# on the output folder instead.
writing() { ls -l "/proc/$1/fd" 2>/dev/null | grep -qF "$2/"; }
for sig in INT TERM HUP QUIT USR1 USR2 ALRM VTALRM PROF XCPU KILL; do
    rm -rf "$W"; mkdir "$W"
    (cd "$W" && exec "$BIN" --seed 1 --size 6x6 -o d.pdf) & pid=$!
    for _ in $(seq 200); do writing $pid "$W" && break; sleep 0.05; done
    writing $pid "$W" && ok || bad "SIG$sig: never seen writing"
    kill -s "$sig" $pid; { wait $pid; } 2>/dev/null; got=$?
    want=$((128 + $(kill -l "$sig")))
    [ "$got" -eq "$want" ] && ok || bad "SIG$sig: exit $got, wanted $want"
    [ -z "$(ls -A "$W")" ] && ok || bad "SIG$sig left $(ls -A "$W")"
done
# A map set renamed into place while a signal arrives: all or none.
for sig in TERM QUIT ALRM; do
    rm -rf "$W"; mkdir "$W"
    (cd "$W" && exec "$BIN" --seed 1 --size 3x3 -o m.svg) & pid=$!
    sleep 0.$((RANDOM % 5)); kill -s "$sig" $pid 2>/dev/null; wait $pid 2>/dev/null
    n=$(ls -A "$W" | wc -l); { [ "$n" -eq 0 ] || [ "$n" -eq 9 ]; } && ok || bad "SIG$sig on a map set left $(ls -A "$W")"
done
# A file growing past ulimit -f: said so, 74, nothing left (SIGXFSZ did kill it).
rm -rf "$W"; mkdir "$W"
(cd "$W" && ulimit -f 20 && exec "$BIN" --seed 1 -o d.pdf 2>"$TMP/err"); got=$?
[ $got -eq 74 ] && grep -q "cannot write 'd.pdf': File too large (it grew past the limit on a file's size, ulimit -f)" "$TMP/err" &&
    [ -z "$(ls -A "$W")" ] && ok || bad "ulimit -f 20 (SIGXFSZ not ignored): exit $got, $(cat "$TMP/err"), left $(ls -A "$W")"

# --- a closed descriptor 0, 1 or 2 is never the output -----------------------------
for fd in 0 1 2; do
    rm -rf "$W"; mkdir "$W"
    (cd "$W" && export FONTCONFIG_FILE=/etc/passwd && eval 'exec "$BIN" --seed 1 --size 1x1 -o d.pdf '"$fd>&-") 2>/dev/null
    [ "$(head -c 5 "$W/d.pdf")" = "%PDF-" ] && ! grep -aq Fontconfig "$W/d.pdf" && ok ||
        bad "descriptor $fd closed: the PDF starts $(head -c 30 "$W/d.pdf" | tr -cd '[:print:]')"
done

# --- what is made at the path while we write -------------------------------------
# A FIFO, a link or a folder made at the output path while a booklet renders:
# refused at the rename (73), left as it is.
for kind in fifo link dir; do
    rm -rf "$W"; mkdir "$W"
    (cd "$W" && exec "$BIN" --seed 1 --size 6x6 -o d.pdf 2>"$TMP/err") & pid=$!
    for _ in $(seq 200); do writing $pid "$W" && break; sleep 0.05; done
    case $kind in fifo) mkfifo "$W/d.pdf" ;; link) ln -s /dev/null "$W/d.pdf" ;; dir) mkdir "$W/d.pdf" ;; esac
    wait $pid; got=$?
    [ $got -eq 73 ] && grep -q "will not replace 'd.pdf'" "$TMP/err" && ok || bad "a $kind made while writing: exit $got: $(cat "$TMP/err")"
    [ "$(ls -A "$W")" = d.pdf ] && { [ -p "$W/d.pdf" ] || [ -L "$W/d.pdf" ] || [ -d "$W/d.pdf" ]; } && ok ||
        bad "a $kind made while writing was replaced: $(ls -lA "$W")"
done
# A map set one of whose files cannot be replaced (immutable, if we may):
# none is, the others stay as they were.
rm -rf "$W"; mkdir "$W"
(cd "$W" && "$BIN" --seed 1 --size 2x2 -o m.svg) && md5sum "$W"/m-*.svg >"$TMP/set.md5"
if chattr +i "$W/m-C.svg" 2>/dev/null; then
    (cd "$W" && "$BIN" --seed 2 --size 2x2 -o m.svg 2>"$TMP/err"); got=$?
    chattr -i "$W/m-C.svg"
    [ $got -eq 73 ] && grep -q "cannot replace 'm-C.svg': Operation not permitted" "$TMP/err" && ok ||
        bad "an immutable map: exit $got: $(cat "$TMP/err")"
    md5sum -c --quiet "$TMP/set.md5" && [ "$(ls -A "$W" | wc -l)" -eq 4 ] && ok || bad "an immutable map: the set changed: $(ls -A "$W")"
else
    echo "hostile: chattr +i not allowed here: the all-or-nothing set stands on check_outfile"
fi
# Out of descriptors: the message says so, not that the folder is wrong.
rm -rf "$W"; mkdir "$W"
(cd "$W" && ulimit -n 40 && exec "$BIN" --seed 1 --size 10x10 -o m.svg 2>"$TMP/err"); got=$?
[ $got -eq 73 ] && grep -q "Too many open files (a set of maps holds one file open per map" "$TMP/err" &&
    ! grep -q "folder must exist" "$TMP/err" && [ -z "$(ls -A "$W")" ] && ok || bad "ulimit -n 40: exit $got: $(cat "$TMP/err")"

# --- batches remove only what they made ------------------------------------------
# A user's file that looks like a temporary (rsync's ".2.json.old-v1") stays.
rm -rf "$W"; mkdir -p "$W/out/2.json"; echo notes >"$W/out/.2.json.old-v1"
(cd "$W" && "$BIN" --seed k --size 1x1 --count 2 -o 'out/{n}.json' 2>"$TMP/err"); got=$?
[ $got -eq 73 ] && [ "$(cat "$W/out/.2.json.old-v1")" = notes ] && ok ||
    bad "a failed batch job: exit $got, left $(ls -A "$W/out")"
# Two batches on one pattern: stopping one does not touch the other's files.
rm -rf "$W"; mkdir -p "$W/o"
(cd "$W" && exec "$BIN" --seed two --size 5x5 --count 2 -j 1 -o 'o/{n}.pdf' 2>/dev/null) & a=$!
(cd "$W" && exec "$BIN" --seed two --size 5x5 --count 2 -j 1 --force -o 'o/{n}.pdf' 2>"$TMP/err") & b=$!
sleep 1; kill -TERM $a; wait $a 2>/dev/null; wait $b; got=$?
[ $got -eq 0 ] && ok || bad "a batch beside one stopped: exit $got: $(cat "$TMP/err")"
[ "$(ls -A "$W/o" | tr '\n' ' ')" = "1.pdf 2.pdf " ] && qpdf --check "$W/o/1.pdf" >/dev/null && ok ||
    bad "two batches on one pattern left $(ls -A "$W/o")"
# Every signal that ends a batch: no more jobs, no temporary, 128 + N.
for sig in INT TERM HUP QUIT USR1 ALRM XCPU; do
    rm -rf "$W"; mkdir "$W"
    (cd "$W" && exec "$BIN" --seed sig --size 4x4 --count 6 -o '{n}.pdf' 2>"$TMP/err") & pid=$!
    sleep 0.7; kill -s "$sig" $pid; wait $pid 2>/dev/null; got=$?
    [ $got -eq $((128 + $(kill -l $sig))) ] && grep -q "not made" "$TMP/err" && ok ||
        bad "SIG$sig to a batch: exit $got: $(cat "$TMP/err")"
    sleep 0.2; [ -z "$(ls -A "$W" | grep -v '^[1-6]\.pdf$')" ] && ok || bad "SIG$sig to a batch left $(ls -A "$W")"
done
# SIGKILL to the whole batch (parent and workers), then a resume and --force:
# nothing but complete files.
rm -rf "$W"; mkdir "$W"
(cd "$W" && exec setsid "$BIN" --seed kill --size 4x4 --count 6 -o '{n}.pdf' 2>/dev/null) & pid=$!
sleep 1; kill -KILL -- -$pid 2>/dev/null || kill -KILL $pid; wait $pid 2>/dev/null
(cd "$W" && "$BIN" --seed kill --size 4x4 --count 6 -o '{n}.pdf' 2>"$TMP/err") && ok || bad "resume after SIGKILL: $(cat "$TMP/err")"
[ "$(ls -A "$W" | tr '\n' ' ')" = "1.pdf 2.pdf 3.pdf 4.pdf 5.pdf 6.pdf " ] && ok || bad "SIGKILL and a resume left $(ls -A "$W")"

# --- any file name the file system takes -------------------------------------------
long=$(head -c 251 /dev/zero | tr '\0' n)
for name in "$long.pdf" "${long:4}.json" 'notes}.json' '}{{x}.json' "${long:2}.svg"; do
    rm -rf "$W"; mkdir "$W"
    node=; case $name in *.svg) node="--node A" ;; esac
    (cd "$W" && "$BIN" --seed 1 --size 1x1 $node -o "$name" 2>"$TMP/err") && ok || bad "-o '${name:0:20}…' (${#name} bytes): $(cat "$TMP/err")"
    want=${name//\{\{/\{}
    [ "$(ls -A "$W")" = "$want" ] && ok || bad "-o '${name:0:20}…' made $(ls -A "$W" | head -c 40)"
done
rm -rf "$W"; mkdir "$W"
(cd "$W" && "$BIN" --seed 1 --size 2x1 -o "${long:2}.svg" 2>"$TMP/err") && [ "$(ls -A "$W" | wc -l)" -eq 2 ] && ok ||
    bad "a map set of 255-byte names: $(cat "$TMP/err")"
hostile 64 "'{sed}' is not a field here; use {seed} (or {{ for a '{' in the name)" --seed 1 -o '{sed}.json'

# --- numbers: every integer option refuses what is outside its range -------------
# (0 was taken for "not given", INT_MIN for "not given" too, 0x10 for 16)
for spec in "count:1:1000000:-o {n}.json" "first:1:1000000000:--count 2 -o {n}.json" \
            "jobs:1:64:--count 2 -o {n}.json" "grid-pixels:10:300:-o m.uvtt" \
            "sectors:1:9:--method leximorph -o d.json" "loop-checks:30:60:--method numbered -o d.json"; do
    IFS=: read -r opt lo hi rest <<<"$spec"
    for v in 0 -1 $((lo - 1)) $((hi + 1)) -2147483648 2147483648 99999999999999999999 abc 0x10 1.5 '' ' 3'; do
        # shellcheck disable=SC2086 # $rest is a list of arguments
        hostile 64 "bad --$opt $v: expected a whole number from $lo to $hi" --seed 1 --size 1x1 "--$opt=$v" $rest
    done
done
hostile 64 "bad --count 0: expected a whole number from 1 to 1000000" stats --count 0
hostile 64 "bad --count -5: expected a whole number from 1 to 1000000" stats -n -5
# A PNG map is drawn whole in memory: past 100 million pixels it is refused
# (1200 dpi on one node was 1.7 GB, and --jobs J times that), with the dpi that fits.
hostile 64 "a PNG map is at most 100 million pixels (400 MB of memory to draw); use --dpi" --seed 1 --size 1x1 --dpi 1200 -o m.png
hostile 64 "a PNG map is at most 100 million pixels" --seed 1 --size 2x1 --dpi 1100 -o m.png
# SOURCE_DATE_EPOCH: malformed is an error (reproducible-builds.org), not 2017.
for v in abc -1 253402300800 1e5 ' 5' 5x 0x10 99999999999999999999; do
    SOURCE_DATE_EPOCH=$v hostile 64 "bad SOURCE_DATE_EPOCH '$v': expected a whole number of seconds" --seed 1 -o d.pdf
done
for v in 0 253402300799; do
    SOURCE_DATE_EPOCH=$v works "SOURCE_DATE_EPOCH=$v" --seed 1 --size 1x1 -o d.pdf
done

# --- the data folder, and options that would do nothing ----------------------------
UNDERCROFT_DATADIR=$TMP/nowhere hostile 66 "no data folder: '$TMP/nowhere' (from UNDERCROFT_DATADIR) has no templates/tables/" --seed 1 -o d.pdf
mkdir -p "$FX/data/templates/tables" "$FX/data/templates/styles"
UNDERCROFT_DATADIR=$FX/data hostile 66 "has no fonts/" --seed 1 -o d.pdf
hostile 64 "--word does nothing here: it applies to the leximorph method only" --method grid --word BLOOD -o d.json
hostile 64 "--sectors does nothing here" --method pips --sectors 3 -o d.json
hostile 64 "--rotate does nothing here" --method clock --rotate -o d.json
hostile 64 "--letters does nothing here" --method compass --letters x.txt -o d.json
hostile 64 "--drop-dice does nothing here: it applies to the compass method only" --method leximorph --drop-dice -o d.json
hostile 64 "--variety does nothing here" --method grid --variety -o d.json
hostile 64 "--loop-checks does nothing here: it applies to the numbered method only" --method pips --loop-checks 30 -o d.json
hostile 64 "bad --loop-checks 45: use 30 or 60 (feet)" --method numbered --loop-checks 45 -o d.json
hostile 64 "--dpi does nothing here: it applies to PNG maps only" --dpi 300 -o d.pdf
hostile 64 "--style does nothing here" --style classic -o d.json
works "leximorph and compass options in a mixed dungeon" --seed 3 --word BLOOD --rotate --drop-dice --variety -o d.json
works "numbered's option in a mixed dungeon" --seed 3 --loop-checks 30 -o d.json

# --- data files: numbers, kinds of file, sizes, bytes --------------------------------
D=$(cd "$(dirname "$0")/.." && pwd)/templates
style() { sed "s/^$1=.*/$1=$2/" "$D/styles/ink.ini" >"$FX/$3"; }
n=0
for v in nan NaN inf -inf infinity 1e308 1e400 -0.1 0.5x ''; do
    n=$((n + 1)); style width "$v" "w$n.ini"
    hostile 65 "w$n.ini: key 'grid.width': '$v' is not a number from 0.001 to 0.2" --seed 1 --style "$FX/w$n.ini" -o d.pdf
done
printf '[style]\nname=\xff\n' >"$FX/latin1.ini"
hostile 65 "latin1.ini: key 'style.name'" --seed 1 --style "$FX/latin1.ini" -o d.pdf
mkfifo "$FX/fifo.ini"; mkdir "$FX/folder.ini"
hostile 66 "cannot read style file '$FX/fifo.ini': it is a FIFO" --seed 1 --style "$FX/fifo.ini" -o d.pdf
hostile 66 "it is a folder, not a regular file" --seed 1 --style "$FX/folder.ini" -o d.pdf
head -c 1100000 /dev/zero | tr '\0' '#' >"$FX/huge.ini"
hostile 65 "huge.ini' is 1100000 bytes: data files are at most 1048576 bytes" --seed 1 --style "$FX/huge.ini" -o d.pdf

# tables: each case is a folder holding one door.txt
table() { mkdir -p "$FX/$1"; printf "$2" >"$FX/$1/door.txt"; }
table t-nan 'roll: 1d6\n1-3: [door] a door\n4-nan: [door] b\n5-6: [door] c\n'
hostile 65 "t-nan/door.txt:3: expected a roll range like '3-4', got '4-nan'" --seed 1 --tables "$FX/t-nan" -o d.pdf
table t-dice 'roll: 99999999999d6\n1-6: [door] a door\n'
hostile 65 "t-dice/door.txt:1: the first line must be 'roll: NdM'" --seed 1 --tables "$FX/t-dice" -o d.pdf
table t-latin1 'roll: 1d6\n1-3: [door] a door\n4-6: [door] a d\xf6or\n# end\n'
hostile 65 "t-latin1/door.txt:3: byte 0xf6 is not UTF-8" --seed 1 --tables "$FX/t-latin1" -o d.pdf
mkdir -p "$FX/t-nul"; printf 'roll: 1d6\n1-3: [door] a door\n4-6: [door] a\0door\n' >"$FX/t-nul/door.txt"
hostile 65 "t-nul/door.txt:3: a NUL byte" --seed 1 --tables "$FX/t-nul" -o d.pdf
mkdir -p "$FX/t-line"; { printf 'roll: 1d6\n1-3: [door] a door\n4-6: [door] '; head -c 200000 /dev/zero | tr '\0' x; printf '\n'; } >"$FX/t-line/door.txt"
hostile 65 "t-line/door.txt:3: the line is 200012 bytes long: the limit is 1000" --seed 1 --tables "$FX/t-line" -o d.pdf
mkdir -p "$FX/t-fan"; { printf 'roll: 1d6\n1-6: [door] '; for _ in $(seq 80); do printf '{dressing} '; done; printf '\n'; } >"$FX/t-fan/door.txt"
hostile 65 "one roll on 'door' may take" --seed 1 --tables "$FX/t-fan" -o d.pdf
mkdir -p "$FX/t-fifo" "$FX/t-dir/door.txt"; mkfifo "$FX/t-fifo/door.txt"
hostile 66 "cannot read table '$FX/t-fifo/door.txt': it is a FIFO" --seed 1 --tables "$FX/t-fifo" -o d.pdf
hostile 66 "cannot read table '$FX/t-dir/door.txt': it is a folder" --seed 1 --tables "$FX/t-dir" -o d.pdf
hostile 66 "$FX/t-none" --seed 1 --tables "$FX/t-none" -o d.pdf

# letter shapes
printf 'letter R\n###\n#.#\n\nletter \xff\n###\n' >"$FX/l-latin1.txt"
hostile 65 "l-latin1.txt:5: byte 0xff is not UTF-8" --seed 1 --letters "$FX/l-latin1.txt" -o d.json
printf 'letter R\n###\n\nletter ü\n###\n' >"$FX/l-name.txt"
hostile 65 "l-name.txt:4: a letter is named by one character (ASCII), not 'ü'" --seed 1 --letters "$FX/l-name.txt" -o d.json
{ printf 'letter R\n'; head -c 30000 /dev/zero | tr '\0' '#'; printf '\n'; } >"$FX/l-wide.txt"
hostile 65 "l-wide.txt:2: letter 'R' is larger than 7x7" --seed 1 --letters "$FX/l-wide.txt" -o d.json
mkfifo "$FX/l-fifo.txt"
hostile 66 "cannot read letters file '$FX/l-fifo.txt': it is a FIFO" --seed 1 --letters "$FX/l-fifo.txt" -o d.json

# --- tables and templates that load: a dungeon, or refused at load (65) -------------
# Every room size the README allows, in every method (the largest overflowed a
# fixed array of sizes: exit 139).
for m in grid leximorph numbered clock tictactoe compass pips; do
    for sz in 12x12 11x12 12x11; do
        mkdir -p "$FX/big-$sz"; printf 'roll: 1d2\n1-2: %s\n' "$sz" >"$FX/big-$sz/room-size.txt"
        cp "$FX/big-$sz/room-size.txt" "$FX/big-$sz/pips-room.txt"; cp "$FX/big-$sz/room-size.txt" "$FX/big-$sz/pips-long-room.txt"
        works "$m with $sz rooms" --seed s2 --method "$m" --tables "$FX/big-$sz" -o d.json
    done
done
# Counts and worths past their bounds: refused with the file, the line, the
# value and the bound, before any work (a monster 'no' of 10^9 took minutes).
M='roll: 1d2\ncolumns: name | plural | no | ac | hd | att | mv | ml\n'
mkdir -p "$FX/t-horde" "$FX/t-201" "$FX/t-200"
printf "$M"'1: orc | orcs | 100000*10000 | 6 [13] | 1 | axe | 40 ft | 8\n2: orc | orcs | 1d6 | 6 [13] | 1 | axe | 40 ft | 8\n' >"$FX/t-horde/monster-1.txt"
hostile 65 "t-horde/monster-1.txt:3: column 'no': '100000*10000' may give 1000000000 monsters: at most 200" --seed 1 --tables "$FX/t-horde" -o d.pdf
printf "$M"'1-2: orc | orcs | 1d2+199 | 6 [13] | 1 | axe | 40 ft | 8\n' >"$FX/t-201/wandering-2.txt"
hostile 65 "t-201/wandering-2.txt:3: column 'no': '1d2+199' may give 201 monsters" --seed 1 --tables "$FX/t-201" -o d.pdf
printf "$M"'1-2: orc | orcs | 200 | 6 [13] | 50+50 | axe | 40 ft | 8\n' >"$FX/t-200/monster-1.txt"
printf 'roll: 1d2\n1-2: [monster] {monster}.\n' >"$FX/t-200/contents.txt"
works "200 monsters of 50+50 hit dice in every room" --seed 1 --size 2x1 --tables "$FX/t-200" -o d.pdf
mkdir -p "$FX/t-gp" "$FX/t-gp-neg" "$FX/t-gp-sum"
T='roll: 1d2\ncolumns: no | item | items | gp\n'
printf "$T"'1-2: 100000*10000 | coin | coins | 10000*10000\n' >"$FX/t-gp/treasure-1.txt"
hostile 65 "t-gp/treasure-1.txt:3: column 'gp': '100000*10000' of '10000*10000' gp each may be worth" --seed 1 --tables "$FX/t-gp" -o d.json
printf "$T"'1-2: 2 | gem | gems | 1d6-2\n' >"$FX/t-gp-neg/treasure-2.txt"
hostile 65 "t-gp-neg/treasure-2.txt:3: column 'gp': '1d6-2' may be worth -1 gp" --seed 1 --tables "$FX/t-gp-neg" -o d.json
# The sums of many treasures at the bound: no wrap round to a debt.
printf "$T"'1-2: 1 | hoard | hoards | 100*10000\n' >"$FX/t-gp-sum/treasure-1.txt"
cp "$FX/t-gp-sum/treasure-1.txt" "$FX/t-gp-sum/treasure-2.txt"; cp "$FX/t-gp-sum/treasure-1.txt" "$FX/t-gp-sum/treasure-3.txt"
printf 'roll: 1d2\n1-2: [treasure] %s\n' "$(printf '{treasure} %.0s' $(seq 24))" >"$FX/t-gp-sum/contents.txt"
works "24 treasures of 1,000,000 gp in every room" --seed 1 --size 4x4 --tables "$FX/t-gp-sum" -o d.json
grep -q '"treasure_gp": -' "$W/d.json" && bad "a treasure total wrapped round to a debt" || ok
grep -q '"treasure_gp": [0-9]\{9\}' "$W/d.json" && ok || bad "no node holds hundreds of millions of gp: the sums were not tested"
mkdir -p "$FX/t-name"; printf 'roll: 1d2\n1-2: %s\n' "$(printf 'Grim %.0s' $(seq 60))" >"$FX/t-name/node-name.txt"
hostile 65 "t-name/node-name.txt:2: one roll on 'node-name' may take 299 bytes of text: a name is at most 200" --seed 1 --tables "$FX/t-name" -o d.pdf
mkdir -p "$FX/t-wander"; { printf "$M"; for i in $(seq 20); do printf '%d: orc%s | orcs | 1d6 | 6 [13] | 1 | axe | 40 ft | 8\n' $i "$(head -c 200 /dev/zero | tr '\0' x)"; done; } >"$FX/t-wander/wandering-1.txt"
sed -i 's/^roll: 1d2/roll: 1d20/' "$FX/t-wander/wandering-1.txt"
hostile 65 "t-wander/wandering-1.txt:3: the wandering monsters of level 1, printed whole in every key, may take" --seed 1 --tables "$FX/t-wander" -o d.pdf
# A table of a megabyte, rolled hundreds of times a room: each roll is a look-up
# (a scan of its rows took the default booklet 30 s of CPU).
mkdir -p "$FX/t-pairs"
awk 'BEGIN { print "roll: 2d1000"; print "2-2000: [x] y"; n = 0
             for (a = 1; a <= 1000 && n < 97000; a++) for (b = a; b <= 1000 && n < 97000; b += 1) { print a "+" b ": z"; n++ } }' >"$FX/t-pairs/big.txt"
printf 'roll: 1d2\n1-2: %s\n' "$(printf '{big}%.0s' $(seq 25))" >"$FX/t-pairs/mid.txt"
printf 'roll: 1d6\n1-6: [empty] %s\n' "$(printf '{mid}%.0s' $(seq 25))" >"$FX/t-pairs/contents.txt"
printf 'roll: 1d6\n1-6: %s\n' "$(printf '{mid}%.0s' $(seq 25))" >"$FX/t-pairs/room-shape.txt"
cpu=10; [ -n "${UCR_SAN:-}" ] && cpu=120
rm -rf "$W"; mkdir "$W"
(cd "$W" && ulimit -t $cpu && exec "$BIN" --seed 1 --tables "$FX/t-pairs" -o d.pdf 2>"$TMP/err") && ok ||
    bad "a 1 MiB table of pairs rolled 625 times a room: not done in $cpu s of CPU: $(head -c 300 "$TMP/err")"
# What a method cannot draw with is refused at load; what it can, it draws.
mkdir -p "$FX/t-pips-none" "$FX/t-pips-rare"
printf 'roll: 1d6\n1: [dead-end] a\n2-3: [corridor] b\n4-5: [corridor-twice] c\n6: [corridor] d\n' >"$FX/t-pips-none/pips-what.txt"
hostile 65 "t-pips-none/pips-what.txt:2: no row of pips-what makes a room" --seed 1 --method grid --tables "$FX/t-pips-none" -o d.json
printf 'roll: 1d20\n1: [long-room] a\n2-20: [dead-end] b\n' >"$FX/t-pips-rare/pips-what.txt"
for s in 1 2 3 4 5; do works "pips with a room on one face in 20, seed $s" --seed $s --method pips --tables "$FX/t-pips-rare" -o d.json; done
# A word of 400 letters stays inside its column and the page.
mkdir -p "$FX/t-word"; printf 'roll: 1d2\n1-2: [empty] A %s here.\n' "$(head -c 400 /dev/zero | tr '\0' w)" >"$FX/t-word/contents.txt"
for be in cairo haru; do
    works "a 400-letter word, $be" --seed 1 --size 1x1 --backend $be --tables "$FX/t-word" -o d.pdf
    pdftotext -bbox "$W/d.pdf" "$TMP/bbox.html" 2>/dev/null
    awk -F'"' '/<page /{ w = $2 } /<word /{ if ($6 + 0 > w + 0.5) { print "off the page: " $6 " > " w; exit 1 } }' "$TMP/bbox.html" &&
        ok || bad "a 400-letter word runs off the page ($be)"
done
# Templates that cannot hold a line or a map part.
D_PAGE=$(cd "$(dirname "$0")/.." && pwd)/templates/pages/a4.ini
sed -e 's/^width = .*/width = 70/' -e 's/^height = .*/height = 1200/' -e 's/^body = .*/body = 24/' \
    -e 's/^margin-inner = .*/margin-inner = 10/' -e 's/^margin-outer = .*/margin-outer = 10/' "$D_PAGE" >"$FX/tall.ini"
hostile 65 "tall.ini:22: text.body: 24 pt text in 2 key columns 18 mm wide makes lines of 2.1 ems: at least 16" --seed 1 --paper "$FX/tall.ini" -o d.pdf
sed 's/^min-square = .*/min-square = 30/' "$D_PAGE" >"$FX/sq30.ini"
hostile 65 "sq30.ini:34: map.min-square: 30 mm squares on 180 × 269 mm hold 6 × 8 squares" --seed 1 --paper "$FX/sq30.ini" -o d.pdf
sed 's/^min-square = .*/min-square = 9/' "$D_PAGE" >"$FX/sq9.ini"
works "min-square 9 on A4 (20 squares across)" --seed 1 --size 1x1 --paper "$FX/sq9.ini" -o d.pdf
# Clear messages: a byte order mark is dropped, dice name their limits, a key
# set twice is reported where its value is read.
mkdir -p "$FX/t-bom"; printf '\xef\xbb\xbfroll: 1d2\n1-2: [door] a door\n' >"$FX/t-bom/door.txt"
works "a table that starts with a byte order mark" --seed 1 --tables "$FX/t-bom" -o d.json
printf '\xef\xbb\xbf' | cat - "$D/styles/ink.ini" >"$FX/bom.ini"
works "a style that starts with a byte order mark" --seed 1 --size 1x1 --style "$FX/bom.ini" -o d.pdf
table t-1d1 'roll: 1d1\n1: [door] a door\n'
hostile 65 "t-1d1/door.txt:1: the first line must be 'roll: NdM' with 1-10 dice of 2-1000 sides" --seed 1 --tables "$FX/t-1d1" -o d.pdf
{ cat "$D_PAGE"; printf '[text]\nbody = 99\n'; } >"$FX/twice.ini"
line=$(wc -l <"$FX/twice.ini")
hostile 65 "twice.ini:$line: text.body: '99' is not a number" --seed 1 --paper "$FX/twice.ini" -o d.pdf

echo "hostile: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
