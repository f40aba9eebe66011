#!/usr/bin/env bash
# make mutants: does the test suite bite?  Applies small deliberate bugs (the
# MUTANTS list below), one at a time, to a throwaway copy of the tree,
# rebuilds, runs the fast suites (the Check suites without sanitizers, then
# tests/e2e.sh and tests/hostile.sh; no fuzzing, valgrind or sanitizer build)
# and lists the mutants no test noticed.
#
#   tests/mutants.sh [NAME...]      only the mutants named (default: all)
#
#   MUTANTS_FULL=1   run the suites with their full seed counts; by default
#                    they run with UCR_SAN=1, the seed counts of the sanitizer
#                    runs (a quarter to a tenth of the seeds, the same checks):
#                    a deliberate bug shows on the first seeds or not at all
#   MUTANTS_BASELINE=0   skip the run of the unmutated tree (it must pass, or
#                    every mutant would look caught)
#   MUTANTS_TIMEOUT=900  seconds a suite may take before it counts as failed
#   MUTANTS_KEEP=1   keep the copy (its path is printed)
#   MUTANTS_DRY=1    only check that every mutant still applies (no build)
#
# A mutant is a file, an exact original text and its replacement.  The text
# must occur exactly once in the file; if it does not (the code moved), the
# mutant is reported "stale", never "caught": update it.  The real tree is
# never written: everything happens in a copy under $TMPDIR, removed on exit
# (Ctrl-C too).  Each mutant lists the suites most likely to catch it; they
# run first and the run stops at the first failure, so a caught mutant costs
# one or two suites and a survivor costs them all.
#
# Exit status: 0 every mutant caught; 1 survivors, stale mutants or a mutant
# that did not build; 2 the unmutated tree fails its tests or does not build.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
JOBS=${MUTANTS_JOBS:-2}
TIMEOUT=${MUTANTS_TIMEOUT:-900}
if [ "${MUTANTS_FULL:-0}" = 1 ]; then
    unset UCR_SAN
else
    export UCR_SAN=1
fi
export CK_FORK=no

# --- the mutants -------------------------------------------------------------
# Records: "name: NAME", "file: PATH", "suites: SUITE..." (check_* names, e2e,
# hostile), then the original text as lines starting "- " and the replacement
# as lines starting "+ " (several lines each if need be; "-" or "+" alone is an
# empty line).  A blank line ends the record.  Why each one matters is in its
# "why:" line.
read -r -d '' MUTANTS <<'EOF'
name: dice-never-max
why: a die that never shows its highest face (every 2d6 table loses its 12)
file: src/core/dice.c
suites: check_dice
- return 1 + (int)ucr_prng_below(rng, (uint32_t)sides);
+ return 1 + (int)ucr_prng_below(rng, (uint32_t)sides - (sides > 2));

name: d10-ten-is-not-zero
why: seeds 000 and 001 read a d10's 10 as 0 ("on a 0, there is no corridor"); the record would say d10=10
file: src/gen/kit/preconnect.c
suites: check_rolls check_corridors check_method_numbered check_method_compass
- return table->count == 1 && table->sides == 10 ? total % 10 : total;
+ return table->count == 1 && table->sides == 10 ? total : total;

name: prng-seed-separator
why: ("ab","c") and ("a","bc") would seed the same stream
file: src/core/prng.c
suites: check_dice
- h = fnv1a64(h ^ 0xffu, "\x1f");
+ h = fnv1a64(h, "");

name: roll004-secret-no-reroll
why: seed 004 "secret door on double 3s, roll again": the chain stops at the secret door
file: src/gen/kit/roll004.c
suites: check_dice check_megadungeon
-         half_push(half, UCR_STEP_SECRET, UCR_STAIR_NONE);
-         return true;
+         half_push(half, UCR_STEP_SECRET, UCR_STAIR_NONE);
+         return false;

name: roll004-ladder-turned
why: seed 004 "ladder on 5+ on 1d6": a ladder up drawn as a ladder down
file: src/gen/kit/roll004.c
suites: check_dice check_megadungeon
- ucr_stair s = ladder ? (up ? UCR_LADDER_UP : UCR_LADDER_DOWN)
+ ucr_stair s = ladder ? (up ? UCR_LADDER_DOWN : UCR_LADDER_UP)

name: roll004-chain-cut-short
why: a reroll chain one roll shorter than the limit (reroll chains run their full length)
file: src/gen/kit/roll004.c
suites: check_rolls check_dice check_megadungeon
- for (int i = 0; i <= UCR_HALF_MAX_REROLLS; i++) {
+ for (int i = 0; i < UCR_HALF_MAX_REROLLS; i++) {

name: table-range-top-excluded
why: a roll on the top of a range 'LOW-HIGH' falls through to no row
file: src/tables/table.c
suites: check_table check_dice
- } else if (!range && total >= row->lo && total <= row->hi) {
+ } else if (!range && total >= row->lo && total < row->hi) {

name: table-error-wrong-line
why: the issue's: a table error that names the wrong line
file: src/tables/table.c
suites: check_table check_hostile
- int lineno = i + 1;
+ int lineno = i + (i > 1);

name: table-duplicate-pair-wrong-line
why: 'the pair 3+3 is covered twice (also on line N)' names the wrong first line
file: src/tables/table.c
suites: check_table check_hostile
- g_hash_table_insert(pairs, pair_key, GINT_TO_POINTER(lineno));
+ g_hash_table_insert(pairs, pair_key, GINT_TO_POINTER(lineno + 1));

name: table-room-size-13
why: room sizes are 1-12 squares each way; 13 would be let through
file: src/tables/table.c
suites: check_limits check_table
- return *p == '\0' && *w >= 1 && *w <= 12 && *h >= 1 && *h <= 12;
+ return *p == '\0' && *w >= 1 && *w <= 12 && *h >= 1 && *h <= 13;

name: json-backslash-unescaped
why: the issue's: a backslash left unescaped in the JSON
file: src/model/json.c
suites: check_hostile e2e
- case '\\': g_string_append(out, "\\\\"); break;
+ case '\\': g_string_append(out, "\\"); break;

name: json-control-0x1f
why: U+001F written raw: not JSON
file: src/model/json.c
suites: check_hostile e2e
- if (*p < 0x20)
+ if (*p < 0x1f)

name: json-loop-share-rounded
why: loop_share with two decimals: the file no longer agrees with on_loop / areas
file: src/model/json.c
suites: e2e check_hostile
- "\"on_loop\": %d, \"loop_share\": %.3f, \"largest_loop\": %d, "
+ "\"on_loop\": %d, \"loop_share\": %.2f, \"largest_loop\": %d, "

name: model-node-id-after-z
why: node 27 of a 10x10 dungeon must be AA, then AB ... (not skip or repeat)
file: src/model/model.c
suites: check_model check_megadungeon e2e
- i = (i - 1) / 26;
+ i = i / 26;

name: model-locked-named-trapped
why: a locked door written "trapped" in the JSON and the key
file: src/model/model.c
suites: check_model e2e check_stock
- case UCR_DOOR_LOCKED: return "locked";
+ case UCR_DOOR_LOCKED: return "trapped";

name: model-east-is-west
why: direction names swapped in the key and the JSON
file: src/model/model.c
suites: check_model e2e check_stock check_megadungeon
- static const char *names[] = { "north", "east", "south", "west" };
+ static const char *names[] = { "north", "west", "south", "east" };

name: outfile-skips-temporary
why: the issue's: the writer writes the path itself, not a temporary renamed at the end
file: src/core/outfile.c
suites: check_hostile hostile
- int fd = g_mkstemp(templ);
+ g_free(templ);
+ templ = g_strdup(target);
+ int fd = open(templ, O_WRONLY | O_CREAT | O_TRUNC, 0600);

name: outfile-write-error-ignored
why: a full disk reported as success
file: src/core/outfile.c
suites: check_hostile hostile
- if (!outfile_close(out)) {
+ if (!outfile_close(out) && out->held) {

name: outfile-new-file-private
why: a new file 0600 whatever the umask says (others cannot read the booklet)
file: src/core/outfile.c
suites: check_outfile check_hostile hostile e2e
- mode = (int)(0666 & ~mask);
+ mode = (int)(0600 & ~mask);

name: analysis-bridge-on-a-ring
why: an edge on a cycle counted as a bridge (>= for >)
file: src/key/analysis.c
suites: check_analysis
- if (s->low[v] > s->disc[parent]) {
+ if (s->low[v] >= s->disc[parent]) {

name: analysis-stairs-dead-end
why: a room whose only other way out is a stair counted as a dead end
file: src/key/analysis.c
suites: check_analysis
- if (degree[v] == 1 && !g->leaves_elsewhere[v])
+ if (degree[v] == 1)

name: analysis-farthest-counts-passages
why: the farthest area by passages, not by length walked
file: src/key/analysis.c
suites: check_analysis
- int w = s->adj[k], d = dist[v] + len[s->adj_edge[k]];
+ int w = s->adj[k], d = dist[v] + 1;

name: stock-node-treasure-last-area
why: a node's treasure total is the last room's, not the sum
file: src/key/stock.c
suites: check_stock
- node->treasure_gp += g_array_index(node->areas, ucr_area, k).treasure_gp;
+ node->treasure_gp = g_array_index(node->areas, ucr_area, k).treasure_gp;

name: batch-width-ignored
why: '{n:4}' ignored: files named 7.pdf instead of 0007.pdf
file: src/core/batch.c
suites: check_batch e2e
- g_string_append_printf(s, "%0*d", w ? w : width, n);
+ g_string_append_printf(s, "%0*d", width, n);

name: impose-saddle-back-swapped
why: the back of a saddle sheet in the wrong order [N-2k-1 | 2k+2]
file: src/layout/impose.c
suites: check_impose
-         s[2] = 2 * k + 2;           /* back: [2k+2 | N−2k−1] */
-         s[3] = padded - 2 * k - 1;
+         s[3] = 2 * k + 2;           /* back: [2k+2 | N−2k−1] */
+         s[2] = padded - 2 * k - 1;

name: page-template-nan
why: a page template's 'nan' passes the range check (isfinite dropped)
file: src/layout/page.c
suites: check_hostile hostile
- if (errno || end == value || *end || !isfinite(v) || v < k->min || v > k->max ||
+ if (errno || end == value || *end || v < k->min || v > k->max ||

name: style-max-unchecked
why: a style value over its maximum accepted
file: src/layout/style.c
suites: check_limits check_render check_hostile hostile
- if (errno || end == value || *end || !isfinite(v) || !(v >= k->min && v <= k->max) ||
+ if (errno || end == value || *end || !isfinite(v) || !(v >= k->min) ||

name: map-player-sees-secret-doors
why: a player map drawing the secret doors
file: src/layout/map.c
suites: check_render e2e
- return !(m->opt.player && (d->kind == UCR_DOOR_SECRET || (m->hidden && m->hidden[d->area])));
+ return !(m->opt.player && (d->kind == UCR_DOOR_LOCKED || (m->hidden && m->hidden[d->area])));

name: map-south-door-inside
why: a door on a south wall drawn a square inside the room
file: src/layout/map.c
suites: check_render check_booklet
- case UCR_SOUTH: x = d->cell.x + 0.5; y = a->y + a->h; break;
+ case UCR_SOUTH: x = d->cell.x + 0.5; y = a->y + a->h - 1; break;

name: numbered-corridor-10ft-longer
why: the issue's: a corridor drawn 10 ft longer than rolled (seed 000's d10 x 10 ft)
file: src/gen/methods/numbered.c
suites: check_rolls check_corridors check_method_numbered
-     } else if (strcmp(lrow->tag, "length") == 0) {
-         straight = atoi(lrow->text) / 10;
+     } else if (strcmp(lrow->tag, "length") == 0) {
+         straight = atoi(lrow->text) / 10 + 1;

name: pdfpack-escaped-paren
why: the PDF packer's lexer forgets that a backslash escapes a parenthesis: a title "(a \( b)" runs on
file: src/output/pdfpack.c
suites: check_pdfpack
-             if (*q == '\\' && q + 1 < end)
-                 q++;
-             else if (*q == '(')
+             if (*q == '(')

name: pdfpack-offset-off-by-one
why: the cross-reference stream points a byte past each stream object
file: src/output/pdfpack.c
suites: check_pdfpack e2e
-         o->index = w.pos;
+         o->index = w.pos + 1;

name: pdfpack-any-generation
why: the packer takes objects of generation 1, which its xref stream cannot say
file: src/output/pdfpack.c
suites: check_pdfpack
-             ok = p[17] == 'n' && gen == 0 && off > 8 && off < xref;
+             ok = p[17] == 'n' && off > 8 && off < xref;

name: printf-ties-up
why: cairo's numbers rounded half up where glibc rounds half to even: a coordinate moves by a digit
file: src/render/printf_fast.c
suites: check_printf_fast
-             if (r > half || (r == half && (q & 1)))
+             if (r >= half)

name: printf-d-min
why: "%d" of a negative glyph offset loses its sign
file: src/render/printf_fast.c
suites: check_printf_fast
-                 *p++ = '-';
-                 w = -w;
+                 w = -w;

name: lines-final-space-counted
why: a wrapped line's final space counted in its width: centred titles shift half a space
file: src/layout/textblock.c
suites: check_textblock check_booklet
-             if (gs->num_glyphs > 0 && bk->la[g_array_index(starts, int, i + 1) - 1].is_white) {
+             if (gs->num_glyphs > 0 && bk->la[g_array_index(starts, int, i + 1) - 1].is_white && 0) {

name: lines-fit-with-space
why: the breaker counts the spaces before a break: a word that fits moves to the next line
file: src/layout/textblock.c
suites: check_textblock check_booklet
-             if (width - (b < p1 ? white : 0) <= bk->limit)
+             if (width <= bk->limit)

name: lines-end-spaces-hang
why: spaces at a paragraph's end not counted: its last word stays on a line it overflows
file: src/layout/textblock.c
suites: check_textblock check_booklet
-             if (width - (b < p1 ? white : 0) <= bk->limit)
+             if (width - white <= bk->limit)

name: png-grey-ignores-green
why: a map pixel whose green differs from red and blue is taken for grey: the PNG loses its colour
file: src/render/cairo_device.c
suites: check_render
-         diff |= (v >> 8) ^ v;
+         diff |= (v >> 16) ^ v;

name: png-grey-tail-unchecked
why: the last pixels of a row (past the eight-at-a-time steps) are never asked whether they are grey
file: src/render/cairo_device.c
suites: check_render
-         d |= ((src[x] >> 16) ^ src[x]) | ((src[x] >> 8) ^ src[x]);
+         d |= 0;

name: key-heading-orphaned
why: a key's heading left alone at the foot of its map's page, its intro on the next
file: src/layout/booklet.c
suites: check_booklet
-     if (L->y > L->top && L->y + ucr_textblock_height(htb) + t->body_pt * 0.4 + opening > L->bottom)
+     if (L->y > L->top && L->y + ucr_textblock_height(htb) + t->body_pt * 0.4 > L->bottom)
EOF

# --- the copy ----------------------------------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ucr-mutants.XXXXXX")
# hostile.sh runs some checks as an unprivileged user, who must reach the
# copy's data folder (mktemp makes it 0700).
chmod 755 "$WORK"
cleanup() {
    if [ "${MUTANTS_KEEP:-0}" = 1 ]; then echo "mutants: the copy is kept in $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'echo; echo "mutants: interrupted (the real tree was never touched)"; exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# The working tree as it is (tracked and new files, edits included), without
# build/ and whatever .gitignore leaves out.
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard \
    | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done \
    | tar --null -T - -cf -) | tar -C "$WORK" -xf - || { echo "mutants: cannot copy the tree"; exit 2; }
cd "$WORK" || exit 2
LOG=$WORK/mutants-log
mkdir -p "$LOG"

UNIT=()
for t in tests/check_*.c; do UNIT+=("$(basename "$t" .c)"); done
ALL=("${UNIT[@]}" e2e hostile)

build() {
    nice -n 10 make -j"$JOBS" all $(printf 'build/tests/%s ' "${UNIT[@]}") >"$1" 2>&1
}

# run_suite NAME LOGFILE: 0 if the suite passes.
run_suite() {
    case $1 in
    e2e) nice -n 10 timeout "$TIMEOUT" bash tests/e2e.sh ./build/undercroft >"$2" 2>&1 ;;
    hostile) nice -n 10 timeout "$TIMEOUT" bash tests/hostile.sh ./build/undercroft >"$2" 2>&1 ;;
    *) nice -n 10 timeout "$TIMEOUT" "./build/tests/$1" >"$2" 2>&1 ;;
    esac
}

# --- the mutants, parsed -----------------------------------------------------
# Into parallel arrays; the texts go to files (any bytes, several lines).
declare -a M_NAME M_FILE M_SUITES M_WHY
parse() {
    local n=-1 line
    mkdir -p "$WORK/mutants"
    while IFS= read -r line || [ -n "$line" ]; do
        case $line in
        'name: '*) n=$((n + 1)); M_NAME[n]=${line#name: }; M_SUITES[n]=""; M_WHY[n]=""
                   : >"$WORK/mutants/$n.orig"; : >"$WORK/mutants/$n.repl" ;;
        'why: '*) M_WHY[n]=${line#why: } ;;
        'file: '*) M_FILE[n]=${line#file: } ;;
        'suites: '*) M_SUITES[n]=${line#suites: } ;;
        '- '*|-) printf '%s\n' "${line#- }" | sed 's/^-$//' >>"$WORK/mutants/$n.orig" ;;
        '+ '*|+) printf '%s\n' "${line#+ }" | sed 's/^+$//' >>"$WORK/mutants/$n.repl" ;;
        '') ;;
        *) echo "mutants: cannot read the line '$line' of the list"; exit 2 ;;
        esac
    done <<<"$MUTANTS"
}
parse

# apply N: 0 applied, 1 stale (the text is not there exactly once).
apply() {
    python3 - "${M_FILE[$1]}" "$WORK/mutants/$1.orig" "$WORK/mutants/$1.repl" <<'PY'
import sys
path, orig, repl = sys.argv[1:]
try:
    text = open(path, encoding="utf-8").read()
except OSError:
    sys.exit(1)
o = open(orig, encoding="utf-8").read()[:-1]    # the last newline is the record's
r = open(repl, encoding="utf-8").read()[:-1]
if not o or text.count(o) != 1:
    sys.exit(1)
open(path, "w", encoding="utf-8").write(text.replace(o, r))
PY
}

ARGS=("$@")
wanted() {
    [ ${#ARGS[@]} -eq 0 ] && return 0
    local want
    for want in "${ARGS[@]}"; do [ "$want" = "$1" ] && return 0; done
    return 1
}

# --- run ---------------------------------------------------------------------
if [ "${MUTANTS_DRY:-0}" = 1 ]; then
    MUTANTS_BASELINE=0
    build() { return 0; }
fi
if [ -n "${UCR_SAN:-}" ]; then counts="UCR_SAN=1 (the seed counts of the sanitizer runs)"; else counts="full seed counts"; fi
echo "mutants: copy of $ROOT in $WORK; suites with $counts"
if ! build "$LOG/baseline-build"; then
    tail -30 "$LOG/baseline-build"; echo "mutants: the unmutated tree does not build"; exit 2
fi
if [ "${MUTANTS_BASELINE:-1}" != 0 ]; then
    for s in "${ALL[@]}"; do
        t0=$SECONDS
        if ! run_suite "$s" "$LOG/baseline-$s"; then
            tail -20 "$LOG/baseline-$s"; echo "mutants: the unmutated tree fails $s"; exit 2
        fi
        printf '  baseline %-28s passed  %4d s\n' "$s" $((SECONDS - t0))
    done
fi

declare -a RESULT
survivors=0 stale=0 broken=0 caught=0
for i in "${!M_NAME[@]}"; do
    name=${M_NAME[$i]} file=${M_FILE[$i]}
    wanted "$name" || continue
    t0=$SECONDS
    cp -p "$file" "$WORK/mutants/$i.saved" 2>/dev/null
    if ! apply "$i"; then
        RESULT[i]="STALE     (the original text is not in $file exactly once: update the mutant)"
        stale=$((stale + 1))
        printf '%-34s %s\n' "$name" "${RESULT[$i]}"
        continue
    fi
    by=""
    if [ "${MUTANTS_DRY:-0}" = 1 ]; then
        RESULT[i]="applies"
    elif ! build "$LOG/$name-build"; then
        RESULT[i]="NO BUILD  (see the mutant: it must compile)"
        broken=$((broken + 1))
    else
        # The suites it names first, then every other one.
        order=(${M_SUITES[$i]})
        for s in "${ALL[@]}"; do
            case " ${M_SUITES[$i]} " in *" $s "*) ;; *) order+=("$s") ;; esac
        done
        for s in "${order[@]}"; do
            if ! run_suite "$s" "$LOG/$name-$s"; then by=$s; break; fi
        done
        if [ -n "$by" ]; then
            RESULT[i]="caught    by $by"
            caught=$((caught + 1))
        else
            RESULT[i]="SURVIVED  every suite passed"
            survivors=$((survivors + 1))
        fi
    fi
    # Back to the original; a fresh mtime so that make rebuilds it.
    cat "$WORK/mutants/$i.saved" >"$file"
    printf '%-34s %-52s %4d s\n' "$name" "${RESULT[$i]}" $((SECONDS - t0))
done

echo
echo "mutants: $caught caught, $survivors survived, $stale stale, $broken did not build"
for i in "${!M_NAME[@]}"; do
    case ${RESULT[$i]:-} in
    SURVIVED*|STALE*|NO\ BUILD*) printf '  %-34s %s (%s): %s\n' "${M_NAME[$i]}" "${RESULT[$i]%% *}" \
                                      "${M_FILE[$i]}" "${M_WHY[$i]}" ;;
    esac
done
[ $((survivors + stale + broken)) -eq 0 ]
