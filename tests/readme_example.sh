#!/usr/bin/env bash
# readme_example.sh -- compile and run the C snippet of README.md against the
# library, so the README's example can never rot.
# usage: readme_example.sh REPO_ROOT LIBASTAR_A [EXTRA_CFLAGS]
set -euo pipefail
root=$1 lib=$2 extra=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk '/^```c$/{on=1; next} /^```$/{if (on) exit} on' "$root/README.md" > "$tmp/readme.c"
[[ -s $tmp/readme.c ]] || { echo "no \`\`\`c block in README.md"; echo "0 passed, 1 failed"; exit 1; }
cc -std=c11 -Wall -Wextra -Werror $extra -I"$root/include" "$tmp/readme.c" "$lib" -lm -o "$tmp/readme"
"$tmp/readme"
echo "1 passed, 0 failed"
