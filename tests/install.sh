#!/usr/bin/env bash
# make install and make uninstall, into a temporary DESTDIR with PREFIX=/usr
# (no root needed): the binary, the man page and the bash completion land
# where they belong with their modes; the page formats without a single
# groff warning; every option that `lantern -h` and `lantern trace -h`
# print has an entry in the page (in OPTIONS and LANTERN TRACE), so that
# the help and the page cannot drift apart; the completion loads and
# completes; make uninstall removes all three.
#
#   tests/install.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

fail() {
	echo "FAIL install: $*" >&2
	exit 1
}

for tool in man groff; do
	command -v "$tool" >/dev/null ||
		fail "$tool is missing: run make deps (it installs man-db, which brings man and groff)"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest
bin=$dest/usr/bin/lantern
page=$dest/usr/share/man/man8/lantern.8
comp=$dest/usr/share/bash-completion/completions/lantern

# make's own flags stay out: this make is not a child of the caller's
run_make() {
	if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory BUILD="$build" \
		DESTDIR="$dest" PREFIX=/usr "$@" >"$tmp/make.log" 2>&1; then
		cat "$tmp/make.log" >&2
		fail "make $* failed"
	fi
}

# install
run_make install
for f in "$bin:755" "$page:644" "$comp:644"; do
	path=${f%:*}
	[ -f "$path" ] || fail "make install did not install ${path#"$dest"}"
	mode=$(stat -c %a "$path")
	[ "$mode" = "${f##*:}" ] || fail "${path#"$dest"} has mode $mode, not ${f##*:}"
done
"$bin" -V >/dev/null || fail "the installed lantern does not run"

# the page: man and groff have nothing to say
if ! LC_ALL=C.UTF-8 MANWIDTH=80 man -l --warnings=all "$page" >"$tmp/page.txt" 2>"$tmp/man.err" ||
	[ -s "$tmp/man.err" ]; then
	cat "$tmp/man.err" >&2
	fail "man -l warns about lantern.8"
fi
grep -q 'lantern trace' "$tmp/page.txt" || fail "man -l lantern.8 printed no page"
for dev in ps utf8; do
	groff -man -T"$dev" -ww -z "$page" 2>"$tmp/groff.err" || true
	if [ -s "$tmp/groff.err" ]; then
		cat "$tmp/groff.err" >&2
		fail "groff -man -T$dev -ww warns about lantern.8"
	fi
done

# The options of a help text: on the lines of its OPTIONS: section that
# start with '-', the -x and --long words before the description (which
# starts after two spaces).
help_options() {
	awk '/^OPTIONS:/ { on = 1; next }
	     on && /^[^ ]/ { on = 0 }
	     on && /^ +-/ {
		sub(/^ +/, "")
		i = index($0, "  ")
		col = i ? substr($0, 1, i - 1) : $0
		n = split(col, w, /[ ,]+/)
		for (k = 1; k <= n; k++)
			if (w[k] ~ /^--?[A-Za-z][-A-Za-z]*$/)
				print w[k]
	     }'
}

# The entries of a section of the page: the tag lines of its .TP
# paragraphs, with roff's escapes and quotes taken out.
page_entries() {
	sed -n "/^\\.SH $1\$/,/^\\.SH /p" "$page" |
		awk 'prev ~ /^\.TP/ { print } { prev = $0 }' |
		sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\f([A-Z][A-Z]//g' \
			-e 's/\\&//g' -e 's/\\|//g' -e 's/"//g'
}

check_options() { # SECTION COMMAND...
	local section=$1 opt n=0
	shift
	page_entries "$section" >"$tmp/entries"
	"$@" -h | help_options >"$tmp/options"
	while read -r opt; do
		n=$((n + 1))
		grep -Eq -- "(^|[^[:alnum:]-])$opt([^[:alnum:]-]|\$)" "$tmp/entries" ||
			fail "'lantern ${*:2}${2:+ }-h' lists $opt, which lantern.8 does not describe under $section"
	done <"$tmp/options"
	[ "$n" -ge 10 ] || fail "'lantern ${*:2}${2:+ }-h': only $n options found in its help"
}
check_options OPTIONS "$bin"
check_options 'LANTERN TRACE' "$bin" trace

# the completion, sourced by a plain non-interactive bash
complete_line() { # CWORD WORDS...: the candidates, one a line
	# shellcheck disable=SC2016 # the script is bash -c's, expanded there
	env -u BASH_ENV bash --norc --noprofile -c '
		source "$1" || exit 1
		spec=$(complete -p lantern) || exit 1
		fn=${spec#*-F }
		fn=${fn%% *}
		COMP_CWORD=$2
		shift 2
		COMP_WORDS=("$@")
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		"$fn" lantern "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"' _ "$comp" "$@"
}
expect_completion() { # WANT CWORD WORDS...
	local want=$1
	shift
	complete_line "$@" >"$tmp/comp" 2>&1 || true
	grep -qx -- "$want" "$tmp/comp" ||
		fail "completing '${*:2}' does not offer $want (got: $(tr '\n' ' ' <"$tmp/comp"))"
}
expect_completion folded 2 lantern -f ''
expect_completion --flamegraph 1 lantern --fl
expect_completion tracepoint: 2 lantern -l tr
expect_completion trace 1 lantern tra
expect_completion --timeline 2 lantern trace --ti
expect_completion avg-time 3 lantern trace -S av

# uninstall
run_make uninstall
for path in "$bin" "$page" "$comp"; do
	[ ! -e "$path" ] || fail "make uninstall left ${path#"$dest"}"
done

echo "install: ok"
