#!/usr/bin/env bash
# Defect (harness/core/redact.py _folded_view/_folded_chars, LOOKALIKES): redaction folds only the Cyrillic and
# Greek look-alikes of its table and what NFKC changes, so a token keeps whole when one of its letters is
# (a) a Latin look-alike NFKC leaves alone (U+0261 script `ɡ` in `ɡhp_…`, small capital `ᴏ`), (b) a Cherokee or
# Armenian letter that reads as ASCII (`Ꭺ` U+13AA in `ᎪKIA…`, `հ` U+0570 in `gհp_…`), or (c) an ASCII letter carrying
# a combining mark (`gh\u0301p_…`: no precomposed form, NFKC keeps it; the mark is not default-ignorable so the
# invisible-character view does not drop it). A reader recovers each token at a glance (or by stripping marks /
# folding confusables), yet it reaches disk in clear. Control: the same tokens with a Cyrillic `р`, in fullwidth or
# plain ASCII are redacted.
# Correct behaviour: a token spelled with any letter that reads as its ASCII one (Unicode's confusables for
# ASCII letters and digits, at least Latin small capitals / IPA letters, Cherokee and Armenian look-alikes) or with
# combining marks on its letters (marks dropped in the folded view) is redacted over its characters as written.
# Exit 1 while the defect is present, 0 when fixed, 2 on a setup failure.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd); export PATH="$here/.venv/bin:$PATH"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
export GIT_AUTHOR_NAME=D GIT_AUTHOR_EMAIL=d@example.com GIT_COMMITTER_NAME=D GIT_COMMITTER_EMAIL=d@example.com
mkdir -p "$HOME"
command -v harness >/dev/null || { echo "setup failed: no harness in $here/.venv"; exit 2; }
cd "$T"
python - <<'PY'
import sys
try:
    from harness.core.redact import compile_patterns
    red = compile_patterns([])
except Exception as exc:
    print(f"setup failed: {exc!r}"); sys.exit(2)
body = "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
controls = {"plain ghp_": "ghp_" + body, "Cyrillic p": "gh\u0440_" + body, "fullwidth": "\uff47\uff48\uff50_" + body,
            "plain AKIA": "AKIAIOSFODNN7EXAMPLE"}
for name, tok in controls.items():
    if "[REDACTED:" not in red.redact(f"token {tok} end"):
        print(f"setup failed: control {name} not redacted"); sys.exit(2)
cases = {"Latin script g U+0261": "\u0261hp_" + body,
         "Latin small capital o U+1D0F": "AKIAI\u1d0fSFODNN7EXAMPLE",
         "Cherokee A U+13AA": "\u13aaKIAIOSFODNN7EXAMPLE",
         "Armenian h U+0570": "g\u0570p_" + body,
         "combining acute U+0301 on h": "gh\u0301p_" + body}
bad = 0
for name, tok in cases.items():
    out = red.redact(f"token {tok} end")
    if "[REDACTED:" not in out:
        bad += 1
        print(f"DEFECT: {name}: kept in clear: {out!r}")
    else:
        print(f"ok: {name}: {out!r}")
sys.exit(1 if bad else 0)
PY
