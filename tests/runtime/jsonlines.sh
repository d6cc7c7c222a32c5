#!/usr/bin/env bash
# Checks lantern -f json output: every non-empty line of FILE is exactly one
# JSON object {"type": ..., "data": ...}, in UTF-8, parsed strictly (no raw
# control characters in strings). Prints "json: N lines valid", or the first
# bad line and exits 1.
exec python3 - "$1" <<'PY'
import json, sys
n = 0
with open(sys.argv[1], "rb") as f:
    for no, raw in enumerate(f, 1):
        if raw == b"\n":
            continue
        try:
            line = raw.decode("utf-8")
            if not line.endswith("\n"):
                raise ValueError("no newline at the end")
            v = json.loads(line)
            if not isinstance(v, dict) or set(v) != {"type", "data"}:
                raise ValueError("not a {type, data} object")
        except ValueError as e:
            print(f"json: line {no} invalid ({e}): {raw[:200]!r}")
            sys.exit(1)
        n += 1
print(f"json: {n} lines valid")
PY
