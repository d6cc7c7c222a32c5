#!/usr/bin/env bash
# gone.sh FILE: wait (up to 5 s: the kernel frees objects a little after
# their last fd closes) until none of the objects listed in FILE by
# objects.sh exists any more. Prints "clean", or what is left.
for _ in $(seq 50); do
	left=$(while read -r kind id; do
		bpftool "$kind" show id "$id" > /dev/null 2>&1 && echo "$kind $id"
	done < "$1")
	if [ -z "$left" ]; then
		echo clean
		exit 0
	fi
	sleep 0.1
done
echo "left behind: $left"
exit 1
