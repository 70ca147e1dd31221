#!/usr/bin/env bash
# Defect: Gemini CLI loads .gemini/settings.json through strip-json-comments, so `//` comments are part of
#   its settings format; `harness agent install --host gemini` (harness/agent/hook_settings.py::read_settings,
#   settings_text.load: strict JSON) refuses such a file with "not valid JSON ... fix the file by hand first",
#   telling the user their working settings are broken, and installs nothing.
# Correct: a Gemini settings file with comments gets the hook entries with its comments and every other byte
#   kept (the promise for settings files), or at the least the refusal names the comments as the reason
#   instead of calling the file invalid.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
( git init -q -b main && harness init && harness install && echo a > a.txt && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
mkdir -p .gemini || exit 2
printf '{\n  // team theme, see wiki\n  "ui": {\n    "theme": "GitHub"\n  }\n}\n' > .gemini/settings.json
# control: the same settings without the comment install fine
cp .gemini/settings.json "$T/orig.json"
grep -v '//' "$T/orig.json" > .gemini/settings.json
harness agent install --host gemini >/dev/null 2>&1 || { echo "setup: plain settings refused"; exit 2; }
cp "$T/orig.json" .gemini/settings.json
out=$(harness agent install --host gemini 2>&1); rc=$?
echo "$out" | head -2 | sed 's/^/  /'
if [ $rc -eq 0 ]; then
  grep -q '// team theme, see wiki' .gemini/settings.json && grep -q 'harness hook agent gemini pre-tool-use' .gemini/settings.json \
    && { echo "OK: installed, comment kept"; exit 0; }
  echo "DEFECT: installed but the comment or the hooks are missing"; exit 1
fi
case "$out" in *omment*) echo "OK: refused, naming the comments"; exit 0;; esac
echo "DEFECT: a Gemini settings file Gemini itself reads (comments are its format) is refused as 'not valid JSON'"
exit 1
