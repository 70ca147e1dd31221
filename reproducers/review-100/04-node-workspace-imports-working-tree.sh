#!/usr/bin/env bash
# Defect: harness/findings/checkout_env.py `lent` links the repository's git-ignored `node_modules/` (it has
#   `.bin/`, and docs/concepts.md names it) into --failing-at's throw-away checkout. In an npm/yarn/pnpm
#   workspace, node_modules/<pkg> is a RELATIVE symlink (`lib -> ../packages/lib`), resolved from where the
#   folder really is: the working tree. So `require('lib')` in the checkout loads the WORKING TREE's
#   packages/lib, not the checkout's; the docs' "the code it imports is the checkout's" holds only for Python's
#   PYTHONPATH. (a) With the fix reverted in the working tree (uncommitted), `--failing-at HEAD` — a commit that
#   holds the fix — is accepted: the confirming reproducer fails there "as it did" (F-0325's guard fooled; the
#   ledger records a regression test failing at a fixed commit). (b) Honest use: the commit before the fix is
#   refused, its reproducer/test "passing there" on the working tree's fixed code.
# Correct: the checkout's code is what runs there (e.g. do not lend a folder holding links that resolve into the
#   repository's working tree, or lend a copy whose workspace links point into the checkout); (a) refused, (b) accepted.
# Exit 1 while the defect is present, 0 when fixed, 2 on setup failure.
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
T=$(mktemp -d) || exit 2; trap 'rm -rf "$T"' EXIT
export HOME="$T/home"; mkdir -p "$HOME"; R="$T/repo"; mkdir "$R"; cd "$R" || exit 2
command -v node >/dev/null && command -v npm >/dev/null || exit 2
( git init -q -b main && harness init && harness install && harness task new t && mkdir -p packages/lib \
  && echo '{"name":"root","private":true,"workspaces":["packages/*"]}' > package.json \
  && echo '{"name":"lib","version":"1.0.0","main":"index.js","bin":{"lib-answer":"cli.js"}}' > packages/lib/package.json \
  && echo 'module.exports.answer = () => 42;' > packages/lib/index.js \
  && printf '#!/usr/bin/env node\nconsole.log(require("./index.js").answer())\n' > packages/lib/cli.js \
  && npm install --offline --no-audit --no-fund && printf 'node_modules/\n' > .gitignore \
  && git add -A && git commit -qm init ) >/dev/null 2>&1 || exit 2
[ -L node_modules/lib ] && [ -d node_modules/.bin ] || exit 2
cat > repro.js <<'S'
const lib = require('lib');
console.log('lib from', require.resolve('lib'), 'answer', lib.answer());
process.exit(lib.answer() === 41 ? 0 : 1);
S
cat > "$T/f.yaml" <<'Y'
- type: suspected_defect
  severity: major
  category: correctness
  title: lib.answer() is off by one
  claim: lib.answer() returns 42 where 41 is required
  location: {file: packages/lib/index.js, line: 1}
  failure_scenario: [call answer()]
  expected_behavior: "41"
  possible_actual_behavior: "42"
  recommended_reproducer: {type: unit_test, description: run it, command: [node, repro.js]}
Y
harness finding propose --file "$T/f.yaml" >/dev/null 2>&1 || exit 2
harness finding reproduce F-0001 >/dev/null 2>&1 || exit 2
harness finding list 2>/dev/null | grep -q "F-0001 *CONFIRMED" || { echo "setup: not confirmed"; exit 2; }
BEFORE=$(git rev-parse HEAD)
echo 'module.exports.answer = () => 41;' > packages/lib/index.js
git add -A && git commit -qm "fix lib" >/dev/null 2>&1 || exit 2
FIXED=$(git rev-parse HEAD)
printf "const assert = require('assert');\nconsole.log('lib from', require.resolve('lib'));\nassert.strictEqual(require('lib').answer(), 41);\n" > test_answer.js

OUT_B=$(harness finding regression F-0001 test_answer.js --failing-at "$BEFORE" -- node test_answer.js 2>&1); RC_B=$?
echo "--- (b) --failing-at $BEFORE (before the fix): rc=$RC_B"
echo "$OUT_B" | grep -E "lib from|harness:|F-0001" | head -4
echo 'module.exports.answer = () => 42;' > packages/lib/index.js      # the fix reverted in the working tree only
OUT_A=$(harness finding regression F-0001 test_answer.js --failing-at "$FIXED" -- node test_answer.js 2>&1); RC_A=$?
git checkout -q packages/lib/index.js
echo "--- (a) --failing-at $FIXED (holds the fix), fix reverted in the working tree: rc=$RC_A"
echo "$OUT_A" | grep -E "lib from|harness:|F-0001" | head -4
if printf '%s\n%s\n' "$OUT_A" "$OUT_B" | grep -q "lib from $R/"; then
  echo "DEFECT: code run in the checkout of an old commit required the WORKING TREE's packages/lib (through the lent node_modules)"
  exit 1
fi
exit 0
