#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# False denials the "keep every folder" rule brings (regressions: each was allowed before e0dad9e). A command
# after `cd DIR &&` runs only if the cd succeeded, in DIR — yet it is judged in the line's first folder too,
# where it names the repository's own top or `.git`:
# - `cd ../downloads && tar xzf pkg.tar.gz` / `unzip -q pkg.zip` (extracting in another folder: refused as
#   "extracting into . could write the harness's record");
# - `cd vendor/lib && rm -rf .git` (dropping a vendored clone's git folder: refused as the repository's .git);
# - `mkdir -p build && cd build && tar -xf ../dist.tar`.
# Each is run afterwards to show it leaves .harness/ and .git/ alone.
# Exit 1 while any is refused, 0 when all are allowed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
mkdir -p "$T/downloads/p" vendor/lib && echo x > "$T/downloads/p/f" && tar czf "$T/downloads/pkg.tar.gz" -C "$T/downloads" p \
  && (cd "$T/downloads" && zip -qr pkg.zip p) && tar cf dist.tar -C "$T/downloads" p && git -C vendor/lib init -q || exit 2
githead=$(git rev-parse HEAD)
for c in "cd ../downloads && tar xzf pkg.tar.gz" \
         "cd ../downloads && unzip -qo pkg.zip" \
         "cd vendor/lib && rm -rf .git" \
         "mkdir -p build && cd build && tar -xf ../dist.tar"; do
  a=$(hk "$c"); echo "guard: $a : $c"; [ "$a" = deny ] && fail=1
  ( bash -c "$c" ) >/dev/null 2>&1
done
[ -d .git ] && [ "$(git rev-parse HEAD)" = "$githead" ] && git diff --quiet HEAD -- .harness && [ ! -d vendor/lib/.git ] \
  && echo "(run: the lines extracted elsewhere and removed vendor/lib/.git; .harness/ and .git/ unchanged)"
[ $fail = 1 ] && echo "DEFECT: ordinary commands after a successful cd are refused as if run in the first folder"
exit $fail
