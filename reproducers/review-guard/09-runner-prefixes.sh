#!/usr/bin/env bash
# Everyday runner prefixes (uv run, poetry run, pipenv run, watch) are not stripped: the git command behind them is not judged.
set -u
source "$(cd "$(dirname "$0")" && pwd)/lib.sh"
rc=0
for c in "uv run git commit -n -m x" "poetry run git commit -n -m x" "pipenv run git commit --no-verify -m x" "watch -n 60 git push --no-verify"; do
  v=$(verdict "$c"); echo "$v: $c"; [ "$v" = allow ] && rc=1
done
echo "control: $(verdict 'nice -n 5 git commit -n -m x'): nice -n 5 git commit -n -m x"
[ $rc = 1 ] && echo "DEFECT: git commit -n behind a runner prefix is allowed"
exit $rc
