#!/usr/bin/env bash
# Defect: `harness install` into a hooks folder managed by husky (core.hooksPath=.husky/_, husky v9's layout)
#   renames husky's hook to `<stage>.pre-harness` and chains it (harness/install/shims.py::_write_shims,
#   hooks/native-hook: `"$0.pre-harness"`). Husky's hook finds the user's script by its own file name
#   (`n=$(basename "$0")` in .husky/_/h: `.husky/pre-commit.pre-harness`, which does not exist), so it exits 0
#   and the user's husky pre-commit script (lint, tests) never runs again -- while install prints
#   "kept your pre-commit hook: it runs first". Same for any hook that dispatches on its own name
#   (husky 4-9, overcommit, hand-made multiplexers).
# Correct: the user's hook keeps running at every stage it ran at before (chained under a name it still
#   answers to, or the harness call added to the user's script), or install refuses/changes nothing and says
#   how to add the harness to husky -- never "kept ... it runs first" for a hook that no longer runs.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
git init -q -b main || exit 2
# husky v9's layout, byte for byte what `husky` (npm's prepare script) writes: .husky/_/h and one
# two-line hook per stage that sources it; the user's own script is .husky/pre-commit.
mkdir -p .husky/_ || exit 2
printf 'echo HUSKY-USER-SCRIPT-RAN\n' > .husky/pre-commit
cat > .husky/_/h <<'H'
#!/usr/bin/env sh
[ "$HUSKY" = "2" ] && set -x
n=$(basename "$0")
s=$(dirname "$(dirname "$0")")/$n

[ ! -f "$s" ] && exit 0

if [ -f "$HOME/.huskyrc" ]; then
	echo "husky - '~/.huskyrc' is DEPRECATED, please move your code to ~/.config/husky/init.sh"
fi
i="${XDG_CONFIG_HOME:-$HOME/.config}/husky/init.sh"
[ -f "$i" ] && . "$i"

[ "${HUSKY-}" = "0" ] && exit 0

export PATH="node_modules/.bin:$PATH"
sh -e "$s" "$@"
c=$?

[ $c != 0 ] && echo "husky - $n script failed (code $c)"
[ $c = 127 ] && echo "husky - command not found in PATH=$PATH"
exit $c
H
echo '*' > .husky/_/.gitignore
for h in pre-commit pre-merge-commit post-commit post-merge post-rewrite pre-push commit-msg; do
  printf '#!/usr/bin/env sh\n. "${0%%/*}/h"\n' > ".husky/_/$h" && chmod +x ".husky/_/$h" || exit 2
done
git config core.hooksPath .husky/_ || exit 2
echo x > x && git add -A || exit 2
out=$(git commit -qm base 2>&1) || exit 2
case "$out" in *HUSKY-USER-SCRIPT-RAN*) ;; *) echo "setup: husky layout does not run the user script"; exit 2;; esac

harness init >/dev/null 2>&1 || exit 2
inst=$(harness install 2>&1); irc=$?
echo "$inst" | sed 's/^/  install: /' | head -3
if [ $irc -ne 0 ]; then
  # A fix that refuses must leave husky's hooks as they were.
  [ ! -e .husky/_/pre-commit.pre-harness ] && grep -q '/h"' .husky/_/pre-commit && { echo "OK: install refused, husky untouched"; exit 0; }
  echo "install failed and left husky's hooks changed"; exit 1
fi
( git add .harness && git commit -qm adopt ) >/dev/null 2>&1   # adoption commit (either outcome is fine here)
echo y > y && echo 'not: [valid' > .harness/config.yaml && git add y .harness || exit 2
out=$(git commit -qm 'bad config' 2>&1); rc=$?
echo "$out" | sed 's/^/  commit: /' | head -4
if [[ "$out" != *HUSKY-USER-SCRIPT-RAN* ]]; then
  echo "DEFECT: install said it kept and chains husky's pre-commit hook, yet the user's .husky/pre-commit no longer runs"
  exit 1
fi
[ $rc -ne 0 ] || { echo "the user's script runs, but the harness no longer checks the commit"; exit 1; }
echo "OK: the user's husky script and the harness both run at commit"; exit 0
