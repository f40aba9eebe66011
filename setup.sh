#!/bin/sh
# undercroft — the README's two commands, from a bare Debian 12 (no make, no
# compiler, no git): install what is missing with apt-get, then run make.
#
#   ./setup.sh demo    build and write build/demo/goblin-king.pdf
#   ./setup.sh check   build and run every test (what CI runs)
#   ./setup.sh deps    only install the Debian packages
#
# POSIX sh on purpose: a minimal debian:12 has dash and apt-get, nothing else
# we need.  Run as root, or as a user who may use sudo.
set -eu

# Everything the build, the tests and the demo use: the compiler and make,
# the libraries' -dev packages, Check for the unit tests, the PDF tools and
# python3 the end-to-end tests inspect the output with (mupdf-tools: what a
# reader extracts), clang (+ its compiler-rt) for the fuzz targets and
# valgrind (+ libc's symbols, which its memcheck needs to recognise ld.so)
# for the memcheck run.
PACKAGES="make gcc libc6-dev pkg-config libcairo2-dev libpango1.0-dev libhpdf-dev \
libglib2.0-dev check poppler-utils qpdf mupdf-tools python3 clang libclang-rt-dev valgrind libc6-dbg"

usage() {
    echo "usage: $0 demo|check|deps" >&2
    exit 64
}

# The packages of $PACKAGES that dpkg does not have installed.
missing_packages() {
    missing=""
    for p in $PACKAGES; do
        status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
        case "$status" in
            *"ok installed"*) ;;
            *) missing="$missing $p" ;;
        esac
    done
    echo "$missing"
}

install_packages() {
    if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
        echo "setup: not a Debian system; install these by hand: $PACKAGES" >&2
        return 0
    fi
    missing=$(missing_packages)
    [ -n "$missing" ] || return 0
    sudo=""
    if [ "$(id -u)" != 0 ]; then
        if ! command -v sudo >/dev/null 2>&1; then
            echo "setup: missing packages:$missing; run as root (or install sudo)" >&2
            exit 77
        fi
        sudo=sudo
    fi
    echo "setup: installing$missing"
    $sudo apt-get update -qq
    # shellcheck disable=SC2086 # $missing is a list of package names
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        $missing >/dev/null
}

[ $# -eq 1 ] || usage
cd "$(dirname "$0")"
case "$1" in
    deps) install_packages ;;
    demo | check)
        install_packages
        # UCR_DEPS_DONE: make's own deps target need not ask dpkg again.
        exec make --no-print-directory UCR_DEPS_DONE=1 "$1"
        ;;
    *) usage ;;
esac
