"""Secret redaction for recorded evidence (pure: text in, text out).

Every byte of command output the harness keeps passes through :class:`Redactor`
before it reaches disk, so patterns err towards redacting, yet stay anchored on a
recognisable prefix or a ``key=`` context so ordinary output (hex ids, UUIDs,
prose) survives and the evidence stays readable.
"""

from __future__ import annotations

import binascii
import bisect
import functools
import re
from collections.abc import Mapping, Sequence

from harness.core import hex_dumps, redaction_patterns, regex_needs
from harness.core.value_class import dataclass

TYPE_CHECKING = False  # typing's, without importing typing on a hot path (tests/test_layering.py)
if TYPE_CHECKING:
    from typing import Any

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
# `=>`: Perl, PHP, Ruby hashes; `:=`: Go; `: TYPE =`: a typed assignment (Python, TypeScript), whose value is not
# the type's name (read 63b's F-0172); spaced, as such code is: `password: A=B` is a value holding `=` (F-0204);
# the type may be a union or generic (`str | None`, `dict[str, str]`: F-0213), but a type: a value and a word before
# a later `=` (`password: VALUE retries = 3`) is no type (F-0218).
_TYPE = r"[A-Za-z_][A-Za-z0-9_.]{0,32}(?:\[[^\]\n=]{0,48}\])?"  # `str`, `Optional[str]`, `dict[str, str]`
_ASSIGN = (r"""(?:\\?["'])?[ \t]*(?:=>|:=|:[ \t]*""" + _TYPE + r"""(?:[ \t]*\|[ \t]*""" + _TYPE
           + r"""){0,4}[ \t]+=(?!=)|[:=](?!=))"""
           r"""[ \t]*(?:\\?["'])?""")
# Command-line flags whose value is a secret: --password, -token, --db-password, --api-key ...
# A bare "key" only as the whole flag (--key): --sort-key or --primary-key name no secret.
# "--no-token" style switches take no value, so what follows them is left alone.
# keytool's glued names (-storepass, -keypass, -srcstorepass, -deststorepass: read 101's F-0358); its
# `-storepass:env NAME` / `:file PATH` name where the password is, and are no flag followed by white space.
_FLAG_NAME = (r"(?!no[-_])(?:[a-z0-9]+[-_]){0,3}(?:password|passwd|passphrase|pass|secret|token"
              r"|api[-_]?key|private[-_]?key|access[-_]?key|secret[-_]?key|credentials?|(?:src|dest)?(?:store|key)pass)"
              r"|key")
# A client's name as a word of its own, the program a command (or a wrapper: `docker exec … redis-cli`, `sudo -E
# redis-cli`, `cd /srv && redis-cli`, `bash -c '…'`: read 139's F-0491, read 142's F-0502, F-0503) starts, maybe from
# a bin folder; not a path's or a file's part (`tests/mongo`, `dist.zip`), nor the value of the options that name a
# test, an environment, a host or a container (`-k mongo`, `-e mongo`, `-h mongo`, `--name mongo`, `--network-alias
# mongo`) (read 137's F-0480, read 141's F-0500): a word after any other option may be the program a wrapper starts.
_AT_COMMAND = (r"(?:^|(?<=[\s;&|(`'\"]))(?<!-k )(?<!-e )(?<!-h )(?<!--name )(?<!--name  )(?<!--hostname )"
               r"(?<!--network-alias )(?:(?:/usr)?(?:/local)?/s?bin/|\./)?")
# A password flag's value: quoted whole (spaces, escaped quotes and all: read 137's F-0481, 139's F-0493) or a word;
# not a reference to where the secret is, nor a placeholder, each known by its whole shape (`$PASS`, `"$(cat file)"`,
# `${VAR}`, `%VAR%`, `{{ var }}`, `****`, `<password>`: read 137's F-0482; a password that only starts with one of
# their characters is a password: read 139's F-0492; single-quoted, `$` is a character: read 141's F-0501), which the
# threat model keeps readable.
_PLACEHOLDER = (r"""(?:(?:(?<!')\$(?:[A-Z_][A-Z0-9_]*|[a-z_][a-z0-9_]*)|\*+|<[\w .-]{1,64}>|%\w{1,64}%"""
                r"""|\{\{[^}\n]{0,64}\}\}|(?i:password|passwd|passphrase|secret))(?=["'`\s]|$)|(?<!')\$[{(]|-)""")
_PASSWORD_VALUE = (r"""[\"']?(?!""" + _PLACEHOLDER + r""")(?P<secret>(?<=")(?:[^"\\\n]|\\[^\n]){1,256}(?=")"""
                   r"""|(?<=')[^'\n]{1,256}(?=')|[^\s"']+)""")
_PEM_HEAD = r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
_PEM_TAIL = r"-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"

# Every quantifier a failed attempt can walk is bounded ({0,31}, {0,256}, ...) so a
# long run like "a-a-a-..." costs linear, not quadratic, time.
# Order names a span: whole PEM blocks first, then self-identifying token formats, then
# context-based rules, so a token inside ``Authorization:`` or ``token=`` that both find is
# labelled by its kind (every rule reads the text as written; overlapping findings merge).
BUILTIN_PATTERNS: tuple[tuple[str, str], ...] = (
    # A complete block, or a BEGIN whose END fell outside the (truncated) window.
    ("private_key", rf"(?s){_PEM_HEAD}.*?(?:{_PEM_TAIL}|\Z)"),
    # An END with no BEGIN before it: the window started inside the key, so everything before
    # it is key material. Greedy to cover repeated ENDs, up to the first BEGIN (the rules all
    # read the text as written: a block the rule above finds is not this rule's).
    ("private_key", rf"\A(?:(?!{_PEM_HEAD})[\s\S])*{_PEM_TAIL}"),
    # A PuTTY key's private lines (`.ppk`, v2 and v3), and a JSON Web Key's private members (read 63b's F-0179).
    ("private_key", r"Private-Lines:[ \t]*[0-9]{1,3}\r?\n(?P<secret>[A-Za-z0-9+/=]{1,128}"
                    r"(?:\r?\n[A-Za-z0-9+/=]{1,128}){0,63})(?=\r?\n|\Z)"),
    ("private_key", r"(?<=[{,\s])\\?\"(?:d|p|q|dp|dq|qi|k)\\?\"[ \t]*:[ \t]*\\?\"(?P<secret>[A-Za-z0-9_\-]{20,})"),
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
    # xoxe-: token rotation's refresh token; xapp-: an app-level token (Socket Mode) (F-0116).
    ("slack_token", r"(?:xox[abeoprs]|xapp)-(?:(?!(?:xox[abeoprs]|xapp)-)[A-Za-z0-9\-]){10,}"),
    ("google_api_key", r"AIza[0-9A-Za-z_\-]{35}"),
    ("stripe_key", r"[sr]k_(?:live|test)_[0-9A-Za-z]{16,}"),
    ("npm_token", r"npm_(?:(?!npm_)[A-Za-z0-9]){36,}"),
    # HashiCorp Vault's service, batch and recovery tokens (`vault login`, `vault token create`: read 101's F-0358).
    ("vault_token", r"hv[sbr]\.(?:(?!hv[sbr]\.)[A-Za-z0-9_\-]){24,}"),
    ("aws_access_key_id", r"(?:AKIA|ASIA)[A-Z0-9]{16}"),
    ("jwt", r"eyJ[A-Za-z0-9_\-]{1,4096}\.[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]*"),
    # aws_secret_access_key / AWS_SECRET_ACCESS_KEY / "SecretAccessKey": ...
    ("aws_secret_key", rf"(?i)secret_?access_?key{_ASSIGN}{_VALUE}"),
    # The AWS CLI's own spelling, `aws configure set aws_secret_access_key VALUE` (`aws_session_token VALUE`), as a
    # `set -x` trace prints it (read 101's F-0356). No `=` says a value follows, so the value's shape does: 16 or
    # more characters of base64 with a digit, `/` or `+` among them; a placeholder (`<redacted>`, `****`), a
    # reference (`"$(cat …)"`, `${VAR}`) or a word of prose is none.
    ("aws_secret_key", r"(?i)(?:secret_?access_?key|aws_?session_?token|aws_?security_?token)[ \t]+[\"']?"
                       r"(?=[A-Za-z0-9/+=]{16})(?=[A-Za-z=]{0,1024}[0-9/+])(?P<secret>[^\s\"'`,;]+)"),
    # Azure connection strings: AccountKey=<base64>; SharedAccessKey=...; SharedAccessSignature=sv=...&sig=...
    ("azure_key", r"(?i)(?:account_?key|shared_?access_?(?:key|signature))[ \t]*=[ \t]*(?P<secret>[^\s;\"'`,]{4,})"),
    # A signed URL grants what its signature signs to whoever holds it, until it expires: an Azure SAS URL's `sig=`
    # (`?sv=…&sp=…&se=…&sig=…`, as `az storage blob generate-sas --full-uri` prints it), a GCS or S3 presigned URL's
    # `X-Goog-Signature=`/`X-Amz-Signature=`, CloudFront's `Signature=` (read 101's F-0357; S3's
    # `X-Amz-Security-Token=` is secret_assignment's). A query parameter of the URL (`?`, `&`, HTML's `&amp;`), and
    # 16 characters or more of an encoded digest: `sig=(a, b)` in a repr, `?sig=abc` are none.
    ("azure_sas", r"[?&;]sig=(?P<secret>[A-Za-z0-9%+/=_\-]{16,})"),
    ("signed_url", r"(?i)[?&;](?:x-(?:amz|goog)-)?signature=(?P<secret>[A-Za-z0-9%+/=_\-~]{16,})"),
    # A docker config's ``"auth": "<base64 of user:token>"`` (and its JSON-in-JSON spelling).
    ("docker_auth", r"""(?i)(?<![A-Za-z0-9_])(?:auth|identitytoken|registrytoken)\\?["'][ \t]*:[ \t]*\\?["']"""
                    r"(?P<secret>[A-Za-z0-9+/_\-]{8,}={0,2})"),
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
    # openssl's `-passin pass:VALUE` / `-passout 'pass:VALUE'`, also after other arguments of the same line; its
    # `env:VAR`, `file:PATH`, `fd:N` and `stdin` name where the password is, not the password (read 101's F-0358).
    ("openssl_pass", r"(?<![A-Za-z0-9_\-])-pass(?:in|out)?\b[^\n]{0,256}?(?<=[\s\"'=])pass:"
                     r"(?P<secret>(?<=\"pass:)[^\"\n]{1,1024}|(?<='pass:)[^'\n]{1,1024}|[^\s\"'`]{1,1024})"),
    # password=..., DB_PASSWORD: ..., "api_key": "...". No left boundary is needed
    # (prefixes like DB_ are fine) and a trailing letter/digit excludes max_tokens=.
    # No bare "pwd": env dumps print PWD=/some/dir.
    (
        "secret_assignment",
        r"(?i)(?:password|passwd|passphrase|secret|secret[_\-]?key|client[_\-]?secret"
        r"|token|api[_\-]?key|access[_\-]?key|private[_\-]?key)(?![A-Za-z0-9])"
        rf"{_ASSIGN}{_VALUE}",
    ),
    # A table of names and values, as `vault kv get`, `vault token create`, `vault read database/creds/…` print one:
    # `password` or `token` first on its line, two spaces or a tab, and a value alone on the rest of it, of a
    # secret's shape (8 characters or more, a digit or a lower-case letter before a capital among them; not a
    # placeholder's `<none>`, `****`, `[…]`, `${…}`): `Key    Value`, `token_policies    [...]`, `password    required`
    # are no secret (read 101's F-0358).
    ("secret_table", r"(?m)^[ \t]{0,8}(?:password|Password|PASSWORD|token|Token|TOKEN)(?:\t|  )[ \t]{0,64}"
                     r"(?=[^\s\[<(*$%{]\S{7})(?=\S{0,1024}?(?:[0-9]|[a-z][A-Z]))(?P<secret>\S{8,1024})[ \t]*\r?$"),
    # A .netrc entry (git's and curl's credentials file): `machine HOST login USER password VALUE`, on one line or
    # over several, and `default login USER password VALUE` starting a line (read 101's F-0358).
    ("netrc_password", r"(?:\bmachine\s{1,64}\S{1,256}|(?<![^\n])[ \t]{0,64}default)\s{1,64}login\s{1,64}\S{1,256}"
                       r"(?:\s{1,64}(?:account|port)\s{1,64}\S{1,256}){0,2}\s{1,64}password\s{1,64}[\"']?" + _VALUE),
    # `<password>…</password>`: an XML element named as a secret is (Maven's settings.xml, F-0172).
    ("secret_element", r"(?i)<(?P<tag>password|passwd|passphrase|secret|token|api[_\-]?key|access[_\-]?key"
                       r"|private[_\-]?key|client[_\-]?secret)>(?P<secret>[^<\s][^<]{0,1023})</(?P=tag)>"),
    # A shell's `NAME=value`, or a YAML map's `NAME: value` (docker-compose `environment:`, Actions and Kubernetes
    # `env:`), whose NAME ends in a secret's word (`DB_PASS`, `SESSION_KEY`, `GH_TOKEN`, `MYSQL_PWD`), or in one and a
    # stage or version (`API_TOKEN_V2`, `DB_PASSWORD_PROD`) (read 63b's F-0171, 65's F-0216). The word stands alone
    # in the name (not `BYPASS`, `MAX_TOKENS`, `PYTHON_KEYRING_BACKEND`), and a value of five characters or fewer
    # (`SKIP_AUTH=1`, `CACHE_KEY=v1`, `TOKEN_TTL=0`) is a setting, not a secret (F-0207, F-0208, F-0214). After `: `
    # a value is quoted, holds a digit or is 12 characters or more: `SSH_KEY: deploy.yml` in a grep, `PARTITION_KEY:
    # tenant_id` in prose name no secret (F-0222). Upper case.
    ("secret_variable", r"(?<![A-Za-z0-9_])(?:[A-Z0-9]{1,32}_){0,6}(?:TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|PASS|KEY"
                        r"|CREDENTIALS?|AUTH|(?<=_)PWD)(?:_(?:V?[0-9]{1,3}|PROD|PRD|PRODUCTION|DEV|STAGING|STG|TEST|QA|CI"
                        r"|LIVE|OLD|NEW))?(?:=|:[ \t]+(?=[\"']|[^\s,;]{0,256}[0-9]|[^\s,;]{12}))[\"']?(?=[^\s\"'`,;]{6})"
                        rf"{_VALUE}"),
    # curl's `-u user:PASSWORD`, `-uuser:PASSWORD`, `--user`, `-U`/`--proxy-user`: the password after the user's
    # colon, on a curl command line only (`docker run --user node:node`, `go run -url=http://…` name no password:
    # F-0214, F-0217), however long (a query's `&`, a header's `;`, a line continued with `\`: F-0219), and not
    # digits alone (read 63b's F-0180, 64's F-0205, 65's F-0215).
    ("user_password", r"\bcurl\b(?:[^\n]|\\\r?\n){0,512}?(?<![A-Za-z0-9_\-])(?:-[uU][ \t]*|--(?:proxy-)?user(?:[ \t]+|=))"
                      r"[\"']?[^\s:\"'\[]{0,256}:(?P<secret>(?=[^\s\"']{0,1024}[^\s\"'0-9])[^\s\"']{1,1024})"),
    # A password given by `-p`: a registry login's (spaced or glued) and sshpass's own, before the command it runs
    # (`sshpass -f file ssh -p 2222` names a port: F-0207).
    # Cloud and platform logins too (`az`, `oc`, `cf`: read 135's F-0476), a keychain's (`security unlock-keychain`).
    ("password_flag", r"(?:\b(?:docker|podman|helm|buildah|skopeo|oras|nerdctl|az|oc|cf)(?:[ \t]+registry)?[ \t]+login\b"
                      r"[^\n|;&]{0,256}?(?<=[ \t])|\bsshpass(?:[ \t]+-[A-Za-oq-z]\S{0,256}){0,4}[ \t]+"
                      r"|\bsecurity[ \t]+(?:unlock|create)-keychain\b[^\n|;&]{0,256}?(?<=[ \t]))"
                      r"-p(?:[ \t]+|=)?" + _PASSWORD_VALUE),
    # Other clients' one-letter password flags (read 135's F-0476), on a line that starts that client (read 137's
    # F-0480: `docker run --name mongo -p 27017:27017`, `pytest tests/mongo -p no:cacheprovider` start another):
    # redis-cli's `-a`, the OpenLDAP tools' `-w` (`-W` prompts), sqlcmd's and bcp's `-P`, glued too (getopt, pflag:
    # read 137's F-0483), zip's and unzip's `-P`, the mongo shells' `-p`.
    ("password_flag", _AT_COMMAND + r"(?:redis-cli(?=[ \t])[^\n|;&]{0,256}?(?<=[ \t])-a(?:[ \t]+|=)"
                      r"|ldap(?:search|modify|add|delete|whoami|passwd|compare|modrdn|exop)(?=[ \t])[^\n|;&]{0,256}?(?<=[ \t])"
                      r"-w(?:[ \t]+|=)?|(?:sqlcmd|bcp|osql)(?=[ \t])[^\n|;&]{0,256}?(?<=[ \t])-P(?:[ \t]+|=)?"
                      r"|(?:zip|unzip|zipcloak)(?=[ \t])[^\n|;&]{0,256}?(?<=[ \t])-P(?:[ \t]+|=)"
                      r"|mongo(?:sh)?[ \t][^\n|;&]{0,256}?(?<=[ \t])-p(?:[ \t]+|=))" + _PASSWORD_VALUE),
    # Samba's `-U user%PASSWORD` (smbclient, rpcclient, smbcacls, net): the password after the user's `%`.
    ("password_flag", _AT_COMMAND + r"(?:smbclient|rpcclient|smbcacls|smbget|smbmap|net)(?=[ \t])[^\n|;&]{0,256}?(?<=[ \t])"
                      r"(?:-U[ \t]*|--user(?:=|[ \t]+))[\"']?[^\s%\"']{1,256}%(?!" + _PLACEHOLDER + r")"
                      r"(?P<secret>[^\s\"']+)"),
    # mysql's and its tools' glued `-pPASSWORD`, quoted or not (`-p db` prompts for one), as a command of its own,
    # quoted or in backticks too (F-0215), not a value (`DB_DRIVER=mysql go test -parallel 4`: F-0222); not pytest's
    # `-pno:PLUGIN` in a line that names a mysql folder (F-0207).
    ("mysql_password", r"(?:^|(?<=[\s/;&|(\"'`]))(?:mysql(?:dump|admin|import|check|show|slap|pump|binlog)?"
                       r"|mariadb(?:-(?:dump|admin|import|check|show|slap|binlog))?)"
                       r"[ \t][^\n|;&]{0,256}?(?<=[ \t])-p(?!no:)[\"']?(?P<secret>[^\s\"'-][^\s\"']*)"),
)

# A span that is already nothing but markers the harness writes (Redactor.only_markers) was redacted by an earlier
# rule. A label may hold digits (`base64`: read 61's F-0144).
_MARKERS_ONLY = re.compile(r"(?:\[REDACTED:[a-z][a-z0-9_]*(?::\w+)?\])+")
_MARKER = re.compile(r"\[REDACTED:[a-z][a-z0-9_]*(?::\w+)?\]")


def holds_marker(text: str) -> bool:
    """Whether ``text`` holds a redaction marker (`[REDACTED:label]`): text the harness recorded redacted, which
    may differ from what ran."""
    return _MARKER.search(text) is not None


# Labels the harness writes besides its rules' names (outputcut's, and the encoded runs').
# `env` alone: the marker of a secret-named variable's value where its name is left out (store/secrets_check.py
# unnamed_env: text no ledger binds, read 75's F-0259). `custom`: a project pattern's, which a redactor without the
# project's patterns (secrets_check.own_rules, reading what the harness wrote) still reads as the harness's.
_OTHER_LABELS = frozenset({"base64", "hex", "hexdump", "split_secret", "cut_secret", "env", "custom"})
# Environment variables whose value is taken for a secret. AUTH but not AUTHOR: git's
# GIT_AUTHOR_EMAIL is no secret. Values under 8 characters would redact ordinary words.
# AUTH, but not AUTHOR or AUTHORS as a word (GIT_AUTHOR_NAME): AUTHORIZATION is a secret's name (read 63b's F-0165).
# `_PWD` as secret_variable reads it (MYSQL_PWD, DB_PWD: read 167's F-0570), never PWD or OLDPWD, the shell's folders.
_SECRET_ENV = re.compile(r"(?i)TOKEN|SECRET|PASS|KEY|CRED|AUTH(?!ORS?(?![A-Z0-9]))|(?<=_)PWD")
MIN_LITERAL = 8
# surrogateescape's stand-in for an undecodable byte -> how backslashreplace writes it
_ESCAPES = {0xDC00 + b: f"\\x{b:02x}" for b in range(0x80, 0x100)}


class _Rule:
    """One rule: its label, its regex, given compiled or as a source compiled on first use — most
    rules never run on a text (:attr:`needs` proves they cannot match it), and the two hundred of
    the built-in and detect-secrets' rules cost a writer more to compile than all it redacts."""

    __slots__ = ("_needs", "_regex", "flags", "name", "source", "trim")

    def __init__(self, name: str, regex: re.Pattern[str] | str, trim: bool = False, flags: int = 0) -> None:
        self.name = name
        # A detector's regex may hold the text around the secret (``(?:\s|=|:|"|^)AKC…(?:\s|"|$)``):
        # that context is trimmed off the span, so only the secret itself is replaced.
        self.trim = trim
        self._needs: regex_needs.Needs | None = None
        if isinstance(regex, str):
            self.source, self.flags, self._regex = regex, flags, None
        else:
            self.source, self.flags, self._regex = regex.pattern, regex.flags, regex

    @property
    def regex(self) -> re.Pattern[str]:
        if self._regex is None:
            self._regex = re.compile(self.source, self.flags)
        return self._regex

    @property
    def needs(self) -> regex_needs.Needs:
        """What a text must hold for the regex to match (read from its source, without compiling it;
        kept: every text a writer redacts asks every rule)."""
        if self._needs is None:
            self._needs = regex_needs.needs(self.source, self.flags)
        return self._needs

    def __repr__(self) -> str:
        return f"_Rule({self.name!r}, {self.source!r})"


# -- what hides a secret from the rules, undone in a view of the text ------------------------------
# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15.1: the same set since 14.0, Python
# 3.11's unicodedata, which does not expose it), as a regex class's ranges. A terminal shows nothing for any of them,
# so a token with one inside reads whole: the format characters (a soft hyphen, the zero-width ones, direction marks,
# embeddings and isolates, invisible operators, shorthand and musical format controls, tags: read 83's F-0287) and,
# of other categories, the combining grapheme joiner, the Khmer inherent vowels, the Mongolian free variation
# selectors, the Hangul fillers, the variation selectors and the code points reserved as default-ignorable (read 87's
# F-0303). tests/test_secrets_spelled_otherwise.py holds the format characters equal to unicodedata's.
DEFAULT_IGNORABLE = ("\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
                     "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3"
                     "\U0001d173-\U0001d17a\U000e0000-\U000e0fff")
# An escape sequence as a terminal receives it; spelled as source code or JSON spells ESC
# (``\\u001b``, ``\\x1b``, ``\\033``, ``\\e``, ``%1B``) it is decoded in one round of
# :func:`_views` and removed in the next.
_TERMINAL = (r"\x1b(?:\[[0-?]{0,32}[ -/]{0,8}[@-~]"        # CSI: colours, cursor moves
             r"|\][^\x07\x1b]{0,512}?(?:\x07|\x1b\\)"     # OSC: titles, hyperlinks
             r"|[@-Z\\^_]|\(.)"                             # two-character sequences
             r"|\x9b[0-?]{0,32}[ -/]{0,8}[@-~]"             # the 8-bit CSI
             r"|[\x00-\x08\x0e-\x1f\x7f" + DEFAULT_IGNORABLE + "]")  # invisible on a terminal
_ENCODED = (r"|(?:%[0-9A-Fa-f]{2}){1,64}|\\u[0-9A-Fa-f]{4}|\\x[0-9A-Fa-f]{2}|\\[0-3][0-7]{2}|\\[/\\\"'e]"  # encodings
            r"|&#[0-9]{1,7};|&#[xX][0-9A-Fa-f]{1,6};")            # HTML and XML character references
_QUOTED_PRINTABLE = (r"|(?:=[0-9A-Fa-f]{2}){1,64}"               # quoted-printable,
                     r"|(?<![=\s])=\r?\n(?![-\s])")               # and its soft line break (not base64's `==` at a
                                                                 # line's end, nor before a PEM block's last line)
_HIDING = re.compile(_TERMINAL + _ENCODED + _QUOTED_PRINTABLE)
# The same without quoted-printable, whose `=XY` is read out of any text: in `=bA<ESC>[31mKIA…` (shown
# `=bAKIA…`) or `=bA\u004bIA…`, decoding `=bA` in the round that removes the code takes the key's first
# letter with it (#27's task F-0021). The rules read both chains of views. Compiled on first use.


@functools.lru_cache(maxsize=1)
def _not_quoted_printable() -> re.Pattern[str]:
    return re.compile(_TERMINAL + _ENCODED)


# Base64 (standard or URL-safe) long enough to hide a credential; decoded and redacted whole.
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{16,}(?![A-Za-z0-9+/_\-])")
_BASE64_MAX = 64 * 1024
# Lines of one encoding wrapped at a fixed width (base64's 76 columns, `xxd -p`'s 60): a secret that straddles a
# wrap is in neither line alone (read 63b's F-0166, F-0167), so a block of such lines is decoded joined. This finds
# runs of lines of the alphabet; Redactor._wrapped cuts a run into its blocks by their width (read 66's F-0220,
# F-0221: a commit id before a block, or words after it, are lines of the alphabet too).
_WRAPPED = re.compile(r"(?m)(?:^[A-Za-z0-9+/_\-]{1,128}={0,2}(?:\r?\n|\Z)){2,}")
# Hex digits of bytes (`xxd -p`, a hex dump of a request), long enough to hide a credential: decoded and
# redacted whole, as base64 is. An object id or a digest decodes to no text and is left alone.
_HEX = re.compile(r"(?<![0-9A-Fa-f])[0-9A-Fa-f]{16,}(?![0-9A-Fa-f])")  # `0x`, a word's letters before it: no bar
_DEPTH = 2  # base64 inside base64 inside the text; deeper nesting is not how secrets travel
_DUMP_GROUPS = 4096  # a hex dump's groups read together (4 KB at a byte a group): a row of a megabyte is many windows
_TRIM = " \t\r\n=:\"'"


def _decoded(piece: str) -> str:
    """What one match of :data:`_HIDING` stands for: an encoded character (an encoded ESC or
    control character too: the next round of :func:`_views` removes it), or nothing."""
    if piece[0] in "%=":  # a run of them: the bytes of UTF-8 characters, decoded together
        return bytes.fromhex(piece.replace(piece[0], "")).decode("utf-8", "surrogateescape")
    if piece.startswith("&#"):
        code = int(piece[3:-1], 16) if piece[2] in "xX" else int(piece[2:-1])
        return chr(code) if code <= 0x10FFFF else ""
    if piece[0] == "\\" and len(piece) > 1:
        tail = piece[1:]
        if (tail[0] == "u" and len(tail) == 5) or (tail[0] == "x" and len(tail) == 3):
            return chr(int(tail[1:], 16))
        if tail[0] in "0123" and len(tail) == 3:
            return chr(int(tail, 8))
        if tail == "e":
            return "\x1b"
        if len(tail) == 1 and tail in "/\\\"'":
            return tail
    return ""  # an escape sequence or an invisible character


@dataclass(frozen=True)
class _View:
    """``text`` with escape sequences removed and encodings decoded, and where each piece came from."""

    text: str
    starts: list[int]                        # where each piece starts in the view
    pieces: list[tuple[int, int, bool]]      # (start, end) in the original, and whether copied 1:1

    def original(self, start: int, end: int) -> tuple[int, int]:
        i = bisect.bisect_right(self.starts, start) - 1
        o_start, _, plain = self.pieces[i]
        first = o_start + (start - self.starts[i]) if plain else o_start
        j = bisect.bisect_right(self.starts, end - 1) - 1
        o_start, o_end, plain = self.pieces[j]
        last = o_start + (end - self.starts[j]) if plain else o_end
        return first, last


_ROUNDS = 3  # an escape code URL- or JSON-encoded piece by piece takes a decoding, then a removal
_PLAIN_ROUNDS = 4  # a round finds what only the markers of the one before let a rule see: two are the most seen


def _views(text: str, hiding: re.Pattern[str] = _HIDING) -> list[_View]:
    """The text decoded and stripped round by round, until nothing in it is hidden or encoded;
    each view is of the one before it."""
    out: list[_View] = []
    for _ in range(_ROUNDS):
        view = _view(text, hiding)
        if view is None:
            break
        out.append(view)
        text = view.text
    return out




def _view(text: str, hiding: re.Pattern[str] = _HIDING) -> _View | None:
    """The text with one round of escape sequences removed and encodings decoded (None when
    nothing in it is hidden or encoded)."""
    starts: list[int] = []
    pieces: list[tuple[int, int, bool]] = []
    out: list[str] = []
    at = pos = 0
    for m in hiding.finditer(text):
        if m.start() > pos:
            starts.append(at)
            pieces.append((pos, m.start(), True))
            out.append(text[pos:m.start()])
            at += m.start() - pos
        shown = _decoded(m.group())
        if shown:
            starts.append(at)
            pieces.append((m.start(), m.end(), False))
            out.append(shown)
            at += len(shown)
        pos = m.end()
    if not pieces and pos == 0:
        return None
    if pos < len(text):
        starts.append(at)
        pieces.append((pos, len(text), True))
        out.append(text[pos:])
    return _View("".join(out), starts, pieces) if pieces else None


# -- what spells a secret in letters that only look like ASCII, folded in a view of the text ----------------------
# Cyrillic and Greek letters a reader takes for ASCII ones, so a token with one inside (`ghр_…`, a Cyrillic `р`)
# reads as the token, and compatibility forms NFKC maps to ASCII (fullwidth `ＡＫＩＡ…`, mathematical bold) do the
# same (read 167's F-0571). Short on purpose: the letters that look like a token's, not Unicode's whole list of
# confusables; the rules, not this table, decide what is a secret, so honest text in these scripts stays as written.
LOOKALIKES = {
    # Cyrillic small: а е о р с у х і ј ѕ ԁ ԛ ԝ һ
    "\u0430": "a", "\u0435": "e", "\u043e": "o", "\u0440": "p", "\u0441": "c", "\u0443": "y", "\u0445": "x",
    "\u0456": "i", "\u0458": "j", "\u0455": "s", "\u0501": "d", "\u051b": "q", "\u051d": "w", "\u04bb": "h",
    # Cyrillic capital: А В Е К М Н О Р С Т Х І Ј Ѕ
    "\u0410": "A", "\u0412": "B", "\u0415": "E", "\u041a": "K", "\u041c": "M", "\u041d": "H", "\u041e": "O",
    "\u0420": "P", "\u0421": "C", "\u0422": "T", "\u0425": "X", "\u0406": "I", "\u0408": "J", "\u0405": "S",
    # Greek small: ο α ρ τ ν ι
    "\u03bf": "o", "\u03b1": "a", "\u03c1": "p", "\u03c4": "t", "\u03bd": "v", "\u03b9": "i",
    # Greek capital: Α Β Ε Ζ Η Ι Κ Μ Ν Ο Ρ Τ Υ Χ
    "\u0391": "A", "\u0392": "B", "\u0395": "E", "\u0396": "Z", "\u0397": "H", "\u0399": "I", "\u039a": "K",
    "\u039c": "M", "\u039d": "N", "\u039f": "O", "\u03a1": "P", "\u03a4": "T", "\u03a5": "Y", "\u03a7": "X",
    # Latin letters outside ASCII that NFKC leaves alone (read 169's F-0575): script ɡ, dotless ı and ȷ, and the small
    # capitals, read as their capitals ᴀ ʙ ᴄ ᴅ ᴇ ɢ ʜ ɪ ᴊ ᴋ ʟ ᴍ ɴ ᴏ ᴘ ʀ ᴛ ᴜ ᴠ ᴡ ʏ ᴢ
    "\u0261": "g", "\u0131": "i", "\u0237": "j",
    "\u1d00": "A", "\u0299": "B", "\u1d04": "C", "\u1d05": "D", "\u1d07": "E", "\u0262": "G", "\u029c": "H",
    "\u026a": "I", "\u1d0a": "J", "\u1d0b": "K", "\u029f": "L", "\u1d0d": "M", "\u0274": "N", "\u1d0f": "O",
    "\u1d18": "P", "\u0280": "R", "\u1d1b": "T", "\u1d1c": "U", "\u1d20": "V", "\u1d21": "W", "\u028f": "Y",
    "\u1d22": "Z",
    # Armenian: հ ո ս ց օ ք Ս Օ
    "\u0570": "h", "\u0578": "n", "\u057d": "u", "\u0581": "g", "\u0585": "o", "\u0584": "p", "\u054d": "U",
    "\u0555": "O",
    # Cherokee capitals: Ꭺ Ᏼ Ꮯ Ꭼ Ꮐ Ꮋ Ꭻ Ꮶ Ꮮ Ꮇ Ꮲ Ꮪ Ꮤ Ꮩ Ꮃ Ꮓ
    "\u13aa": "A", "\u13f4": "B", "\u13df": "C", "\u13ac": "E", "\u13c0": "G", "\u13bb": "H", "\u13ab": "J",
    "\u13e6": "K", "\u13de": "L", "\u13b7": "M", "\u13e2": "P", "\u13da": "S", "\u13a2": "T", "\u13d9": "V",
    "\u13b3": "W", "\u13c3": "Z",
}
_LOOKALIKE_TABLE = str.maketrans(LOOKALIKES)
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
# A run of non-ASCII characters glued to an ASCII letter, digit or `_`: where a look-alike hides in a token (`ghр_`,
# `АКІА` and its ASCII rest). A sentence in Cyrillic or Greek, words between spaces, has none, so its letters are not
# folded (a token of look-alikes alone, no ASCII character in it, is no token a tool prints). Possessive, and a run
# tried from its first character only: linear in a long run of CJK text.
_GLUED_NON_ASCII = re.compile(r"(?<=[A-Za-z0-9_])[^\x00-\x7f]++|(?<![^\x00-\x7f])[^\x00-\x7f]++(?=[A-Za-z0-9_])")


def _folded_view(text: str) -> _View | None:
    """``text`` with each character NFKC changes folded, and each of :data:`LOOKALIKES` in a run glued to ASCII
    letters (:data:`_GLUED_NON_ASCII`, or ASCII once NFKC folded: fullwidth `ＡＫＩА`); each its own piece, so a finding
    maps back to whole characters. None when nothing folds. Text NFKC leaves alone (German, Russian, CJK without
    fullwidth forms, emoji) costs one normalisation check at C speed and a look at its glued runs."""
    import unicodedata

    normal = unicodedata.is_normalized("NFKC", text)
    starts: list[int] = []
    pieces: list[tuple[int, int, bool]] = []
    out: list[str] = []
    at = pos = 0
    for m in (_GLUED_NON_ASCII if normal else _NON_ASCII).finditer(text):
        for i, shown in _folded_chars(text, m, normal):
            if i > pos:
                starts.append(at)
                pieces.append((pos, i, True))
                out.append(text[pos:i])
                at += i - pos
            starts.append(at)
            pieces.append((i, i + 1, False))
            out.append(shown)
            at += len(shown)
            pos = i + 1
    if not pieces:
        return None
    if pos < len(text):
        starts.append(at)
        pieces.append((pos, len(text), True))
        out.append(text[pos:])
    return _View("".join(out), starts, pieces)


def _folded_chars(text: str, m: re.Match[str], normal: bool) -> list[tuple[int, str]]:
    """Each character of the run ``m`` that folds, as (its index in ``text``, what it folds to): NFKC's form, unless
    the run is ``normal`` (NFKC leaves it alone), and the look-alikes' ASCII letters where the run is glued to ASCII
    letters or NFKC makes it ASCII."""
    import unicodedata

    run = m.group()
    nfkc = run if normal else unicodedata.normalize("NFKC", run)
    lookalikes = (normal or _ascii_word(text[m.start() - 1:m.start()]) or _ascii_word(text[m.end():m.end() + 1])
                  or any(_ascii_word(c) for c in nfkc))
    marks = lookalikes and any(unicodedata.category(c) == "Mn" for c in run)
    if (nfkc.translate(_LOOKALIKE_TABLE) if lookalikes else nfkc) == run and not marks:
        return []
    out = []
    for i, char in enumerate(run, m.start()):
        shown = char if normal else unicodedata.normalize("NFKC", char)
        if lookalikes:
            # a combining mark on a token's letter (`gh\u0301p_`: an h with no precomposed form, left by NFKC) is read
            # as no character, as an invisible one is (read 169's F-0575)
            shown = "" if unicodedata.category(char) == "Mn" else shown.translate(_LOOKALIKE_TABLE)
        if shown != char:
            out.append((i, shown))
    return out


def _ascii_word(char: str) -> bool:
    """Whether ``char`` is an ASCII letter, digit or `_` (a token's character); False for no character."""
    return char.isascii() and (char.isalnum() or char == "_")


def _touches_folded(view: _View, start: int, end: int) -> bool:
    """Whether ``view``'s span [start, end) holds a folded character: a finding that holds none the text as
    written holds as well, and is the plain reading's to redact."""
    i = max(bisect.bisect_right(view.starts, start) - 1, 0)
    while i < len(view.starts) and view.starts[i] < end:
        if not view.pieces[i][2]:
            return True
        i += 1
    return False


@dataclass(frozen=True)
class Redactor:
    """Applies its rules, each to the text as written (what they find is replaced at once); built by
    :func:`compile_patterns`.

    The rules run on the text as written, then on the text as a terminal would show it
    (escape codes removed, ``%XX``, ``\\uXXXX`` and ``\\xNN`` decoded), whose findings replace
    the original span, and, text that is not ASCII, with look-alike letters and compatibility forms folded
    (:func:`_folded_view`), alike; then every base64 run that decodes to text is redacted whole if its
    decoded text holds a secret (a docker ``auth`` of ``user:token``, a token in a header).

    ``stored``: the text was written by a recording in another shell (the commit, push and server checks
    read it), so an `env:` marker naming a secret-named variable this process lacks may be the harness's own.
    Not when writing: the text is a command's, and the harness's own markers name this process's variables."""

    rules: tuple[_Rule, ...]
    stored: bool = False

    def redact(self, text: str, _depth: int = 0) -> str:
        # The view first: a token split by a colour code is replaced whole, not its first half
        # by a rule that saw only that half.
        hiding = _HIDING.search(text) is not None
        if hiding:
            text = self._hidden(text)
        if not text.isascii():  # the fast check: ASCII holds nothing to fold (read 167's F-0571)
            text = self._folded(text)
        if "\n" in text:  # before the lines alone: a rule that knows a wrapped token's first line leaves the rest
            text = self._unwrapped(text, hiding)
        text = self._plain_settled(text)
        if len(text) >= 16 and _depth < _DEPTH:
            if "\n" in text:  # joined first: a line decoded alone and hidden would leave the next its secret's rest
                text = _WRAPPED.sub(functools.partial(self._wrapped, _depth), text)  # (read 64's F-0203)
            if "\n" in text or "\\n" in text:
                text = self._dumped(_depth, text)  # (read 135's F-0475, read 137)
            text = _BASE64.sub(functools.partial(self._encoded, _depth), text)
            text = _HEX.sub(functools.partial(self._hex, _depth), text)
        return text

    def _wrapped(self, depth: int, m: re.Match[str]) -> str:
        """Each block of a run of lines of an encoding's alphabet (:func:`_blocks`), every line a marker when the
        block's lines joined (or all but its last, a short word after lines of the full width) decode to text
        holding a secret."""
        lines = m.group().splitlines(True)
        out = []
        done = 0
        for start, end in _blocks([line.rstrip("\r\n") for line in lines]):
            out += lines[done:start]
            done, label = end, None
            for kept in (end, end - 1):
                label = self._hides(depth, "".join(lines[start:kept])) if kept - start >= 2 else None
                if label:
                    out += [f"[REDACTED:{label}]{line[len(line.rstrip()):]}" for line in lines[start:kept]]
                    out += lines[kept:end]
                    break
            if not label:
                out += lines[start:end]
        return "".join(out + lines[done:])

    def _dumped(self, depth: int, text: str) -> str:
        """``text`` with the rows of each hex dump whose bytes hold a secret replaced by a marker, row for row."""
        spans = self._dump_spans(depth, text)
        out: list[str] = []
        pos = 0
        for start, end in spans:
            out += (text[pos:start], "[REDACTED:hexdump]")
            pos = end
        return "".join(out) + text[pos:] if spans else text

    def _dump_spans(self, depth: int, text: str) -> list[tuple[int, int]]:
        """The rows of the hex dumps in ``text`` (:mod:`.hex_dumps`) whose bytes hold a secret: read in windows of
        :data:`_DUMP_GROUPS` groups, each half over the one before, so a long dump (or one long row) costs linear time
        and a secret across two windows' boundary is whole in the one between."""
        if hex_dumps.ROW.search(text) is None:
            return []
        hidden: set[tuple[int, int]] = set()
        step = _DUMP_GROUPS // 2
        for run in hex_dumps.runs(text):
            cells = [(i, group) for i, (_, _, row) in enumerate(run) for group in row]
            for at in range(0, max(len(cells) - step, 1), step):
                window = cells[at:at + _DUMP_GROUPS]
                if any(self._holds_secret(depth, raw) for raw in hex_dumps.spelled([[g for _, g in window]])):
                    hidden.update(run[i][:2] for i, _ in window)
        return sorted(hidden)

    def _holds_secret(self, depth: int, raw: bytes) -> bool:
        """Whether bytes a dump spells, read as text (an unprintable byte as a line break), hold a secret."""
        text = "".join(c if c.isprintable() or c in "\t\r\n" else "\n" for c in raw.decode("utf-8", "replace"))
        return self.redact(text, depth + 1) != text

    def _hides(self, depth: int, joined: str) -> str | None:
        """The label of the encoding ``joined`` (one run, wrapped lines joined) hides a secret in, or None."""
        joined = "".join(joined.split())
        if len(joined) > _BASE64_MAX:
            return None
        run = _BASE64.fullmatch(joined.rstrip("="))  # the padding is no base64 run's (_encoded drops it)
        if run is not None and self._encoded(depth, run) != run.group():
            return "base64"
        run = _HEX.fullmatch(joined)
        return "hex" if run is not None and self._hex(depth, run) != run.group() else None

    def _plain_settled(self, text: str) -> str:
        """:meth:`_plain` again until it finds nothing more (at most :data:`_PLAIN_ROUNDS` times): a marker ends in
        `]`, the boundary a rule may need before its words (`AKIA…--password V`: the key id glued to the flag;
        read 57's F-0126), so what the first round replaced can let a second find the rest, as rule after rule
        did; and a text redacted once must read the same redacted again."""
        for _ in range(_PLAIN_ROUNDS):
            done = self._plain(text)
            if done == text:
                break
            text = done
        return text

    def _plain(self, text: str) -> str:
        """Every rule reads the text as written, and what they all find is replaced at once, findings that overlap
        as one (:func:`_merged`). Rule by rule, each on what the rules before it left, a marker took away the
        context a later rule knows a secret by: `s3a://AKIA…:KEY@` once the key id's marker stood where the
        url_password rule wants a user name, or `password=V` once a secret-named variable's value `password` was
        replaced everywhere (read 56b's F-0115)."""
        return self._marked(text, self._spans(text))

    def _unwrapped(self, text: str, hiding: bool) -> str:
        """``text`` with each token the rules find only across a line break (or down a table's column) replaced in
        every line it spans (:mod:`.wrapped_lines`, read 149's F-0525)."""
        return self._marked(text, self._wrapped_spans(text, hiding))

    def _wrapped_spans(self, text: str, hiding: bool) -> list[tuple[int, int, str]]:
        """Where the rules find a secret only across a line break (:mod:`.wrapped_lines`): in the text as written, and,
        when it holds any (``hiding``), with its escape codes taken out (a colour code around each line, read 150's
        F-0527), mapped back."""
        found = self._wrapped_in(text)
        chain = _views(text) if hiding else []
        if chain:
            for start, end, name in self._wrapped_in(chain[-1].text):
                for view in reversed(chain):
                    start, end = view.original(start, end)
                found.append((start, end, name))
        return found

    def _wrapped_in(self, text: str) -> list[tuple[int, int, str]]:
        """:meth:`_wrapped_spans` of ``text`` itself. What a rule finds whole in the text as written it has redacted
        there: a wrapped finding within one of its own (a PEM block's body lines) is that one, and one that only
        carries on past where the same rule's finding ends at a line's end (`password=X`, a token printed whole, then
        the next line's first word: read 150's F-0529, read 152's F-0536) is no wrap, unless the lines say it is one:
        a table's cells that fill their column, or a next piece written as a secret is (mixed case and a digit, where
        `Running`, `HTTP` or a date is none: read 153's F-0537; `xoxb-…` or `sk-…` folded: its first line is a whole
        token to its rule, and a wrapped one's first piece)."""
        found, plain = self._wrapped_found(text)
        return [(start, end, name) for name, parts in found for start, end in parts
                if not any(p_start <= start and end <= p_end for _, _, p_start, p_end, _ in plain)]

    def _wrapped_found(self, text: str) -> tuple[list[tuple[str, list[tuple[int, int]]]],
                                                 list[tuple[int, int, int, int, str]]]:
        """(each secret the rules find across ``text``'s line breaks, as its rule and its parts line by line; what
        they find in the text as written, when that was read): :meth:`_wrapped_in`'s findings before what the text
        as written redacts is left out."""
        from harness.core import wrapped_lines
        from harness.core.wrapped_lines import secret_like

        found = [(name, joined.parts(start, end), joined.filled) for joined in wrapped_lines.views(text)
                 for _, _, start, end, name in self._matches(joined.text)]
        found = [(name, parts, filled) for name, parts, filled in found if parts]
        if not found:
            return [], []
        plain = self._matches(text)
        ends = {(name, end) for _, _, _, end, name in plain}
        return [(name, parts) for name, parts, filled in found
                if (name, parts[0][1]) not in ends or filled or secret_like(text[slice(*parts[1])])], plain

    def wrapped_secrets(self, text: str) -> list[tuple[str, tuple[str, ...]]]:
        """Each secret the rules find in ``text`` only across its line breaks, as (rule, its pieces line by line),
        the first among them when its rule knows it alone: for text a parser joins again another way, a YAML
        folded block joining a wrapped token's lines with spaces (read 155's F-0546)."""
        return [(name, tuple(text[start:end] for start, end in parts))
                for name, parts in self._wrapped_found(text)[0] if len(parts) > 1]

    def _marked(self, text: str, found: list[tuple[int, int, str]]) -> str:
        """``text`` with the spans ``found`` replaced by markers, spans that overlap as one."""
        if found and "[REDACTED:" in text:
            found = _outside_markers(found, text, self._labels, self.stored)
        if not found:
            return text
        out: list[str] = []
        pos = 0
        for start, end, name in _merged(found, meeting=False):
            out += (text[pos:start], f"[REDACTED:{name}]")
            pos = end
        return "".join(out) + text[pos:]

    @functools.cached_property
    def _labels(self) -> frozenset[str]:
        """The labels this redactor's markers carry: its rules' names, and those of what else writes one (made once:
        every finding that captured a marker asks)."""
        return frozenset(rule.name for rule in self.rules) | _OTHER_LABELS

    def only_markers(self, text: str) -> bool:
        """Whether ``text`` is nothing but markers this redactor writes itself: a value redacted already. Text in a
        marker's shape with another label or suffix (`postgres://app:[REDACTED:db:PASSWORD]@…`) is what a command
        printed, and the secret in it is found by its context as any other (read 83's F-0286)."""
        if not _MARKERS_ONLY.fullmatch(text):  # the common answer, without building the labels
            return False
        labels = self._labels
        return all(_own_marker(m, labels, self.stored) for m in _MARKER.finditer(text))

    def without_own_markers(self, text: str) -> str:
        """``text`` without the markers this redactor writes itself; any other marker's shape stays, as text."""
        if "[REDACTED:" not in text:
            return text
        labels = self._labels
        return _MARKER.sub(lambda m: "" if _own_marker(m, labels, self.stored) else m.group(), text)

    def _spans(self, text: str) -> list[tuple[int, int, str]]:
        """Where the rules find a secret in ``text``, without replacing anything."""
        return [(start, end, name) for _, _, start, end, name in self._matches(text)]

    def _matches(self, text: str) -> list[tuple[int, int, int, int, str]]:
        """Each finding of the rules in ``text``: (start, end) of what the rule matched (the secret and
        the context it is known by, `password=` before it), (start, end) of the secret, and the rule."""
        found = []
        lowered: list[str] = []  # the text case-folded, once, and only if a rule's literals need it

        def lower() -> str:
            if not lowered:
                lowered.append(regex_needs.folded(text))
            return lowered[0]

        for rule in self.rules:
            # A rule whose required literals are absent cannot match: skip the scan
            # (exact; see regex_needs). Megabytes of output cost milliseconds, not seconds.
            if not rule.needs.may_match(text, lower):
                continue
            for m in rule.regex.finditer(text):
                span = _secret_span(rule, m, self)
                if span is not None:
                    found.append((*m.span(), *span, rule.name))
        return found

    def _hidden(self, text: str) -> str:
        found = self._view_spans(text)
        if found and "[REDACTED:" in text:  # as in :meth:`_plain`: no project pattern rewrites a marker (F-0169)
            found = _outside_markers(found, text, self._labels, self.stored)
        for start, end, name in reversed(_merged(found)):
            text = f"{text[:start]}[REDACTED:{name}]{text[end:]}"
        return text

    def _folded(self, text: str) -> str:
        """``text`` with each secret the rules find only where look-alike letters or compatibility forms are folded
        (:func:`_folded_view`) replaced by a marker over the characters as written (read 167's F-0571)."""
        found = [(start, end, name) for _, _, start, end, name in self._fold_matches(text)]
        if found and "[REDACTED:" in text:  # as in :meth:`_plain`: no project pattern rewrites a marker (F-0169)
            found = _outside_markers(found, text, self._labels, self.stored)
        for start, end, name in reversed(_merged(found)):
            text = f"{text[:start]}[REDACTED:{name}]{text[end:]}"
        return text

    def _fold_matches(self, text: str) -> list[tuple[int, int, int, int, str]]:
        """:meth:`_matches` of ``text`` folded, and of that text's views (an invisible character in a look-alike
        token), mapped back to ``text``: only findings whose match holds a folded character, so what the text as
        written holds is redacted as before."""
        view = _folded_view(text)
        if view is None:
            return []
        found = self._matches(view.text)
        if _HIDING.search(view.text) is not None:
            found += self._view_matches(view.text)
        return [(*view.original(m_start, m_end), *view.original(start, end), name)
                for m_start, m_end, start, end, name in found if _touches_folded(view, m_start, m_end)]

    def _view_spans(self, text: str) -> list[tuple[int, int, str]]:
        """What the rules find in the views of ``text`` (escape codes removed, encodings decoded),
        as spans of ``text`` itself."""
        return [(start, end, name) for _, _, start, end, name in self._view_matches(text)]

    def _view_matches(self, text: str) -> list[tuple[int, int, int, int, str]]:
        """:meth:`_matches` of the views of ``text``, their spans mapped back to ``text``: decoded round by
        round, with quoted-printable and without."""
        return self._chain_matches(_views(text)) + self._chain_matches(_views(text, _not_quoted_printable()))

    def _chain_matches(self, views: list[_View]) -> list[tuple[int, int, int, int, str]]:
        """:meth:`_matches` of each view of a chain (each a view of the one before), mapped back to the first's text."""
        found = []
        for depth, view in enumerate(views):
            for m_start, m_end, start, end, name in self._matches(view.text):
                for back in reversed(views[:depth + 1]):
                    m_start, m_end = back.original(m_start, m_end)
                    start, end = back.original(start, end)
                found.append((m_start, m_end, start, end, name))
        return found

    def secret_spans(self, text: str) -> list[tuple[int, int, int, int]]:
        """Where in ``text`` :meth:`redact` finds a secret: (start, end) of the match (the secret and the
        context it is known by) and (start, end) of the secret, for what the rules find in the text and
        in its views, and for the encoded runs that hide one. For text redacted in pieces (a command's
        stdout and stderr, each on its own) that must not keep a secret the whole holds."""
        hiding = _HIDING.search(text) is not None
        found = self._matches(text) + (self._view_matches(text) if hiding else [])
        if not text.isascii():
            found += self._fold_matches(text)
        if "\n" in text:
            found += [(start, end, start, end, name) for start, end, name in self._wrapped_spans(text, hiding)]
        if len(text) >= 16:
            for pattern, undone in ((_BASE64, self._encoded), (_HEX, self._hex)):
                found += [(*m.span(), *m.span(), "") for m in pattern.finditer(text) if undone(0, m) != m.group()]
            found += [(start, end, start, end, "") for start, end in self._dump_spans(0, text)]
        return [(m_start, m_end, start, end) for m_start, m_end, start, end, _ in found]

    def _encoded(self, depth: int, m: re.Match[str]) -> str:
        run = m.group()
        if len(run) > _BASE64_MAX:
            return run
        body = run.rstrip("=").replace("-", "+").replace("_", "/")
        # From each of the four alignments: glued to a word, the encoding starts a little later.
        for skip in range(4):
            decoded = _text_of(body[skip:])
            if decoded is not None and self.redact(decoded, depth + 1) != decoded:
                return "[REDACTED:base64]"
        return run

    def _hex(self, depth: int, m: re.Match[str]) -> str:
        run = m.group()
        if len(run) > _BASE64_MAX:
            return run
        # From both alignments: glued to a hex letter (`a414b…`), the bytes start one digit later.
        for skip in (0, 1):
            body = run[skip:len(run) - (len(run) - skip) % 2]
            decoded = _as_text(bytes.fromhex(body))
            if decoded is not None and self.redact(decoded, depth + 1) != decoded:
                return "[REDACTED:hex]"
        return run

    def redact_bytes(self, data: bytes) -> str:
        # Undecodable bytes stay visible (and distinguishable) in the evidence as ``\xNN``
        # rather than collapsing to U+FFFD. They are redacted as one opaque character each
        # (a lone surrogate: neither a token character nor a separator) and written out
        # after: binary output costs the rules a quarter of the characters it would as text.
        text = self.redact(data.decode("utf-8", errors="surrogateescape"))
        return text if text.isascii() else text.translate(_ESCAPES)


def _blocks(lines: list[str]) -> list[tuple[int, int]]:
    """``lines`` (a run of lines of an encoding's alphabet) cut into the blocks a wrapping tool writes: lines of one
    width (16 or more), then one shorter line, or one ending in padding, that ends the block."""
    out, i = [], 0
    while i < len(lines):
        width, j = len(lines[i]), i + 1
        while j < len(lines) and len(lines[j]) == width and not lines[j - 1].endswith("="):
            j += 1
        if j < len(lines) and len(lines[j]) < width and not lines[j - 1].endswith("="):
            j += 1
        if width >= 16:  # shorter lines start no block, nor do the lines of their width after them
            out.append((i, j))
        i = j
    return out


def _outside_markers(found: list[tuple[int, int, str]], text: str, labels: frozenset[str],
                     stored: bool) -> list[tuple[int, int, str]]:
    """``found`` without a project pattern's spans that lie inside a marker already in ``text``: a pattern as broad
    as `[a-z]+_[a-z]+` matches a marker's own label, and rewrote it, deeper each round (read 58's F-0133). Only a
    project's: a built-in rule's token inside text shaped like a marker (`[REDACTED:env:ghp_…]`, printed by the
    command) is still a token. A span that reaches past a marker is kept: what it holds beyond it is text."""
    markers = [span for m in _MARKER.finditer(text) if (span := _label_span(m, labels, stored)) is not None]
    starts = [start for start, _ in markers]

    def inside(start: int, end: int) -> bool:
        i = bisect.bisect_right(starts, start) - 1
        return i >= 0 and end <= markers[i][1]

    return [span for span in found if span[2] != "custom" or not inside(span[0], span[1])]


def _label_span(m: re.Match[str], labels: frozenset[str], stored: bool) -> tuple[int, int] | None:
    """The part of a marker the harness writes itself, or None: `[REDACTED:` and one of its ``labels``, and an
    `env:` marker's variable name when the harness wrote it. Text shaped like a marker with another label, or
    another suffix, is what a command printed (read 59's F-0137, read 60's F-0142, F-0143)."""
    label, _, suffix = m.group()[len("[REDACTED:"):-1].partition(":")
    if label == "env" and suffix and (f"env:{suffix}" in labels or (stored and _SECRET_ENV.search(suffix))):
        # This redactor's own variable; or, in what another shell recorded, a secret-named variable of that
        # shell's, of any case (`DB_PASSWORD`, `db_password`: read 60's F-0143, 62's F-0148). Only there: a
        # recording knows its own variables, so a command printing `[REDACTED:env:<project value>]` has the value
        # redacted where it is written (read 61's F-0146, 62's F-0149), and no shape of a name is trusted then.
        return m.span()
    if label not in labels:
        return None
    return m.start(), m.start() + len("[REDACTED:") + len(label)


def _own_marker(m: re.Match[str], labels: frozenset[str], stored: bool) -> bool:
    """Whether all of the marker ``m`` is the harness's (:func:`_label_span` trusts it to its end): one of its
    ``labels`` alone, or an `env:` marker of a variable it knows. With any other label or suffix it is text a command
    printed."""
    span = _label_span(m, labels, stored)
    return span is not None and span[1] >= m.end() - 1  # the label's end is the marker's but for its `]`


def _merged(found: list[tuple[int, int, str]], meeting: bool = True) -> list[tuple[int, int, str]]:
    """Spans that overlap (or, ``meeting``, meet) as one, in order; earliest first, the longest of those first: its
    label (an own rule's) names the span. Not meeting: a token written twice in a row stays two markers."""
    merged: list[list] = []
    for start, end, name in sorted(found, key=lambda span: (span[0], -span[1])):
        if merged and (start <= merged[-1][1] if meeting else start < merged[-1][1]):
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end, name])
    return [(start, end, name) for start, end, name in merged]


def _text_of(body: str) -> str | None:
    """``body`` base64-decoded, if it is text (a few undecodable characters at its ends allowed:
    letters glued to the encoding); None for binary, such as a digest or a signature."""
    if len(body) < 12:
        return None
    try:
        body = body[:-1] if len(body) % 4 == 1 else body  # one character too many can encode nothing
        # base64.b64decode(..., validate=True) is this call (the base64 module, with struct, is a recording's cost)
        raw = binascii.a2b_base64((body + "=" * (-len(body) % 4)).encode("ascii"), strict_mode=True)
    except (binascii.Error, ValueError):
        return None
    return _as_text(raw)


def _as_text(raw: bytes) -> str | None:
    """``raw`` as text, if it is text (a few undecodable characters allowed); None for binary."""
    decoded = raw.decode("utf-8", "replace")
    bad = sum(1 for c in decoded if c == "\ufffd" or not (c.isprintable() or c in "\t\n\r"))
    return decoded if bad <= 2 and bad * 10 <= len(decoded) else None


def _secret_span(rule: _Rule, m: re.Match[str], red: Redactor) -> tuple[int, int] | None:
    """The span of ``m`` a rule replaces (None: nothing new to hide: what it captured is ``red``'s markers)."""
    if not m.group(0):
        return None  # a user regex that can match empty would otherwise litter markers
    start, end = m.span()
    # Only the ``secret`` group when it took part; if it did not, redact the whole
    # match rather than risk leaking what the user meant to hide.
    if "secret" in rule.regex.groupindex and m.start("secret") != -1:
        start, end = m.span("secret")
    if rule.trim:
        while start < end and m.string[start] in _TRIM:
            start += 1
        while end > start and m.string[end - 1] in _TRIM:
            end -= 1
    secret = m.string[start:end]
    if not secret or red.only_markers(secret) or (rule.trim and _MARKER.search(secret)):
        return None
    return start, end


@functools.lru_cache(maxsize=1)
def _builtin_rules() -> tuple[_Rule, ...]:
    return tuple(_Rule(name, rx) for name, rx in BUILTIN_PATTERNS)


# detect-secrets' plugins that find a kind of credential by its format. Left out: the entropy
# plugins (every digest and commit id the harness records is high-entropy hex), the keyword
# plugin (the own ``secret_assignment`` reads ``key=value`` more precisely) and public IPv4
# addresses (no secret).
_DETECTOR_SKIPPED = frozenset({"IPPublicDetector"})


DetectorSource = tuple[str, str, int]  # (label, regex source, flags): one of detect-secrets' regexes


def detector_sources() -> tuple[DetectorSource, ...]:
    """The regexes of detect-secrets' format plugins, labelled ``ds_<kind>``, as sources.

    Imported here, on first use, by the writers and the last check only: the package (with
    ``requests``) costs about a third of a second to import, which no read-only command pays. Not
    cached in the user's cache folder: the agent can write there, and a planted shorter list would
    weaken redaction without a sign. Missing, it leaves the own patterns alone at work."""
    try:
        from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
        from detect_secrets.plugins.base import RegexBasedDetector
    except ImportError:  # pragma: no cover - a dependency; an install without it still redacts
        return ()
    out = []
    plugins: dict[str, Any] = get_mapping_from_secret_type_to_class()
    for kind, plugin in sorted(plugins.items()):
        if not issubclass(plugin, RegexBasedDetector) or plugin.__name__ in _DETECTOR_SKIPPED:
            continue
        label = "ds_" + re.sub(r"[^a-z]+", "_", kind.lower()).strip("_")
        denylist: Any = plugin.denylist
        for regex in denylist:
            # A token starts a word: "laughs_is_refused_…" holds "ghs_" and 36 word characters, and a
            # test named so is no GitHub token (its id would read as lost where ids are compared redacted).
            out.append((label, r"(?<![A-Za-z0-9_])(?:" + regex.pattern + ")", int(regex.flags)))
    return tuple(out)


@functools.lru_cache(maxsize=4)
def detector_rules(sources: tuple[DetectorSource, ...] | None = None) -> tuple[_Rule, ...]:
    """Rules of detect-secrets' regexes: of ``sources`` (what :func:`detector_sources` returned in
    an earlier run), else of the package imported now."""
    return tuple(_Rule(label, source, trim=True, flags=flags)
                 for label, source, flags in (detector_sources() if sources is None else sources))


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
    r"""``value`` as output may spell it: verbatim, JSON-escaped (with ``/`` as ``\/``, non-ASCII as
    ``\uXXXX`` or not), and base64-encoded whole (a Kubernetes Secret's `data:`), which a value too short for
    its encoding to be decoded (16 characters) would otherwise keep (read 63b's F-0168). Longest first, so no
    spelling is left half matched."""
    import base64
    import json

    forms = {value}
    for ascii_only in (True, False):
        escaped = json.dumps(value, ensure_ascii=ascii_only)[1:-1]
        forms |= {escaped, escaped.replace("/", "\\/")}
    encoded = base64.b64encode(value.encode("utf-8", "surrogateescape")).decode().rstrip("=")
    forms |= {encoded, encoded.replace("+", "-").replace("/", "_")}
    return sorted(forms, key=lambda f: -len(f))


@functools.lru_cache(maxsize=1)
def _secret_flag() -> re.Pattern[str]:
    """A secret-named flag, whole: compiled on first use (an argv without a `-` word never asks)."""
    return re.compile(rf"(?i)-{{1,2}}(?:{_FLAG_NAME})")


def _is_secret_flag(word: str) -> bool:
    return word.startswith("-") and _secret_flag().fullmatch(word) is not None  # the pattern starts with `-`


def redact_argv(argv: list[str], redactor: Redactor, joined: bool = True) -> list[str]:
    """``argv`` with every element redacted, and the value of a secret-named flag replaced
    whatever it looks like (``--password hunter2``, ``--token=abc``): on a command line
    the flag is the only sign that a short, plain value is a secret. ``joined``: and what the words
    joined reveal (:func:`_joined_secrets`), which a writer redacts; not what a person wrote in config.yaml,
    whose `grep -rn "password:" config/` the commit check must not refuse."""
    out: list[str] = []
    after_flag = False
    for arg in argv:
        flag, eq, value = arg.partition("=")
        if after_flag:
            out.append(_flag_value(arg, redactor))
        elif eq and _is_secret_flag(flag):
            out.append(f"{flag}={_flag_value(value, redactor)}")
        else:
            out.append(redactor.redact(arg))
        after_flag = not eq and _is_secret_flag(arg)
    return _joined_secrets(out, redactor) if joined else out


def _joined_secrets(words: list[str], redactor: Redactor) -> list[str]:
    """``words`` with every word a secret found in the words joined by spaces covers replaced: `-H`,
    `Authorization:`, `TOKEN` are each harmless alone, and every reader of a command line (the one-line command,
    the commit check) reads them joined (read 63b's F-0160..F-0162). A word that is the harness's markers already
    stays (:meth:`Redactor.only_markers`)."""
    joined = " ".join(words)
    # Not a value that begins a word after a `NAME=` word: `env GITHUB_TOKEN= sh check.sh` gives the variable nothing,
    # and `sh` is the program (read 65's F-0214); `password = VALUE`, `=` a word of its own, is an assignment (F-0223).
    found = sorted((start, end, name) for _, _, start, end, name in redactor._matches(joined)
                   if start < end and not (start >= 3 and joined[start - 2:start] == "= " and joined[start - 3] != " "))
    if not found:
        return words
    out = []
    for word, name in zip(words, _covering(words, found)):
        if name is None or redactor.only_markers(word):
            out.append(word)
        else:
            redacted = redactor.redact(word)
            out.append(redacted if redacted != word else f"[REDACTED:{name}]")
    return out


def _covering(words: list[str], found: Sequence[tuple[int, int, str]]) -> list[str | None]:
    """For each of ``words`` (joined by single spaces), the rule of the first of ``found`` (sorted by start) that
    meets it, or None. The words and the spans are walked together, each span passed once: each word reading every
    span was quadratic in a long argv (read 64's F-0211)."""
    names: list[str | None] = []
    pos = first = 0
    for word in words:
        start, end = pos, pos + len(word)
        pos = end + 1
        while first < len(found) and found[first][1] <= start:  # over before this word: over for every later one
            first += 1
        name, k = None, first
        while k < len(found) and found[k][0] < end:
            if found[k][1] > start:
                name = found[k][2]
                break
            k += 1
        names.append(name)
    return names


def _flag_value(value: str, redactor: Redactor) -> str:
    # Keep a more specific label when a rule already knows the value (github_token, env:X).
    if not value:
        return value
    redacted = redactor.redact(value)
    return redacted if redactor.only_markers(redacted) else "[REDACTED:secret_flag]"


def compile_patterns(extra: list[str] | tuple[str, ...] = (),
                     literals: Mapping[str, str] | None = None,
                     detector: bool | tuple[DetectorSource, ...] = False) -> Redactor:
    """Built-in rules followed by the user's ``extra`` regexes (labelled ``custom``).

    ``literals`` maps a name to a value redacted wherever it appears, as ``env:NAME``
    (see :func:`secret_env`); these rules run first, so a known value is never left in
    part by a pattern that recognised only a piece of it. ``detector`` adds detect-secrets'
    plugins after the built-in rules (what writes ``.harness/`` and its last check ask for), given
    as their sources (:func:`detector_sources`) or True to read them from the package now.
    """
    custom = tuple(_Rule("custom", regex) for regex in redaction_patterns.compiled(extra))
    found = detector_rules(None if detector is True else detector) if detector else ()
    return Redactor(_literal_rules(literals or {}) + _builtin_rules() + found + custom)
