#!/bin/bash
# SPDX-License-Identifier: MIT
# B9 installed footprint: the binary (stripped copy, so a -g build compares
# with a packaged one) and binary + the shared libraries it loads, minus the
# C runtime (ld.so, libc, libm, libpthread, libdl, librt), as ldd lists them.
. "$(dirname "$0")/lib.sh"

bin_kb()
{
	strip --strip-all -o "$WORK/stripped" "$1" 2>/dev/null || cp "$1" "$WORK/stripped"
	echo $(($(stat -c %s "$WORK/stripped") / 1024))
}
libs_kb()
{
	ldd "$1" 2>/dev/null | awk '$3 ~ /^\// { print $3 }' |
		grep -vE '/(ld-linux[^/]*|libc|libm|libpthread|libdl|librt)\.so' |
		while read -r l; do stat -L -c %s "$l"; done |
		awk '{ s += $1 } END { print int(s / 1024) }'
}
declare -A bin tot
for tool in lantern bpftrace; do
	path=$(command -v "$(tool_cmd $tool)")
	if [ -z "$path" ]; then
		bin[$tool]=n/a tot[$tool]=n/a
		continue
	fi
	b=$(bin_kb "$path")
	bin[$tool]=$(calc "$b / 1024")
	tot[$tool]=$(calc "($b + $(libs_kb "$path")) / 1024")
done
libs=$(ldd "$(command -v "$LANTERN")" | awk '$3 ~ /^\// { print $1 }' |
	grep -vE '^(ld-linux|libc|libm|libpthread|libdl|librt)\.so' | tr '\n' ' ')
note "B9 shared libraries counted for lantern: ${libs:-none (libbpf/libelf/zlib linked in statically?)}"
row B9 'B9 binary, stripped' MB "${bin[lantern]}" bpftrace "${bin[bpftrace]}" '<= 2'
row B9 'B9 binary + non-libc shared libraries' MB "${tot[lantern]}" bpftrace "${tot[bpftrace]}" -
