#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# FALSE DENIAL. bypass.py _steers marks the whole line "steered" when ANY command carries HOME=, CDPATH= or
# OLDPWD= -- also as a prefix assignment, which only that one command's environment sees (the shell's own
# HOME/OLDPWD are untouched). After that every cd is "a cd it cannot work out" and the rest is refused, even a
# cd that does not depend on HOME at all (`cd src` only ever reads CDPATH):
#   HOME=/tmp/h npm ci && cd src && ls        -> denied ("cannot work out `cd src`")
#   OLDPWD=/x ls && cd src && ls              -> denied
# Exit 1 while the defect exists (any of these denied), 0 when fixed, 2 on setup failure.
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
mkdir -p src docs
for c in "HOME=/tmp/h npm ci && cd src && ls" \
         "HOME=/tmp/h pytest tests/ && cd docs && make html" \
         "OLDPWD=/x ls && cd src && ls" \
         "HOME=\$PWD/.home pip install --user -e . && cd src && python -m app"; do
  a=$(hk "$c"); echo "guard: $a : $c"; [ "$a" = deny ] && fail=1
done
[ $fail = 1 ] && echo "DEFECT: a HOME/OLDPWD given to one command only makes every later cd on the line refused"
exit $fail
