"""Redaction: every built-in secret kind goes, ordinary output stays."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.core.redact import BUILTIN_PATTERNS, Redactor, compile_patterns, redact_argv, secret_env
from harness.errors import HarnessError

# Fake secrets are assembled at run time so this file itself does not trip
# secret scanners (GitHub push protection, gitleaks) when committed.
GHP = "ghp_" + "A1b2C3d4E5" * 3 + "F6g7H8"  # ghp_ + 36
PAT = "github_pat_" + "11ABCDEFG0" * 2 + "ab_" + "Zy9" * 20
GLPAT = "glpat-" + "xY7-" * 5
SLACK = "xoxb-" + "1234567890-0987654321-" + "AbCdEf" * 4
SLACK_APP = "xapp-" + "1-A04QWERTY12-6712345098765-" + "9f8e7d6c5b4a3928" * 4  # Socket Mode's SLACK_APP_TOKEN
SLACK_REFRESH = "xoxe-" + "1-My0xLTU1NTU1NTU1NTUtNjcx" + "MjM0NTA5ODc2NS04NzY1NDMy" * 2  # token rotation's
GOOGLE = "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"  # AIza + 35
STRIPE = "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc"
STRIPE_RK = "rk_" + "live_" + "51H8a2bC3d4E5f6G7h8I9j0"
OPENAI = "sk-" + "proj-" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3"
OPENAI_LEGACY = "sk-" + "T3BlbkFJ" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
ANTHROPIC = "sk-" + "ant-api03-" + "Zx9_Yw8-Vu7" * 8 + "AA"
NPM = "npm_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"  # npm_ + 36
AKIA = "AKIA" + "IOSFODNN7EXAMPLE"
ASIA = "ASIA" + "Y34FZKBOKMUTVV7A"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
JWT = (
    "eyJ" + "hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    + ".eyJ" + "zdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0"
    + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)
PEM_BODY = "MIIEowIBAAKCAQEA" + "q1w2e3r4t5y6u7i8o9p0" * 3 + "\nAbCdEfGh1234+/==\n"
SHA1 = "3f786850e387550fdab836ed7e6dc881de23001b"
UUID = "123e4567-e89b-12d3-a456-426614174000"


@pytest.fixture(scope="module")
def r() -> Redactor:
    return compile_patterns()


def pem(kind: str = "RSA ") -> str:
    return f"-----BEGIN {kind}PRIVATE KEY-----\n{PEM_BODY}-----END {kind}PRIVATE KEY-----"


@pytest.mark.parametrize(
    ("text", "secret", "name"),
    [
        (f"push with {GHP} now", GHP, "github_token"),
        (f"token {PAT}", PAT, "github_token"),
        *[(f"x {p}{'Q1w2E3r4T5' * 4}y7U8i9O0P1a2S3d4 y", f"{p}{'Q1w2E3r4T5' * 4}", "github_token")
          for p in ("gho_", "ghu_", "ghs_", "ghr_")],
        (f"CI_JOB {GLPAT} end", GLPAT, "gitlab_token"),
        (f"slack {SLACK}", SLACK, "slack_token"),
        (f"socket mode with {SLACK_APP}", SLACK_APP, "slack_token"),  # F-0116
        (f"rotated to {SLACK_REFRESH}", SLACK_REFRESH, "slack_token"),  # F-0116
        (f"key {GOOGLE}.", GOOGLE, "google_api_key"),
        (f"stripe {STRIPE}", STRIPE, "stripe_key"),
        (f"stripe {STRIPE_RK}", STRIPE_RK, "stripe_key"),
        (f"openai {OPENAI}", OPENAI, "openai_key"),
        (f"openai {OPENAI_LEGACY}", OPENAI_LEGACY, "openai_key"),
        (f"anthropic {ANTHROPIC}", ANTHROPIC, "anthropic_key"),
        (f"//registry.npmjs.org/:_authToken {NPM}", NPM, "npm_token"),
        (f"id {AKIA} used", AKIA, "aws_access_key_id"),
        (f"id {ASIA} used", ASIA, "aws_access_key_id"),
        (f"cookie {JWT}", JWT, "jwt"),
    ],
)
def test_token_formats_are_redacted(r: Redactor, text: str, secret: str, name: str) -> None:
    out = r.redact(text)
    assert secret not in out
    assert f"[REDACTED:{name}]" in out


@pytest.mark.parametrize("kind", ["", "RSA ", "EC ", "DSA ", "OPENSSH ", "ENCRYPTED "])
def test_pem_block_is_redacted_and_surroundings_kept(r: Redactor, kind: str) -> None:
    out = r.redact(f"before\n{pem(kind)}\nafter")
    assert out == "before\n[REDACTED:private_key]\nafter"


def test_pem_cut_off_after_begin_is_redacted_to_end(r: Redactor) -> None:
    text = "log line\n" + pem()[:60]
    assert r.redact(text) == "log line\n[REDACTED:private_key]"


def test_pem_cut_off_before_end_is_redacted_from_start(r: Redactor) -> None:
    full = pem()
    window = full[40:] + "\nnext log line"  # the window starts inside the key body
    out = r.redact(window)
    assert out == "[REDACTED:private_key]\nnext log line"
    assert "MIIE" not in out and "q1w2e3" not in out


def test_orphan_end_then_full_block(r: Redactor) -> None:
    text = pem()[40:] + "\nmiddle\n" + pem("EC ") + "\ntail"
    assert r.redact(text) == "[REDACTED:private_key]\nmiddle\n[REDACTED:private_key]\ntail"


def test_two_pem_blocks_keep_text_between(r: Redactor) -> None:
    out = r.redact(f"{pem()}\nkeep me\n{pem('OPENSSH ')}")
    assert out == "[REDACTED:private_key]\nkeep me\n[REDACTED:private_key]"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Authorization: Bearer abc", "Authorization: Bearer [REDACTED:authorization]"),
        ("authorization: Basic dXNlcjpwYXNz", "authorization: Basic [REDACTED:authorization]"),
        ('-H "Authorization: token s3cr3t"', '-H "Authorization: token [REDACTED:authorization]"'),
        ("curl bearer a1b2c3d4e5f6g7", "curl bearer [REDACTED:bearer_token]"),
        ("Bearer AbCdEfGhIjKlMnOpQrStUvWxYz", "Bearer [REDACTED:bearer_token]"),
        (f"Authorization: Bearer {JWT}", "Authorization: Bearer [REDACTED:jwt]"),
    ],
)
def test_bearer_keeps_scheme_word(r: Redactor, text: str, expected: str) -> None:
    assert r.redact(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "postgres://app:hunter2@db.internal:5432/prod",
            "postgres://app:[REDACTED:url_password]@db.internal:5432/prod",
        ),
        ("redis://:pa55@cache/0", "redis://:[REDACTED:url_password]@cache/0"),
        ("https://bob:p@ss@example.com/x", "https://bob:[REDACTED:url_password]@example.com/x"),
        (f"https://x:{GHP}@github.com/o/r", "https://x:[REDACTED:github_token]@github.com/o/r"),
    ],
)
def test_url_password_keeps_scheme_user_host(r: Redactor, text: str, expected: str) -> None:
    assert r.redact(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("password=hunter2", "password=[REDACTED:secret_assignment]"),
        ("passwd: swordfish", "passwd: [REDACTED:secret_assignment]"),
        ("DB_PASSWORD=s3cret!", "DB_PASSWORD=[REDACTED:secret_assignment]"),
        ("secret = abc123", "secret = [REDACTED:secret_assignment]"),
        ("GITHUB_TOKEN=abcdef", "GITHUB_TOKEN=[REDACTED:secret_assignment]"),
        # '&' may be part of a password, so an unquoted value runs on to whitespace.
        ("?api_key=zzz&x=1 next", "?api_key=[REDACTED:secret_assignment] next"),
        ("x-api-key: kkk", "x-api-key: [REDACTED:secret_assignment]"),
        ('{"password": "correct horse battery"}', '{"password": "[REDACTED:secret_assignment]"}'),
        ("client_secret='a b'", "client_secret='[REDACTED:secret_assignment]'"),
        ("--password=pw1 --user=me", "--password=[REDACTED:secret_assignment] --user=me"),
        (f"token={GHP}", "token=[REDACTED:github_token]"),
    ],
)
def test_secret_assignments_redact_value_only(r: Redactor, text: str, expected: str) -> None:
    assert r.redact(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"aws_secret_access_key = {AWS_SECRET}", "aws_secret_access_key = [REDACTED:aws_secret_key]"),
        (f"AWS_SECRET_ACCESS_KEY={AWS_SECRET}", "AWS_SECRET_ACCESS_KEY=[REDACTED:aws_secret_key]"),
        (f'"SecretAccessKey": "{AWS_SECRET}"', '"SecretAccessKey": "[REDACTED:aws_secret_key]"'),
    ],
)
def test_aws_secret_assignment(r: Redactor, text: str, expected: str) -> None:
    assert r.redact(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        f"commit {SHA1} merged",
        f"HEAD is now at {SHA1[:7]}",
        f"request id {UUID}",
        "Enter your password to continue. The password is checked server-side.",
        "password",
        "Password:",
        "the bearer of bad news; a bearer instrument",
        "max_tokens=512 prompt_tokens: 1234 secrets: 3",
        "if token == expected:",
        "PWD=/work/main OLDPWD=/tmp",
        "https://example.com:8443/path?q=1 and git@github.com:o/r.git",
        "sk-learn is not a key; neither is sk-some-long-hyphenated-name",
        "AKIAshort ghp_short eyJnotajwt",
        "=== 3 passed, 1 skipped in 0.12s ===",
    ],
)
def test_non_secrets_survive(r: Redactor, text: str) -> None:
    assert r.redact(text) == text


def test_builtin_names_and_regexes_are_strings() -> None:
    assert BUILTIN_PATTERNS
    assert all(isinstance(n, str) and isinstance(rx, str) for n, rx in BUILTIN_PATTERNS)


def test_user_pattern_whole_match() -> None:
    r = compile_patterns([r"ACME-\d{6}"])
    assert r.redact("ticket ACME-123456 ok") == "ticket [REDACTED:custom] ok"


def test_user_pattern_secret_group_only() -> None:
    r = compile_patterns((r"license=(?P<secret>[A-Z0-9]+)",))
    assert r.redact("license=ABC123 rest") == "license=[REDACTED:custom] rest"


def test_user_pattern_matching_empty_does_not_litter() -> None:
    assert compile_patterns([r"x*"]).redact("abc") == "abc"


def test_user_patterns_come_after_builtins_and_do_not_touch_builtins() -> None:
    r = compile_patterns([r"ACME-\d+"])
    assert r.redact(f"{GHP} ACME-1") == "[REDACTED:github_token] [REDACTED:custom]"
    assert compile_patterns().redact("ACME-1") == "ACME-1"


@pytest.mark.parametrize("bad", [r"(unclosed", r"*oops", r"(?P<secret>a"])
def test_invalid_user_regex_is_a_harness_error(bad: str) -> None:
    with pytest.raises(HarnessError) as exc:
        compile_patterns([r"ok\d", bad])
    assert bad in exc.value.message
    assert exc.value.exit_code == 2


def test_non_string_user_pattern_is_a_harness_error() -> None:
    with pytest.raises(HarnessError):
        compile_patterns([42])  # type: ignore[list-item]


def test_redact_bytes_handles_binary_and_redacts(r: Redactor) -> None:
    data = b"\x00\xff\xfe binary \x80 " + f"password={'hunter2'}".encode() + " caf\u00e9".encode()
    out = r.redact_bytes(data)
    assert "\\xff\\xfe" in out and "\\x80" in out  # undecodable bytes stay visible
    assert "hunter2" not in out
    assert out.endswith("password=[REDACTED:secret_assignment] caf\u00e9")


def test_redact_bytes_on_random_bytes_does_not_crash(r: Redactor) -> None:
    data = bytes(range(256)) * 64
    assert isinstance(r.redact_bytes(data), str)


def test_all_secrets_in_one_log_are_gone(r: Redactor) -> None:
    secrets = [GHP, PAT, GLPAT, SLACK, GOOGLE, STRIPE, OPENAI, ANTHROPIC, NPM, AKIA, JWT, AWS_SECRET]
    log = "\n".join(f"line {i}: value {s}" for i, s in enumerate(secrets))
    log += f"\naws_secret_access_key={AWS_SECRET}\n{pem()}\nmysql://root:rootpw@db/x\n"
    out = r.redact(log)
    for s in [*secrets, "rootpw", "MIIEowIBAAKCAQEA"]:
        if s is AWS_SECRET:
            continue  # bare 40-char base64 without context is deliberately not redacted
        assert s not in out, s
    assert f"aws_secret_access_key={AWS_SECRET}" not in out
    assert "line 0: value" in out and "mysql://root:" in out and "@db/x" in out


# -- secret-named flags, URL passwords, environment values --------------------------------

@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["mysql", "--password", "hunter2secret"], ["mysql", "--password", "[REDACTED:secret_flag]"]),
        (["x", "-token", "abc", "--user", "me"], ["x", "-token", "[REDACTED:secret_flag]", "--user", "me"]),
        (["x", "--API-KEY", "k"], ["x", "--API-KEY", "[REDACTED:secret_flag]"]),
        (["x", "--api_key=k", "--apikey", "k"], ["x", "--api_key=[REDACTED:secret_flag]", "--apikey",
                                                 "[REDACTED:secret_flag]"]),
        (["x", "--passwd=pw", "--pass", "pw"], ["x", "--passwd=[REDACTED:secret_flag]", "--pass",
                                                "[REDACTED:secret_flag]"]),
        (["x", "--auth-token", "a", "--access-token", "b", "--client-secret", "c", "--private-key", "d",
          "--key", "e", "--secret", "f", "--db-password", "g"],
         ["x", "--auth-token", "[REDACTED:secret_flag]", "--access-token", "[REDACTED:secret_flag]",
          "--client-secret", "[REDACTED:secret_flag]", "--private-key", "[REDACTED:secret_flag]",
          "--key", "[REDACTED:secret_flag]", "--secret", "[REDACTED:secret_flag]",
          "--db-password", "[REDACTED:secret_flag]"]),
        # a value a rule recognises keeps its more specific label
        (["git", "--token", GHP], ["git", "--token", "[REDACTED:github_token]"]),
        # flags that carry no secret, and a trailing flag with no value
        (["x", "--sort-key", "name", "--max-tokens", "5", "--no-token", "--verbose", "--password"],
         ["x", "--sort-key", "name", "--max-tokens", "5", "--no-token", "--verbose", "--password"]),
        # every other element still goes through the patterns
        (["curl", f"https://u:{'pw12'}@h/x"], ["curl", "https://u:[REDACTED:url_password]@h/x"]),
    ],
)
def test_redact_argv_redacts_the_value_of_secret_named_flags(r: Redactor, argv, expected) -> None:
    assert redact_argv(argv, r) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("run --password S3cret now", "run --password [REDACTED:secret_flag] now"),
        ("--api-key K3yValue123", "--api-key [REDACTED:secret_flag]"),
        ("-token\tabc123", "-token\t[REDACTED:secret_flag]"),
        ('--password "a b c"', '--password "[REDACTED:secret_flag]"'),
        ("--token=abc123", "--token=[REDACTED:secret_assignment]"),
        (f"--token {GHP}", "--token [REDACTED:github_token]"),
    ],
)
def test_secret_flag_followed_by_a_value_in_text_is_redacted(r: Redactor, text: str, expected: str) -> None:
    assert r.redact(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("https://bob:pa/ss#word@host/x", "https://bob:[REDACTED:url_password]@host/x"),
        ("git clone https://bob:a:b/c#d@e@host.example/x.git now",
         "git clone https://bob:[REDACTED:url_password]@host.example/x.git now"),
    ],
)
def test_url_password_runs_to_the_last_at_before_the_host(r: Redactor, text: str, expected: str) -> None:
    assert r.redact(text) == expected


@pytest.mark.parametrize("text", ["--max-tokens 512 --no-token --sort-key name", "https://h.example:8443/a#b c@d"])
def test_flag_and_url_rules_leave_non_secrets_alone(r: Redactor, text: str) -> None:
    assert r.redact(text) == text


def test_secret_env_picks_secret_names_with_long_values() -> None:
    env = {"MY_SERVICE_CRED": "Zq8wQ7pL1x", "api_key": "abcdefgh", "DB_PASSWD": "12345678",
           "GH_TOKEN": "short", "HOME": "/home/someone", "GIT_AUTHOR_EMAIL": "a@example.com",
           "SSH_AUTH_SOCK": "/tmp/ssh/agent.1", "X_SECRET": "s" * 8, "ACCESS_PASS": "p" * 9}
    assert secret_env(env) == {"MY_SERVICE_CRED": "Zq8wQ7pL1x", "api_key": "abcdefgh", "DB_PASSWD": "12345678",
                               "SSH_AUTH_SOCK": "/tmp/ssh/agent.1", "X_SECRET": "s" * 8, "ACCESS_PASS": "p" * 9}


def test_literals_are_redacted_first_and_labelled_with_their_name() -> None:
    r = compile_patterns(literals={"MY_SERVICE_CRED": "Zq8wQ7pL1x", "LONG_KEY": "Zq8wQ7pL1x-and-more",
                                   "TINY_KEY": "abc"})
    out = r.redact("a Zq8wQ7pL1x-and-more b password=Zq8wQ7pL1x c abc")
    assert out == ("a [REDACTED:env:LONG_KEY] b password=[REDACTED:env:MY_SERVICE_CRED] c abc")
    assert compile_patterns(literals={"odd-name.key": "v" * 10}).redact("v" * 10) == "[REDACTED:env:odd_name_key]"


@pytest.mark.parametrize("before", ["\x1b[31m", "\\u001b[1;32m", "xyz", "id_", "(", "=", "9"])
@pytest.mark.parametrize("token", [GHP, AKIA, GLPAT, NPM, GOOGLE, STRIPE, JWT, ANTHROPIC])
def test_token_after_an_escape_code_punctuation_or_word_characters_is_redacted(r: Redactor, before: str,
                                                                               token: str) -> None:
    out = r.redact(f"{before}{token}\x1b[0m")
    assert token[6:] not in out and "[REDACTED:" in out


def test_token_followed_by_word_characters_is_still_redacted(r: Redactor) -> None:
    assert GHP[4:] not in r.redact(GHP + "_suffix")
    assert AKIA[4:] not in r.redact(AKIA + "abc")


def test_json_escaped_url_password_is_redacted(r: Redactor) -> None:
    out = r.redact('{"url": "https:\\/\\/deploy:hunter2hunter2@git.example.com\\/x.git"}')
    assert "hunter2hunter2" not in out and "[REDACTED:url_password]" in out


def test_json_escaped_secret_assignment_is_redacted(r: Redactor) -> None:
    out = r.redact('"{\\"password\\": \\"hunter2hunter2\\"}"')
    assert "hunter2hunter2" not in out


def test_secret_env_value_is_redacted_in_its_json_escaped_spelling() -> None:
    r = compile_patterns(literals={"DEPLOY_TOKEN": 'ab/cd"ef12345'})
    assert r.redact('{"v": "ab\\/cd\\"ef12345"}') == '{"v": "[REDACTED:env:DEPLOY_TOKEN]"}'


def test_hyphenated_words_glued_to_sk_dash_stay_readable(r: Redactor) -> None:
    text = "risk-assessment-module-2024-final desk-lamp-model-123456789"
    assert r.redact(text) == text


@pytest.mark.parametrize("text", [
    '{"password": "hu\\"nter22hunter"}',     # a JSON-escaped quote inside the value
    "'password' => 'hunter22hunter'",        # Perl, PHP and Ruby hashes
    "password => hunter22hunter",
    "token: 'it\\'shunter22hunter'",
])
def test_a_quoted_secret_with_an_escaped_quote_or_after_a_fat_arrow_is_redacted_whole(r: Redactor, text: str) -> None:
    out = r.redact(text)
    assert "hunter" not in out and "[REDACTED:secret_assignment]" in out, out


@pytest.mark.parametrize("token", [GHP, "github_pat_" + "B" * 40, "glpat-" + "c" * 24, "xoxb-" + "1" * 12,
                                   "xapp-" + "1" * 12, "npm_" + "d" * 36, "sk-ant-" + "e" * 24])
def test_a_token_written_twice_without_a_separator_is_redacted_both_times(r: Redactor, token: str) -> None:
    # e.g. the same token printed to stdout and to stderr with no newline: the log joins them.
    out = r.redact(token + token)
    assert out.count("[REDACTED:") == 2 and token[-8:] not in out, out


def test_an_invalid_redaction_pattern_is_refused_by_status_too_not_only_by_evidence(h, task, repo):
    path = repo / ".harness/config.yaml"
    path.write_text(path.read_text().replace("patterns: []", 'patterns: ["("]'))
    for args in (("status",), ("evidence", "build", "--", "true")):
        r = h(*args)
        assert r.code == 2 and ".harness/config.yaml: invalid redaction pattern '('" in r.err, (args, r.text)


# -- every rule reads the text as written (read 56b's F-0115) -------------------------------------------

S3_SECRET = "wJalrXUtnFEMI" + "K7MDENGbPxRfiCYEXAMPLEKEY"


def test_a_key_id_in_a_url_s_user_part_does_not_hide_the_secret_key_after_it(r: Redactor) -> None:
    # Hadoop's s3a://, duplicity's s3://: the key id's marker took the user part the url_password rule reads.
    out = r.redact(f"reading s3a://{AKIA}:{S3_SECRET}@bucket/path")
    assert AKIA not in out and S3_SECRET not in out, out
    assert out == "reading s3a://[REDACTED:aws_access_key_id]:[REDACTED:url_password]@bucket/path"


@pytest.mark.parametrize("text", ["password=hunter2hunter2", "--password hunter2hunter2",
                                  '{"password": "hunter2hunter2"}'])
def test_a_secret_named_variable_whose_value_is_a_word_does_not_hide_what_that_word_marks(text: str) -> None:
    # The postgres image's POSTGRES_HOST_AUTH_METHOD=password: its value replaced every `password` first.
    red = compile_patterns(literals=secret_env({"POSTGRES_HOST_AUTH_METHOD": "password"}))
    out = red.redact(text)
    assert "hunter2" not in out, out


# -- a marker is a boundary: what it lets a rule see is found too, and redacting twice changes nothing (F-0126) --

GLUED_VALUE = "Tr0ub4dor-and-3-horses"
OPAQUE = "Zq8xK2mP9vL4nR7tY1wB5cD3fG6hJ0kS"


@pytest.mark.parametrize("text", [f"deploy {AKIA}--password {GLUED_VALUE}", f"id {AKIA}-token {GLUED_VALUE}",
                                  f"key {GOOGLE}bearer {OPAQUE}"], ids=["flag-after-key-id", "token-flag", "bearer"])
def test_a_value_glued_after_a_token_is_redacted_in_one_pass(text: str) -> None:
    red = compile_patterns(detector=True)
    once = red.redact(text)
    assert GLUED_VALUE not in once and OPAQUE not in once, once
    assert red.redact(once) == once


FRAGMENTS = [GHP, AKIA, GOOGLE, SLACK, JWT, "password=", "password: ", "token=", "Authorization: Bearer ", "bearer ",
             "--password ", "-token ", "https://", "s3a://", "user:", "@host", "secret_access_key=", " ", "\n", "=", ":",
             "@", "/", '"', "'", ";", GLUED_VALUE, OPAQUE, "-----BEGIN RSA PRIVATE KEY-----\n",
             "-----END RSA PRIVATE KEY-----\n", "MIIEabc\n", "\x1b[31m", "%41", "[REDACTED:x]", "ghp_", "#"]


@given(st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=10))
def test_redacting_what_was_redacted_changes_nothing(parts: list[str]) -> None:
    red = compile_patterns(detector=True)
    once = red.redact("".join(parts))
    assert red.redact(once) == once


@pytest.mark.parametrize("pattern", ["[a-z]+_[a-z]+", "[A-Z]+", "REDACTED"])
def test_a_project_pattern_that_matches_a_marker_s_text_leaves_the_marker_whole(pattern: str) -> None:
    # Read 58's F-0133: the pattern rewrote `[REDACTED:aws_access_key_id]` itself, deeper each round.
    red = compile_patterns([pattern])
    once = red.redact(f"id {AKIA} used")
    assert once == "id [REDACTED:aws_access_key_id] used"
    assert red.redact(once) == once


def test_a_token_inside_text_shaped_like_a_marker_is_still_redacted() -> None:
    # What F-0133's fix must not give away: a command printing `[REDACTED:env:<token>]` hides no token.
    out = compile_patterns(["[A-Z]+"]).redact(f"[REDACTED:env:{GHP}]")
    assert GHP not in out and "[REDACTED:github_token]" in out, out


def test_a_project_pattern_s_value_inside_text_shaped_like_a_marker_is_still_redacted() -> None:
    # Read 59's F-0137: only the label a marker's writer puts there is the harness's; `:<value>` after it is text.
    value = "corp_" + "a1b2c3d4e5f6a7b8"
    red = compile_patterns(["corp_[a-z0-9]{16}"])
    out = red.redact(f"[REDACTED:x:{value}]")
    assert value not in out, out
    env_marker = "[REDACTED:env:CORP_DEPLOY_TOKEN]"  # a secret-named variable's marker stays whole
    assert _stored(compile_patterns(["[A-Z]+_[A-Z]+"])).redact(env_marker) == env_marker


@pytest.mark.parametrize(("pattern", "printed"), [("corp_[a-z]{16}", "[REDACTED:corp_abcdefghijklmnop]"),
                                                  ("CORP[A-Z0-9]{16}", "[REDACTED:env:CORPK3Y9ABCD7EF01234]")],
                         ids=["as-a-label", "as-an-env-suffix"])
def test_a_project_value_printed_in_the_shape_of_a_marker_is_redacted(pattern: str, printed: str) -> None:
    # Read 60's F-0142: a label is the harness's only when it names one of its rules; an env suffix, a secret name.
    value = printed[len("[REDACTED:"):-1].removeprefix("env:")
    assert value not in compile_patterns([pattern]).redact(printed)


def _stored(red: Redactor) -> Redactor:
    """``red`` as the commit check reads files another shell wrote (secrets_check.stored_redactor)."""
    return Redactor(red.rules, stored=True)


def test_the_harness_s_env_marker_for_a_lower_case_variable_stays_whole() -> None:
    # Read 60's F-0143: `db_password` is secret-named too, and its marker is the harness's own.
    marker = "[REDACTED:env:db_password]"
    assert _stored(compile_patterns(["[a-z]+_[a-z]+"])).redact(marker) == marker
    own = compile_patterns(["[a-z]+_[a-z]+"], literals={"db_password": "Zq8wQ7pL1xR4vN2"})
    assert own.redact(marker) == marker  # the recording's own variable, whatever the shape


@pytest.mark.parametrize("printed", ["[REDACTED:env:corp_passkeyabcdefghi]", "[REDACTED:env:CORP_PASSKEYABCDEFGHI]"],
                         ids=["lower", "upper"])
def test_a_recording_keeps_no_project_value_printed_as_an_env_marker_of_no_variable_of_its_own(printed: str) -> None:
    # Read 62's F-0149 (and its upper-case twin): a recording knows its variables; the shapes are for the
    # commit check, which reads what other shells wrote.
    value = printed[len("[REDACTED:env:"):-1]
    red = compile_patterns(["(?i)corp_[a-z]{16}"])
    assert value not in red.redact(printed)
    assert _stored(red).redact(printed) == printed


def test_a_lower_case_variable_s_marker_inside_text_is_the_harness_s_in_what_another_shell_recorded() -> None:
    # F-0143 inside a command line or an output line, not only as a whole argv word: read at commit.
    text = "echo '[REDACTED:env:db_password]'"
    assert _stored(compile_patterns(["[a-z]+_[a-z]+"])).redact(text) == text


def test_the_harness_s_base64_marker_is_a_marker() -> None:
    # Read 61's F-0144: a label with a digit was no marker, so a project pattern rewrote `[REDACTED:base64]`.
    import base64

    red = compile_patterns(["[A-Z0-9]{8}"])
    once = red.redact("blob " + base64.b64encode(b"password=hunter2hunter2hunter2").decode() + " end")
    assert "[REDACTED:base64]" in once and red.redact(once) == once, once


def test_a_project_value_in_an_env_marker_s_shape_inside_other_text_is_redacted() -> None:
    # Read 61's F-0146: a suffix holding KEY or PASS made any such text the harness's marker.
    value = "corp_passkeyabcdefghi"
    out = compile_patterns(["corp_[a-z]{16}"]).redact(f"note [REDACTED:env:{value}] done")
    assert value not in out, out


def test_the_harness_s_env_marker_of_a_variable_this_shell_lacks_stays_whole() -> None:
    # Read 62's F-0148: written by a recording that had CORP_DEPLOY_TOKEN, read at commit in a shell without it.
    text = "using [REDACTED:env:CORP_DEPLOY_TOKEN] now"
    assert _stored(compile_patterns(["DEPLOY_[A-Z0-9]{5,}"])).redact(text) == text


def test_an_authorization_variable_is_secret_named_and_an_author_variable_is_not() -> None:
    # Read 63b's F-0165: AUTH(?!OR) left out every *AUTHORIZATION* variable with GIT_AUTHOR_*.
    env = {"HTTP_AUTHORIZATION": "Basic dXNlcjpodW50ZXIy", "GIT_AUTHOR_NAME": "Ada Lovelace", "AUTHORS": "Ada, Bob, Eve"}
    assert set(secret_env(env)) == {"HTTP_AUTHORIZATION"}


def test_a_short_secret_variable_s_value_in_base64_is_redacted() -> None:
    # Read 63b's F-0168: 8 characters encode to 12, too short for a base64 run to be decoded.
    red = compile_patterns(literals={"DB_PASS": "hunter22"})
    assert "aHVudGVyMjI" not in red.redact("data:\n  db: aHVudGVyMjI=\n")


def test_a_project_pattern_leaves_markers_whole_in_text_with_escape_codes() -> None:
    # Read 63b's F-0169: the pass over the text as a terminal shows it dropped no span inside a marker.
    red = compile_patterns(["[a-z]+_[a-z]+"])
    once = red.redact(f"\x1b[32m{GHP}\x1b[0m")
    assert GHP not in once and red.redact(once) == once, once


@pytest.mark.parametrize("text", ["env DB_PASS=Hq7pW2xZr9 sh", "connecting with API_TOKEN_V2=Kd83jfLq02mZ",
                                  "DB_PASSWORD_PROD='Hq7pW2xZr9' ./deploy", "export SESSION_KEY=Kd83jfLq02mZ"])
def test_a_secret_named_variable_given_inline_keeps_no_value(text: str) -> None:
    # Read 63b's F-0171: the assignment rule wanted the secret word right before `=`.
    red = compile_patterns()
    once = red.redact(text)
    assert "Hq7pW2xZr9" not in once and "Kd83jfLq02mZ" not in once and red.redact(once) == once, once
    assert red.redact("GIT_AUTHOR_NAME=Ada PATH=/usr/bin") == "GIT_AUTHOR_NAME=Ada PATH=/usr/bin"


@pytest.mark.parametrize("text", ["curl -fsS -u admin:Hq7pW2xZr9Lm http://x", "curl --user=admin:Hq7pW2xZr9Lm http://x",
                                  "docker login -u ci -p Hq7pW2xZr9Lm registry.example.com",
                                  "sshpass -p Hq7pW2xZr9Lm ssh host", "mysql -uroot -pHq7pW2xZr9Lm db"])
def test_a_password_given_by_a_user_or_a_short_flag_is_redacted(text: str) -> None:
    # Read 63b's F-0180: curl's -u user:PASSWORD, a registry login's -p, sshpass's, mysql's glued -pPASSWORD.
    red = compile_patterns()
    once = red.redact(text)
    assert "Hq7pW2xZr9Lm" not in once and red.redact(once) == once, once
    assert "Hq7pW2xZr9Lm" not in " ".join(redact_argv(text.split(), red))
    assert red.redact("ssh -p 22 host") == "ssh -p 22 host"


def _wrapped(encoded: str, width: int) -> str:
    return "".join(encoded[i:i + width] + "\n" for i in range(0, len(encoded), width))


@pytest.mark.parametrize("how", ["xxd -p", "base64"])
def test_a_secret_wrapped_over_lines_of_an_encoding_is_redacted(how: str) -> None:
    # Read 63b's F-0166, F-0167: each line was decoded alone, and the token straddles the wrap.
    import base64

    raw = f"https://octocat-deploy-bot-2024:{GHP}@github.com\n".encode()
    text = _wrapped(raw.hex(), 60) if how == "xxd -p" else _wrapped(base64.b64encode(raw).decode(), 76)
    red = compile_patterns()
    once = red.redact(text)
    assert once.count("\n") == text.count("\n") and "[REDACTED:" in once and red.redact(once) == once, once
    harmless = _wrapped(base64.b64encode(b"nothing to hide here, only words " * 4).decode(), 76)
    assert red.redact(harmless) == harmless


@pytest.mark.parametrize("line", ['    DB_PASSWORD: str = "Hq7pW2xZr9Lm"', 'const password: string = "Hq7pW2xZr9Lm";',
                                  '\tpassword := "Hq7pW2xZr9Lm"', "<server><password>Hq7pW2xZr9Lm</password></server>"],
                         ids=["python-typed", "typescript-typed", "go", "xml"])
def test_a_password_assigned_as_source_code_spells_it_is_redacted(line: str) -> None:
    # Read 63b's F-0172: a typed assignment's type was taken for the value; Go's `:=` and an XML element were missed.
    red = compile_patterns()
    once = red.redact(line)
    assert "Hq7pW2xZr9Lm" not in once and red.redact(once) == once, once


def test_a_putty_key_s_private_lines_and_a_json_web_key_s_private_members_are_redacted() -> None:
    # Read 63b's F-0179: only PEM blocks were known.
    text = ('PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 2\nAAAAIFm3dUqO0CqkT6cJrfH1mSxYyR9Gj7WbQeZkP4sN5wKx\n'
            'AAAA\nPrivate-MAC: 8f2c1a7e\n{"kty":"EC","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",'
            '"d":"jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"}\n')
    red = compile_patterns()
    once = red.redact(text)
    assert "AAAAIFm3dUqO0C" not in once and "jpsQnnGQmL" not in once and red.redact(once) == once, once
    assert "Private-MAC: 8f2c1a7e" in once and "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU" in once  # public parts


def test_a_secret_wrapped_after_a_line_that_shows_its_context_is_redacted_whole() -> None:
    # Read 64's F-0203: the first line, decoded alone, showed `password=Z` and was hidden; the joined decoding then
    # began at the next line, which kept the secret's rest.
    import base64

    raw = b"#######connection settings for the staging db: password=Zq8vT3mW9xR2kL7pN4sB (rotate monthly)\n"
    text = _wrapped(base64.b64encode(raw).decode(), 76)
    once = compile_patterns().redact(text)
    assert [line for line in once.splitlines() if not line.startswith("[REDACTED:")] == [], once


def test_a_value_holding_an_equals_sign_is_no_typed_assignment() -> None:
    # Read 64's F-0204: `password: A=B` took A for a type's name and kept it.
    red = compile_patterns()
    once = red.redact("password: Summer2024=Fun!x")
    assert "Summer2024" not in once and red.redact(once) == once, once


@pytest.mark.parametrize("text", ['{"kty":"oct","k":"GawgguFyGrWKav7AX4VKUg12345678"}', "curl -uadmin:Hq7pW2xZr9Lm x",
                                  "mysql -uroot -p'Hq7pW2xZr9Lm' db", "mysqlimport -pHq7pW2xZr9Lm db data.csv"])
def test_the_close_variants_of_the_new_rules_are_redacted(text: str) -> None:
    # Read 64's F-0205: a symmetric JWK's k, curl's glued -u, mysql's quoted -p, mysql's other tools.
    red = compile_patterns()
    once = red.redact(text)
    assert "Hq7pW2xZr9Lm" not in once and "GawgguFyGrWKav7AX4VKUg" not in once and red.redact(once) == once, once


@pytest.mark.parametrize("text", ["env TOKEN_TTL=0 sh check_ttl.sh", "env MAX_TOKENS=4096 AUTH_ENABLED=false pytest",
                                  "env PYTHON_KEYRING_BACKEND=keyring.backends.null.Keyring pytest",
                                  "docker run -u 1000:1000 img", "sshpass -f pwfile ssh -p 2222 host",
                                  "pytest tests/mysql -pno:cacheprovider"])
def test_a_command_that_holds_no_secret_is_kept_as_written(text: str) -> None:
    # Read 64's F-0207, F-0208: the new rules rewrote a reviewer's reproducer (run as stored) and refused config.yaml.
    red = compile_patterns()
    assert red.redact(text) == text
    assert redact_argv(text.split(), red) == text.split()


def test_the_words_a_joined_secret_covers_are_found_in_one_walk() -> None:
    # Read 64's F-0211: each word read every span, quadratic in a long argv (128,000 words: minutes).
    from harness.core.redact import _covering

    class Counted(list):
        reads = 0

        def __getitem__(self, i):
            Counted.reads += 1
            return super().__getitem__(i)

    words = ["-H", "Authorization:", "tok3n"] * 2000
    starts = [sum(len(w) + 1 for w in words[:i]) for i in range(0, len(words), 3)]
    found = Counted(sorted((s + 3, s + 24, "authorization") for s in starts))
    names = _covering(words, found)
    assert names[:3] == [None, "authorization", "authorization"] and names.count(None) == 2000
    assert Counted.reads <= 8 * (len(words) + len(found)), Counted.reads


def test_a_wrapped_block_followed_by_a_short_word_line_is_decoded_without_it() -> None:
    # Read 65's F-0212: `done` after the block joined it, the padding fell inside, and the lines were decoded alone.
    import base64

    raw = b"#######connection settings for the staging db: password=Zq8vT3mW9xR2kL7pN4sB (rotate monthly)\n"
    once = compile_patterns().redact(_wrapped(base64.b64encode(raw).decode(), 76) + "done\n")
    assert once.splitlines()[-1] == "done" and all(
        line.startswith("[REDACTED:") for line in once.splitlines()[:-1]), once


@pytest.mark.parametrize("line", ['    password: str | None = "Zq8vT3mW9xR2kL7pN4sB"',
                                  '    token: dict[str, str] = "Zq8vT3mW9xR2kL7pN4sB"'])
def test_a_typed_assignment_whose_type_holds_spaces_is_redacted(line: str) -> None:
    # Read 65's F-0213: only a one-word type was read as one.
    red = compile_patterns()
    once = red.redact(line)
    assert "Zq8vT3mW9xR2kL7pN4sB" not in once and red.redact(once) == once, once


@pytest.mark.parametrize("argv", [["env", "GITHUB_TOKEN=", "sh", "check.sh"], ["env", "SKIP_AUTH=1", "CACHE_KEY=v1", "sh"],
                                  ["env", "PRIMARY_KEY=id", "BYPASS=1", "sh"], ["docker", "run", "--user", "node:node", "img"],
                                  ["go", "run", "./cmd/probe", "-url=http://localhost:8080/health", "-upstream=db:5432x"]])
def test_a_reviewer_s_command_that_holds_no_secret_is_kept_word_for_word(argv: list[str]) -> None:
    # Read 65's F-0214, F-0217: stored rewritten, the command a finding's reproduction runs was another.
    assert redact_argv(argv, compile_patterns()) == argv


@pytest.mark.parametrize("text", ['DUMP="mysqldump -uroot -pZq8vT3mW9xR2kL7pN4sB db"', "`mysql -pZq8vT3mW9xR2kL7pN4sB`",
                                  "mariadb-admin -pZq8vT3mW9xR2kL7pN4sB status", "mysqlbinlog -pZq8vT3mW9xR2kL7pN4sB x",
                                  "curl --proxy-user u:Zq8vT3mW9xR2kL7pN4sB x", "curl -U u:Zq8vT3mW9xR2kL7pN4sB x",
                                  "  DB_PASS: Zq8vT3mW9xR2kL7pN4sB", '  SESSION_KEY: "Zq8vT3mW9xR2kL7pN4sB"',
                                  "  DB_CREDENTIALS: Zq8vT3mW9xR2kL7pN4sB", "MYSQL_PWD=Zq8vT3mW9xR2kL7pN4sB"])
def test_the_credential_rules_read_their_tools_common_spellings(text: str) -> None:
    # Read 65's F-0215, F-0216: quoted mysql commands, its other tools, curl's proxy user, YAML env maps, MYSQL_PWD.
    red = compile_patterns()
    once = red.redact(text)
    assert "Zq8vT3mW9xR2kL7pN4sB" not in once and red.redact(once) == once, once
    assert red.redact("PWD=/home/ci OLDPWD=/tmp") == "PWD=/home/ci OLDPWD=/tmp"


@pytest.mark.parametrize("line", ["password: Hunter2024xyz retries = 3", "token: q8Zr41kLmn0p expires_in = 3600",
                                  "password: Hunter2024xyz, user = admin"])
def test_a_value_before_a_later_equals_sign_is_no_type(line: str) -> None:
    # Read 66's F-0218: a type that could hold spaces took the value for one, and redacted only what followed `=`.
    red = compile_patterns()
    once = red.redact(line)
    assert "Hunter2024xyz" not in once and "q8Zr41kLmn0p" not in once and red.redact(once) == once, once


@pytest.mark.parametrize("text", ['curl -sS "https://x/items?page=1&per_page=50" -u admin:Amp9Passw0rd',
                                  'curl -H "Content-Type: application/json; charset=utf-8" -u admin:Amp9Passw0rd x',
                                  "curl -sS \\\n  -u admin:Amp9Passw0rd \\\n  https://x/health"])
def test_curl_s_password_is_redacted_however_long_the_command(text: str) -> None:
    # Read 66's F-0219: a `&`, a `;` or a continued line between curl and -u hid the password.
    assert "Amp9Passw0rd" not in compile_patterns().redact(text)


@pytest.mark.parametrize("before, after", [("", "Done\nPASSED\n"), ("0123456789abcdef0123456789abcdef01234567\n", ""),
                                           ("-" * 40 + "\n", "")], ids=["words-after", "commit-id-before", "rule-before"])
def test_a_wrapped_block_among_other_lines_of_its_alphabet_is_decoded_as_a_block(before: str, after: str) -> None:
    # Read 66's F-0220, F-0221: an unpadded block took in the words after it, and a line before it became its first.
    import base64

    raw = b"APP_NAME=aaa\nDB_HOST=db.internal\nDB_USER=app\nDB_PASSWORD=Xy7Qm2Lp9Rt4Vb\n"  # 63 bytes: no padding
    block = _wrapped(base64.b64encode(raw).decode(), 76)
    once = compile_patterns().redact(before + block + after)
    kept = "".join(line for line in once.splitlines() if not line.startswith("[REDACTED:"))
    assert "Xy7Qm2Lp9Rt4Vb" not in base64.b64decode(kept + "===", validate=False).decode("latin-1", "replace"), once
    assert before.strip() in once and after.strip() in once


@pytest.mark.parametrize("argv", [["grep", "-c", "SSH_KEY:", "deploy.yml"], ["grep", "-rn", "AUTH:", "config/"],
                                  ["env", "DB_DRIVER=mysql", "go", "test", "-parallel", "4", "./..."]])
def test_a_heading_or_a_driver_name_is_no_secret(argv: list[str]) -> None:
    # Read 66's F-0222: `NAME: value` read the next word of a grep as a value, and mysql after `=` read -parallel.
    red = compile_patterns()
    assert redact_argv(argv, red) == argv
    assert red.redact("Rows are partitioned by PARTITION_KEY: tenant_id") == "Rows are partitioned by PARTITION_KEY: tenant_id"


def test_a_password_after_an_equals_sign_of_its_own_is_redacted_in_an_argv() -> None:
    # Read 66's F-0223: a value after a word ending in `=` was taken for `NAME= cmd` (an empty assignment).
    argv = ["mytool", "config", "set", "password", "=", "Hunter2Hunter2"]
    assert "Hunter2Hunter2" not in redact_argv(argv, compile_patterns())
    assert redact_argv(["env", "GITHUB_TOKEN=", "sh", "check.sh"], compile_patterns())[2] == "sh"


# -- read 83: a secret written in a marker's shape is text (F-0286) ---------------------------------------------------

MARKED_PW = "Sup3rS3cretPw"


@pytest.mark.parametrize("text", [f"postgres://app:[REDACTED:db:{MARKED_PW}]@db.example.com/app",
                                  f"DB_PASSWORD=[REDACTED:x:{MARKED_PW}]",
                                  f"password=[REDACTED:github_token:{MARKED_PW}]",
                                  f"Authorization: Bearer [REDACTED:x:{MARKED_PW}]",
                                  f"password=[REDACTED:secret_assignment][REDACTED:x:{MARKED_PW}]"],
                         ids=["url-password", "secret-variable", "own-label-other-suffix", "authorization",
                              "after-an-own-marker"])
def test_a_secret_in_a_markers_shape_is_redacted_in_its_context(text: str) -> None:
    # Only a marker the harness writes is what was redacted: any label, or any `:suffix`, is what a command printed.
    red = compile_patterns(detector=True)
    for reader in (red, _stored(red)):
        once = reader.redact(text)
        assert MARKED_PW not in once and reader.redact(once) == once, once


@pytest.mark.parametrize("argv", [["psql", "--password", f"[REDACTED:x:{MARKED_PW}]"],
                                  ["tool", f"--token=[REDACTED:db:{MARKED_PW}]"],
                                  ["curl", "-H", "Authorization:", f"[REDACTED:x:{MARKED_PW}]"]],
                         ids=["flag-then-value", "flag-equals-value", "joined-words"])
def test_a_flags_value_in_a_markers_shape_is_redacted_in_an_argv(argv: list[str]) -> None:
    out = redact_argv(argv, compile_patterns())
    assert MARKED_PW not in " ".join(out), out


@pytest.mark.parametrize("text", ["password=[REDACTED:secret_assignment]", "DB_PASSWORD=[REDACTED:github_token]",
                                  "postgres://app:[REDACTED:url_password]@db.example.com/app",
                                  "Authorization: Bearer [REDACTED:custom]", "token: [REDACTED:base64]",
                                  "password=[REDACTED:env]"],
                         ids=["assignment", "variable", "url", "custom-label", "base64", "env-unnamed"])
def test_the_harness_s_own_markers_in_context_stay_as_written(text: str) -> None:
    red = compile_patterns(detector=True)
    assert red.redact(text) == text and _stored(red).redact(text) == text
    argv = ["psql", "--password", "[REDACTED:secret_flag]", "-H", "Authorization:", "[REDACTED:authorization]"]
    assert redact_argv(argv, red) == argv


def test_an_env_marker_in_context_is_the_harness_s_for_its_own_variable_only() -> None:
    # The recording's own variable; in what another shell recorded, a secret-named one; nothing else.
    text = "password=[REDACTED:env:API_TOKEN]"
    assert compile_patterns(literals={"API_TOKEN": "Zq8wQ7pL1xR4vN2"}).redact(text) == text
    assert _stored(compile_patterns()).redact(text) == text
    assert compile_patterns().redact(text) == "password=[REDACTED:secret_assignment]"
    assert MARKED_PW not in _stored(compile_patterns()).redact(f"password=[REDACTED:env:{MARKED_PW}]")
