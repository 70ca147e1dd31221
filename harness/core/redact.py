"""Secret redaction for recorded evidence (pure: text in, text out).

Every byte of command output the harness keeps passes through :class:`Redactor`
before it reaches disk, so patterns err towards redacting, yet stay anchored on a
recognisable prefix or a ``key=`` context so ordinary output (hex ids, UUIDs,
prose) survives and the evidence stays readable.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass

from harness.core import regex_needs
from harness.errors import HarnessError

# Characters that may appear in an opaque token (RFC 6750 b64token plus base64).
_TOK = r"A-Za-z0-9._~+/\-"
# A value after ``key=`` / ``key: ``: the quoted string when quoted (the lookbehind
# sees the opening quote the prefix consumed), otherwise up to whitespace/quote/
# separator. One alternation because Python forbids reusing a group name.
# Inside quotes a backslash escapes the next character (``"hu\"nter2"`` is one value), unless
# the escaped quote is the closing one of JSON-in-JSON (``\"pw\"}``).
_QUOTED = r"""(?:[^{q}\\\n]|\\[^{q}\n]|\\{q}(?![\s,;}}\]]|$))+(?=\\?{q})"""
_VALUE = (r"""(?P<secret>(?<=")""" + _QUOTED.format(q='"') + r"|(?<=')" + _QUOTED.format(q="'")
          + r"""|[^\s"'`,;]+)""")
# ``key`` followed by ``=``/``:`` (optionally quoted, as in JSON/YAML), but not ``==``.
_ASSIGN = r"""(?:\\?["'])?[ \t]*(?:=>|[:=](?!=))[ \t]*(?:\\?["'])?"""  # `=>`: Perl, PHP, Ruby hashes
# Command-line flags whose value is a secret: --password, -token, --db-password, --api-key ...
# A bare "key" only as the whole flag (--key): --sort-key or --primary-key name no secret.
# "--no-token" style switches take no value, so what follows them is left alone.
_FLAG_NAME = (r"(?!no[-_])(?:[a-z0-9]+[-_]){0,3}(?:password|passwd|passphrase|pass|secret|token"
              r"|api[-_]?key|private[-_]?key|access[-_]?key|secret[-_]?key|credentials?)|key")
_PEM_HEAD = r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
_PEM_TAIL = r"-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"

# Every quantifier a failed attempt can walk is bounded ({0,31}, {0,256}, ...) so a
# long run like "a-a-a-..." costs linear, not quadratic, time.
# Order matters: whole PEM blocks first, then self-identifying token formats, then
# context-based rules, so a token inside ``Authorization:`` or ``token=`` is labelled
# by its kind and the context rule then sees only the marker and leaves it alone.
BUILTIN_PATTERNS: tuple[tuple[str, str], ...] = (
    # A complete block, or a BEGIN whose END fell outside the (truncated) window.
    ("private_key", rf"(?s){_PEM_HEAD}.*?(?:{_PEM_TAIL}|\Z)"),
    # An END left after the rule above has no BEGIN: the window started inside the
    # key, so everything before it is key material. Greedy to cover repeated ENDs.
    ("private_key", rf"\A[\s\S]*{_PEM_TAIL}"),
    # No word-boundary anchors on self-identifying prefixes: a token right after an escape
    # code (``\x1b[31mghp_…``), a ``\u001b`` of JSON, or glued to other word characters is
    # still that token. Each prefix is distinctive enough to stand alone.
    ("anthropic_key", r"sk-ant-(?:(?!sk-ant-)[A-Za-z0-9_\-]){20,}"),
    # The digit lookahead keeps hyphenated words like ``sk-some-long-name`` intact; glued
    # to a letter ("risk-…", "desk-…") it must also look like a key: mixed case, 32+ long.
    ("openai_key", r"(?:(?<![A-Za-z])|(?<=[\[;0-9]m)|(?=sk-(?=[A-Za-z0-9_\-]{0,256}[A-Z])[A-Za-z0-9_\-]{32}))"
                   r"sk-(?!ant-)(?=[A-Za-z0-9_\-]{0,256}[0-9])[A-Za-z0-9_\-]{20,}"),
    # A body stops where the next token of its kind starts: the same token written twice
    # without a separator (to stdout and stderr, say) must not leave the second one bare.
    ("github_token", r"(?:gh[pousr]_(?:(?!gh[pousr]_)[A-Za-z0-9]){36,251}"
                     r"|github_pat_(?:(?!github_pat_)[A-Za-z0-9_]){30,})"),
    ("gitlab_token", r"glpat-(?:(?!glpat-)[A-Za-z0-9_\-]){20,}"),
    ("slack_token", r"xox[abprs]-(?:(?!xox[abprs]-)[A-Za-z0-9\-]){10,}"),
    ("google_api_key", r"AIza[0-9A-Za-z_\-]{35}"),
    ("stripe_key", r"[sr]k_(?:live|test)_[0-9A-Za-z]{16,}"),
    ("npm_token", r"npm_(?:(?!npm_)[A-Za-z0-9]){36,}"),
    ("aws_access_key_id", r"(?:AKIA|ASIA)[A-Z0-9]{16}"),
    ("jwt", r"eyJ[A-Za-z0-9_\-]{1,4096}\.[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]*"),
    # aws_secret_access_key / AWS_SECRET_ACCESS_KEY / "SecretAccessKey": ...
    ("aws_secret_key", rf"(?i)secret_?access_?key{_ASSIGN}{_VALUE}"),
    # Header context: redact whatever credential follows, whatever its length.
    (
        "authorization",
        rf"(?i)\bauthorization{_ASSIGN}"
        rf"(?:(?:bearer|basic|token|bot|digest|negotiate)[ \t]+)?{_VALUE}",
    ),
    # Free-standing ``bearer X``: X must carry a digit or be long, so prose such as
    # "bearer instrument" survives.
    (
        "bearer_token",
        rf"(?i)\bbearer[ \t]+(?P<secret>(?=[A-Za-z._~+/\-]{{0,256}}[0-9]|[{_TOK}]{{24}})[{_TOK}]{{8,}}=*)",
    ),
    # scheme://user:password@host — the password runs to the last '@' before whitespace, so
    # an unescaped '@', '/', '#' or ':' inside it stays inside. Bounded, as above.
    # ``:\/\/`` too: JSON may escape the slashes. No left anchor: the scheme may follow an
    # escape code or a word; a scheme is at most 32 characters, so each try stays short.
    ("url_password", r"(?i)[a-z][a-z0-9+.\-]{0,31}:(?:\\?/){2}[^\s:/?#@\[\]]*:(?P<secret>\S{1,1024})@"),
    # "--password S3cret", "-token abc" (the "=" form is secret_assignment's): a flag from
    # a command line echoed in output, then whitespace, then its value.
    ("secret_flag", rf"(?i)(?<![A-Za-z0-9_\-])-{{1,2}}(?:{_FLAG_NAME})[ \t]+[\"']?{_VALUE}"),
    # password=..., DB_PASSWORD: ..., "api_key": "...". No left boundary is needed
    # (prefixes like DB_ are fine) and a trailing letter/digit excludes max_tokens=.
    # No bare "pwd": env dumps print PWD=/some/dir.
    (
        "secret_assignment",
        r"(?i)(?:password|passwd|passphrase|secret|secret[_\-]?key|client[_\-]?secret"
        r"|token|api[_\-]?key|access[_\-]?key|private[_\-]?key)(?![A-Za-z0-9])"
        rf"{_ASSIGN}{_VALUE}",
    ),
)

# A span that is already nothing but markers was redacted by an earlier rule.
_MARKERS_ONLY = re.compile(r"(?:\[REDACTED:[a-z_]+(?::\w+)?\])+")
_MARKER = re.compile(r"\[REDACTED:[a-z_]+(?::\w+)?\]")
_SECRET_FLAG = re.compile(rf"(?i)-{{1,2}}(?:{_FLAG_NAME})")
# Environment variables whose value is taken for a secret. AUTH but not AUTHOR: git's
# GIT_AUTHOR_EMAIL is no secret. Values under 8 characters would redact ordinary words.
_SECRET_ENV = re.compile(r"(?i)TOKEN|SECRET|PASS|KEY|CRED|AUTH(?!OR)")
MIN_LITERAL = 8
# surrogateescape's stand-in for an undecodable byte -> how backslashreplace writes it
_ESCAPES = {0xDC00 + b: f"\\x{b:02x}" for b in range(0x80, 0x100)}


@dataclass(frozen=True)
class _Rule:
    name: str
    regex: re.Pattern[str]


@dataclass(frozen=True)
class Redactor:
    """Applies its rules in order; built by :func:`compile_patterns`."""

    rules: tuple[_Rule, ...]

    def redact(self, text: str) -> str:
        lowered: list[str] = []  # the text case-folded, once per version of the text

        def lower() -> str:
            if not lowered:
                lowered.append(regex_needs.folded(text))
            return lowered[0]

        for rule in self.rules:
            # A rule whose required literals are absent cannot match: skip the scan
            # (exact; see regex_needs). Megabytes of output cost milliseconds, not seconds.
            if not regex_needs.of(rule.regex).may_match(text, lower):
                continue
            text, replaced = rule.regex.subn(functools.partial(_replace, rule), text)
            if replaced:
                lowered.clear()
        return text

    def redact_bytes(self, data: bytes) -> str:
        # Undecodable bytes stay visible (and distinguishable) in the evidence as ``\xNN``
        # rather than collapsing to U+FFFD. They are redacted as one opaque character each
        # (a lone surrogate: neither a token character nor a separator) and written out
        # after: binary output costs the rules a quarter of the characters it would as text.
        text = self.redact(data.decode("utf-8", errors="surrogateescape"))
        return text if text.isascii() else text.translate(_ESCAPES)


def _replace(rule: _Rule, m: re.Match[str]) -> str:
    whole = m.group(0)
    if not whole:
        return whole  # a user regex that can match empty would otherwise litter markers
    start, end = m.span()
    # Only the ``secret`` group when it took part; if it did not, redact the whole
    # match rather than risk leaking what the user meant to hide.
    if "secret" in rule.regex.groupindex and m.start("secret") != -1:
        start, end = m.span("secret")
    secret = m.string[start:end]
    if not secret or _MARKERS_ONLY.fullmatch(secret):
        return whole
    offset = m.start()
    return f"{whole[: start - offset]}[REDACTED:{rule.name}]{whole[end - offset :]}"


@functools.lru_cache(maxsize=1)
def _builtin_rules() -> tuple[_Rule, ...]:
    return tuple(_Rule(name, re.compile(rx)) for name, rx in BUILTIN_PATTERNS)


def is_secret_name(name: str) -> bool:
    """Whether an environment variable's name says its value is a secret."""
    return bool(_SECRET_ENV.search(name))


def secret_env(environ: Mapping[str, str]) -> dict[str, str]:
    """The variables of ``environ`` whose name looks secret and whose value is long enough."""
    return {k: v for k, v in environ.items() if _SECRET_ENV.search(k) and len(v) >= MIN_LITERAL}


def _literal_rules(literals: Mapping[str, str]) -> tuple[_Rule, ...]:
    # Longest value first, so a value containing another is not left half redacted.
    # A marker label holds only word characters, so _MARKERS_ONLY recognises it later.
    items = sorted(((v, k) for k, v in literals.items() if len(v) >= MIN_LITERAL),
                   key=lambda item: -len(item[0]))
    return tuple(_Rule("env:" + re.sub(r"\W", "_", k), re.compile("|".join(map(re.escape, _spellings(v)))))
                 for v, k in items)


def _spellings(value: str) -> list[str]:
    r"""``value`` as output may spell it: verbatim, and JSON-escaped (with ``/`` as ``\/``,
    non-ASCII as ``\uXXXX`` or not). Longest first, so no spelling is left half matched."""
    import json

    forms = {value}
    for ascii_only in (True, False):
        escaped = json.dumps(value, ensure_ascii=ascii_only)[1:-1]
        forms |= {escaped, escaped.replace("/", "\\/")}
    return sorted(forms, key=lambda f: -len(f))


def redact_argv(argv: list[str], redactor: Redactor) -> list[str]:
    """``argv`` with every element redacted, and the value of a secret-named flag replaced
    whatever it looks like (``--password hunter2``, ``--token=abc``): on a command line
    the flag is the only sign that a short, plain value is a secret."""
    out: list[str] = []
    after_flag = False
    for arg in argv:
        flag, eq, value = arg.partition("=")
        if after_flag:
            out.append(_flag_value(arg, redactor))
        elif eq and _SECRET_FLAG.fullmatch(flag):
            out.append(f"{flag}={_flag_value(value, redactor)}")
        else:
            out.append(redactor.redact(arg))
        after_flag = not eq and bool(_SECRET_FLAG.fullmatch(arg))
    return out


def _flag_value(value: str, redactor: Redactor) -> str:
    # Keep a more specific label when a rule already knows the value (github_token, env:X).
    if not value:
        return value
    redacted = redactor.redact(value)
    return redacted if _MARKERS_ONLY.fullmatch(redacted) else "[REDACTED:secret_flag]"


def compile_patterns(extra: list[str] | tuple[str, ...] = (),
                     literals: Mapping[str, str] | None = None) -> Redactor:
    """Built-in rules followed by the user's ``extra`` regexes (labelled ``custom``).

    ``literals`` maps a name to a value redacted wherever it appears, as ``env:NAME``
    (see :func:`secret_env`); these rules run first, so a known value is never left in
    part by a pattern that recognised only a piece of it.
    """
    custom = []
    for pattern in extra:
        if not isinstance(pattern, str):
            raise HarnessError(
                f"redaction pattern {pattern!r} is not a string",
                hint="list each extra redaction pattern as a quoted regex string",
            )
        try:
            custom.append(_Rule("custom", re.compile(pattern)))
        except re.error as exc:
            raise HarnessError(
                f"invalid redaction pattern {pattern!r}: {exc}",
                hint="fix or remove the pattern in the redaction settings of the config",
            ) from None
    return Redactor(_literal_rules(literals or {}) + _builtin_rules() + tuple(custom))
