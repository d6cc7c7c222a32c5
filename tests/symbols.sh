#!/usr/bin/env bash
# Symbol hygiene: nothing lantern defines may stand in for a function of a
# library it links or opens (libmicrohttpd once bound its `send` to trace's
# instruction emitter).
#
#   tests/symbols.sh BUILD_DIR
#
# 1. every global symbol of build/src/FOLDER/*.o starts with a prefix of
#    FOLDER's row in src/README.md's layer table;
# 2. none is also defined by libc, libbpf, libelf, libdw, zlib, liblzma, libprotobuf-c or
#    libmicrohttpd (their shared objects, and the static archives that are
#    linked in);
# 3. the executable's dynamic symbol table defines only copies of library
#    data (stdout, optarg, ...: versioned), nothing of lantern's own;
# 4. the layering, at link level: what FOLDER's objects use of lantern's
#    own is defined in FOLDER or in a folder its row may include.
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
doc=src/README.md
fail=0

declare -A prefixes allowed
while IFS='|' read -r _ folder deps pfx _; do
	folder=$(echo "$folder" | tr -d ' `')
	[ -n "$folder" ] || continue
	prefixes[$folder]=$(echo "$pfx" | tr -d '`')
	allowed[$folder]=" $folder $(echo "$deps" | tr -d '`') "
done < <(sed -n '/<!-- layers -->/,/<!-- \/layers -->/p' "$doc" | grep '^| `')
if [ ${#prefixes[@]} -lt 5 ]; then
	echo "FAIL symbols: no prefix column in the layer table of $doc"
	exit 1
fi

ours=$(mktemp)
theirs=$(mktemp)
trap 'rm -f "$ours" "$theirs"' EXIT

objs=$(find "$build/src" -mindepth 2 -name '*.o' | sort)
if [ -z "$objs" ]; then
	echo "FAIL symbols: no objects under $build/src (build first)"
	exit 1
fi
for o in $objs; do
	folder=$(echo "${o#"$build"/src/}" | cut -d/ -f1)
	for name in $(nm -g --defined-only "$o" | awk '{print $3}'); do
		echo "$name $o" >> "$ours"
		ok=0
		for p in ${prefixes[$folder]:-}; do
			case "$name" in "$p"*) ok=1 ;; esac
		done
		if [ $ok = 0 ]; then
			echo "FAIL symbols: $o defines '$name', which does not start with ${folder}'s prefix (${prefixes[$folder]:-none}; $doc)"
			fail=1
		fi
	done
done

# the libraries: shared objects by their soname, archives where linked statically
libfiles=$(gcc -print-file-name=libc.so.6)
for pkg in libbpf libelf libdw zlib liblzma libprotobuf-c libmicrohttpd; do
	dir=$(pkg-config --variable=libdir "$pkg" 2>/dev/null)
	[ -z "$dir" ] && continue
	for l in $(pkg-config --libs-only-l "$pkg" | sed 's/-l//g'); do
		for f in "$dir/lib$l.so" "$dir/lib$l.a"; do
			[ -e "$f" ] && libfiles="$libfiles $(readlink -f "$f")"
		done
	done
done
for f in $libfiles; do
	case "$f" in
	*.a) nm -g --defined-only "$f" 2>/dev/null | awk 'NF == 3 {print $3}' ;;
	*) nm -D --defined-only "$f" 2>/dev/null | awk '{sub(/@.*/, "", $3); print $3}' ;;
	esac
done | sort -u > "$theirs"
if [ "$(wc -l < "$theirs")" -lt 1000 ]; then
	echo "FAIL symbols: could not read the libraries' symbols ($libfiles)"
	exit 1
fi
for name in $(cut -d' ' -f1 "$ours" | sort -u | comm -12 - "$theirs"); do
	echo "FAIL symbols: $(grep "^$name " "$ours" | cut -d' ' -f2) defines '$name', which a library lantern links or opens defines too"
	fail=1
done

# 4: each undefined symbol of a folder's object, where lantern defines it
declare -A home
while read -r name o; do
	home[$name]=$(echo "${o#"$build"/src/}" | cut -d/ -f1)
done < "$ours"
for o in $objs; do
	folder=$(echo "${o#"$build"/src/}" | cut -d/ -f1)
	for name in $(nm -u "$o" | awk '{print $2}'); do
		h=${home[$name]:-}
		[ -z "$h" ] && continue
		case "${allowed[$folder]:-}" in
		*" $h "*) ;;
		*)
			echo "FAIL symbols: $o uses $name of src/$h, but $folder may not use $h ($doc)"
			fail=1
			;;
		esac
	done
done

if [ -x "$build/lantern" ]; then
	for name in $(nm -D --defined-only "$build/lantern" | awk '$3 !~ /@/ {print $3}'); do
		echo "FAIL symbols: $build/lantern exports '$name' dynamically"
		fail=1
	done
fi

[ $fail = 0 ] && echo "symbols: $(wc -l < "$ours") globals, each with its folder's prefix, none a library's, used only by the layers above"
exit $fail
