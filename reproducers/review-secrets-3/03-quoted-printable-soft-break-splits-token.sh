#!/usr/bin/env bash
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
# Claim 3 decodes a quoted-printable soft line break only "inside an encoded run": _HIDING's
# `(?<==[0-9A-Fa-f]{2})=\r?\n(?==[0-9A-Fa-f]{2})` needs an =XX escape on BOTH sides. A real encoder
# (Python's quopri, any MTA) breaks a line at 76 columns wherever it falls, mostly between plain characters,
# and never escapes a token's letters: `... is now ghp_x7Kq2MvR9tLw4Z=\npN8s...`. Such a token is not
# joined, so no rule sees it. The command prints a mail body's quoted-printable (stdout of the evidence
# command); the evidence record, committed under .harness/, keeps both halves, and the commit hook passes it.
# Exit 1 while the token's two halves reach the evidence file; 0 when it is redacted (or the write refused).
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.inc"
cat > "$T/mail.py" <<'PY'
import quopri, sys
tok = "ghp_" + "x7Kq2MvR9tLw4ZpN8sYb3JcH6dFg1QaE5uXo"
sys.stdout.write(quopri.encodestring(("the release pipeline token for the project widget is now " + tok + " ok\n").encode()).decode())
PY
# control: the token unencoded is redacted from an evidence record
printf 'import sys\nsys.stdout.write("ghp_" + "x7Kq2MvR9tLw4ZpN8sYb3JcH6dFg1QaE5uXo\\n")\n' > "$T/plain.py"
harness evidence custom.plain -- python3 "$T/plain.py" >/dev/null 2>&1
grep -rq "x7Kq2MvR9tLw4ZpN8sYb3JcH6dFg1QaE5uXo" .harness/tasks && { echo "setup: control token not redacted" >&2; exit 2; }
ls .harness/tasks/$TID/evidence/ | grep -q . || { echo "setup: no evidence written" >&2; exit 2; }
harness evidence custom.mail -- python3 "$T/mail.py" >/dev/null 2>&1
if grep -rq "ghp_x7Kq2MvR9tLw4Z=" .harness/tasks && grep -rq "pN8sYb3JcH6dFg1QaE5uXo" .harness/tasks; then
  echo "token halves written to: $(grep -rl 'pN8sYb3JcH6dFg1QaE5uXo' .harness/tasks | xargs -n1 basename | tr '\n' ' ')"
  git add -A; git commit -qm ev >/dev/null 2>&1 && echo "commit hook: passed" || echo "commit hook: refused"
  exit 1
fi
exit 0
