"""Credentials the tools print or take with white space, not `=` or `:`, between the secret's name and its value,
and the signatures of signed URLs (read 101's F-0356, F-0357, F-0358): redacted like `name=value`'s, while the prose,
table headers, placeholders and references to where a secret is kept beside them stay as written."""

from __future__ import annotations

import pytest

from harness.core import redact
from harness.core.redact import compile_patterns, redact_argv

# Fake secrets are assembled at run time so this file itself does not trip secret scanners.
AWS_SECRET = "q8Vb3mZ1Xr9LwT2k" + "Pq7Yd4Hs6Ne0Gu5Cj1Af8Rb2"
SESSION = "IQoJb3JpZ2luX2VjEJr" + "//////////wEaCXVzLWVhc3QtMSJHMEUCIQ" + "Dk1AbCdEf9Gh2Ij3Kl4Mn5=="
SAS_SIG = "Qx7vJb2Lm9TzR4kWc1Np" + "Y8sHd3FgA6eU0oKi5MrXtVw%3D"
HEX_SIG = "4f2a8b9c0d1e2f3a4b5c6d7e" + "8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a"
VAULT = "hvs." + "CAESIJlWh0Ls3xkzIGJgbXQ3xV2u8Bzq3xL9mQ5rT8uR2N4pGh4KHGh2cy5WcWpKb2hZU0pGMXBJWmZQd2xDbkNJTnM"
VAULT_BATCH = "hvb." + "AAAAAQJv2M0s7dRk3XcTz9LqWnB4yF1uE6hG8jK5pA0oS3iV7bN2mC9xQ4wR1tY6zU8eI"
PASSWORD = "Vq4nT8wLz2" + "Rk7Hx3"
SHA1 = "3f786850e387550fdab836ed7e6dc881de23001b"
UUID = "123e4567-e89b-12d3-a456-426614174000"


@pytest.fixture(scope="module")
def red() -> redact.Redactor:
    return compile_patterns()


def _redacted_once_and_for_all(red: redact.Redactor, text: str, secret: str) -> str:
    once = red.redact(text)
    assert secret not in once, once
    assert red.redact(once) == once, "a redacted text must redact to itself"
    return once


# -- F-0356: the AWS CLI's `aws configure set NAME VALUE` ------------------------------------------------------------

@pytest.mark.parametrize(("text", "secret"), [
    (f"+ aws configure set aws_secret_access_key {AWS_SECRET} --profile ci", AWS_SECRET),
    (f"+ aws configure set aws_session_token {SESSION} --profile ci", SESSION),
    (f"aws configure set profile.ci.aws_secret_access_key '{AWS_SECRET}'", AWS_SECRET),
    (f"AWS_SECRET_ACCESS_KEY\t{AWS_SECRET}", AWS_SECRET),
], ids=["secret-key", "session-token", "profile-dotted-quoted", "upper-case-tab"])
def test_an_aws_secret_after_its_name_and_a_space_is_redacted(red, text: str, secret: str) -> None:
    once = _redacted_once_and_for_all(red, text, secret)
    assert once == text.replace(secret, "[REDACTED:aws_secret_key]")  # the words around the value stay


@pytest.mark.parametrize("text", [
    "aws_secret_access_key",
    "aws configure set aws_secret_access_key <redacted>",
    "aws_secret_access_key ****",
    "aws_secret_access_key     ****************ABCD shared-credentials-file",
    'aws configure set aws_secret_access_key "$(cat "$HOME/.aws-secret")" --profile ci',
    "aws configure set aws_session_token ${AWS_SESSION_TOKEN}",
    "aws_session_token is required when the key id starts with ASIA",
    "aws_secret_access_key and aws_access_key_id must both be set",
])
def test_an_aws_secret_s_name_beside_no_value_or_a_placeholder_is_kept(red, text: str) -> None:
    assert red.redact(text) == text


# -- F-0357: signed URLs ---------------------------------------------------------------------------------------------

def test_an_azure_sas_url_s_signature_is_redacted_and_the_rest_of_the_url_kept(red) -> None:
    url = ("https://acmeprod.blob.core.windows.net/releases/app.tar.gz?sv=2022-11-02&ss=b&srt=o&sp=rwdlac"
           f"&se=2030-01-01T00:00:00Z&st=2024-01-01T00:00:00Z&spr=https&sig={SAS_SIG}")
    once = _redacted_once_and_for_all(red, f"uploading artifact to {url}\n", SAS_SIG)
    assert once == f"uploading artifact to {url.replace(SAS_SIG, '[REDACTED:azure_sas]')}\n"


def test_a_sas_whose_signature_comes_before_the_other_fields_is_redacted(red) -> None:
    # The Python SDK writes `se=…&sp=…&sv=…&sr=b&sig=…`; a URL may be built with `sig` anywhere.
    _redacted_once_and_for_all(red, f"https://a.blob.core.windows.net/c/b?sig={SAS_SIG}&se=2030-01-01&sp=r", SAS_SIG)


@pytest.mark.parametrize(("text", "secret"), [
    ("https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Date=20240101T000000Z"
     f"&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature={HEX_SIG}", HEX_SIG),
    ("https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20240101T000000Z"
     f"&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature={HEX_SIG}", HEX_SIG),
    (f"https://b.s3.amazonaws.com/k?X-Amz-Security-Token={SESSION}&X-Amz-Signature={HEX_SIG}", SESSION),
    (f"https://d111.cloudfront.net/a.mp4?Expires=1700000000&Signature={SAS_SIG}&Key-Pair-Id=K2JCJMDEHXQW5F", SAS_SIG),
], ids=["gcs", "s3-presigned", "s3-session-token", "cloudfront"])
def test_a_presigned_url_s_signature_and_token_are_redacted(red, text: str, secret: str) -> None:
    once = _redacted_once_and_for_all(red, text, secret)
    assert HEX_SIG not in once and once.startswith(text.split("=")[0] + "="), once  # the host, the path stay


@pytest.mark.parametrize("text", [
    "https://acmeprod.blob.core.windows.net/releases/app.tar.gz?sv=2022-11-02&sp=r&se=2030-01-01",
    "gpg: Good signature from ci <ci@example.com>; sig=ok",
    "inspect: sig=(a, b) signature=(a, b)",
    f"commit {SHA1} signature verified",
    f"request id {UUID}, digest sha256:{HEX_SIG}",
    "https://example.com/search?q=signature&sig=abc",
])
def test_a_signature_s_word_beside_no_signed_url_s_value_is_kept(red, text: str) -> None:
    assert red.redact(text) == text


# -- F-0358: names and values separated by white space ---------------------------------------------------------------

VAULT_TABLES = (f"Key                  Value\n---                  -----\ntoken                {VAULT}\n"
                'token_accessor       8uR2N4pGh4KHGh2cy5Wc\ntoken_policies       ["default" "ci"]\n'
                f"====== Data ======\nKey         Value\n---         -----\npassword    {PASSWORD}\nusername    app\n")


def test_a_vault_table_s_token_and_password_rows_are_redacted_and_the_other_rows_kept(red) -> None:
    once = red.redact(VAULT_TABLES)
    assert VAULT not in once and PASSWORD not in once, once
    assert red.redact(once) == once
    assert "Key                  Value\n---                  -----\n" in once
    assert 'token_policies       ["default" "ci"]\n' in once and "username    app\n" in once
    assert "password    [REDACTED:" in once


@pytest.mark.parametrize("token", [VAULT, VAULT_BATCH, "hvr." + "X7mQ2pL9vK4nR8tW1bZ5cJ3fH6dG0sYa"])
def test_a_vault_token_is_redacted_by_its_prefix_wherever_it_stands(red, token: str) -> None:
    once = _redacted_once_and_for_all(red, f"export VAULT_ADDR=https://vault:8200; using {token} now", token)
    assert "[REDACTED:vault_token]" in once


@pytest.mark.parametrize("text", [
    f"machine github.com login ci-bot password {PASSWORD}",
    f"machine github.com\n  login ci-bot\n  password {PASSWORD}\n",
    f"default login anonymous password {PASSWORD}",
], ids=["one-line", "over-lines", "default"])
def test_a_netrc_password_is_redacted(red, text: str) -> None:
    once = _redacted_once_and_for_all(red, text, PASSWORD)
    assert "login ci-bot" in once or "login anonymous" in once


@pytest.mark.parametrize("flag", ["-storepass", "-keypass", "-srcstorepass", "-deststorepass", "-srckeypass",
                                  "-destkeypass"])
def test_keytool_s_password_flags_are_redacted(red, flag: str) -> None:
    text = f"+ keytool -importkeystore -srckeystore a.jks {flag} {PASSWORD} -destkeystore b.p12"
    once = _redacted_once_and_for_all(red, text, PASSWORD)
    assert once.endswith("-destkeystore b.p12")
    argv = ["keytool", "-list", "-keystore", "a.jks", flag, "changeit"]
    assert redact_argv(argv, red) == [*argv[:-1], "[REDACTED:secret_flag]"]  # on a command line, whatever it is


@pytest.mark.parametrize("text", [
    f"+ openssl pkcs12 -in client.p12 -passin pass:{PASSWORD} -nodes",
    f"openssl rsa -in k.pem -passout pass:{PASSWORD} -out k2.pem",
    f"openssl pkcs12 -export -passin env:P12 -out c.p12 -passout 'pass:{PASSWORD}'",
    f'openssl pkcs12 -in c.p12 -passin "pass:{PASSWORD} with spaces" -nodes',
], ids=["passin", "passout", "passout-quoted-after-another-flag", "quoted-with-spaces"])
def test_openssl_s_pass_argument_is_redacted(red, text: str) -> None:
    once = _redacted_once_and_for_all(red, text, PASSWORD)
    assert "with spaces" not in once


@pytest.mark.parametrize("text", [
    "the password field is required",
    "token count 42",
    "Key                  Value",
    "token                <none>",
    "password    ********",
    "password    required",
    "token       Disabled",
    "token_ttl            768h",
    "machine github.com login ci-bot",
    "Log in to the build machine, then enter the password when asked.",
    "openssl pkcs12 -in c.p12 -passin env:P12_PASSWORD -nodes",
    "openssl pkcs12 -in c.p12 -passin file:/run/secrets/p12 -passout stdin",
    "keytool -list -keystore a.jks -storepass:env STOREPASS",
    "keytool -list -keystore a.jks -storepass:file /run/secrets/storepass",
    "tests/test_auth.py::test_token_is_refused PASSED",
    f"commit {SHA1}",
    f"request id {UUID}",
    "archive.hvs.tar.gz",
])
def test_prose_headers_placeholders_and_references_to_a_secret_are_kept(red, text: str) -> None:
    assert red.redact(text) == text


def test_keytool_s_password_read_from_the_environment_names_no_secret_on_a_command_line(red) -> None:
    argv = ["keytool", "-list", "-storepass:env", "STOREPASS", "-passin", "env:P12"]
    assert redact_argv(argv, red) == argv


# -- what every rule costs ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("label", ["aws_secret_key", "azure_sas", "signed_url", "vault_token", "secret_table",
                                   "netrc_password", "openssl_pass", "secret_flag"])
def test_each_rule_has_a_literal_a_text_must_hold_before_it_is_run(label: str) -> None:
    rules = [rule for rule in redact._builtin_rules() if rule.name == label]
    assert rules, label
    for rule in rules:
        assert rule.needs.all_of, rule
        assert any(min(map(len, need)) >= 3 for need in rule.needs.all_of), (rule, rule.needs)
        assert not rule.needs.may_match("plain build output: 3 passed, 0 failed in 1.2s\n"), rule


# -- read 135's F-0476: the one-letter password flags of common clients ----------------------------------------------

@pytest.mark.parametrize("text", [
    f"+ redis-cli -h cache -a {PASSWORD} ping",
    f"+ ldapsearch -x -D cn=ci,dc=example,dc=com -w {PASSWORD} -b dc=example,dc=com",
    f"+ ldapmodify -H ldap://ldap -D cn=admin -w '{PASSWORD}' -f change.ldif",
    f"+ sqlcmd -S db -U sa -P {PASSWORD} -Q 'select 1'",
    f"+ az login --service-principal -u app-id -p {PASSWORD} --tenant example",
    f"+ oc login -u ci -p {PASSWORD} https://api.example.com:6443",
    f"+ cf login -a https://api.example.com -u ci -p {PASSWORD}",
    f"+ security unlock-keychain -p {PASSWORD} ci.keychain",
    f"+ security create-keychain -p {PASSWORD} build.keychain",
    f"+ zip -P {PASSWORD} artifacts.zip report.txt",
    f"+ unzip -P {PASSWORD} artifacts.zip",
    f"+ mongosh mongodb://db:27017 -u ci -p {PASSWORD}",
    f"+ smbclient //files/share -U ci%{PASSWORD} -c ls",
    f"+ smbclient //files/share --user=ci%{PASSWORD} -c ls",
    f"+ rpcclient -U 'DOMAIN\\ci%{PASSWORD}' dc01",
], ids=["redis-cli", "ldapsearch", "ldapmodify-quoted", "sqlcmd", "az", "oc", "cf", "unlock-keychain",
        "create-keychain", "zip", "unzip", "mongosh", "smbclient", "smbclient-long", "rpcclient"])
def test_a_client_s_one_letter_password_flag_is_redacted(red, text: str) -> None:
    _redacted_once_and_for_all(red, text, PASSWORD)


@pytest.mark.parametrize("text", [
    "redis-cli -h cache -p 6380 ping", "redis-cli --askpass ping", "ldapsearch -x -W -b dc=example,dc=com",
    "sqlcmd -S db -E -Q 'select 1'", "az login --use-device-code", "oc login -u ci --token-file t", "cf login --sso",
    "zip -r artifacts.zip dist -x '*.map'", "unzip -o artifacts.zip -d out", "security unlock-keychain ci.keychain",
    "smbclient -L files -N", "mongosh --port 27017 --quiet", "pytest -p no:cacheprovider -q",
])
def test_the_same_clients_without_a_password_are_kept_as_written(red, text: str) -> None:
    assert red.redact(text) == text


@pytest.mark.parametrize("text", [
    "+ docker run --name mongo -p 27017:27017 mongo:7", "pytest tests/mongo -p no:cacheprovider -q",
    "wget https://example.com/dist.zip -P downloads", "ls /opt/mongo -p | head", "cp build.zip out/ && ls -P dist",
    "echo mongo is up; pytest -p xdist",
], ids=["docker-port", "pytest-plugin", "wget-dir", "ls-pipe", "zip-word", "after-a-command"])
def test_f0480_a_client_s_name_as_another_program_s_word_takes_no_flag(red, text: str) -> None:
    # Read 137's F-0480: the word `mongo` or `zip` anywhere on a line was taken for the client.
    assert red.redact(text) == text


@pytest.mark.parametrize("text", [
    "+ redis-cli -a 'S3cret horse battery staple' ping", '+ ldapsearch -x -w "S3cret horse battery staple" -b o=x',
    "+ sqlcmd -S db -P 'S3cret horse battery staple' -Q 'select 1'",
    "+ security unlock-keychain -p 'S3cret horse battery staple' ci.keychain",
    "+ docker login -u ci -p 'S3cret horse battery staple' registry.example.com",
])
def test_f0481_a_quoted_password_holding_spaces_is_redacted_whole(red, text: str) -> None:
    once = _redacted_once_and_for_all(red, text, "S3cret")
    assert "horse" not in once and "staple" not in once, once


@pytest.mark.parametrize("text", [
    'redis-cli -a "$REDIS_PASSWORD" ping', "sqlcmd -S db -U sa -P ${SA_PASSWORD} -Q 'select 1'",
    "zip -P **** artifacts.zip report.txt", "ldapsearch -x -w <password> -b o=x",
    'ldapsearch -x -w "$(cat /run/secrets/ldap)" -b o=x', "docker login -u ci -p $TOKEN registry.example.com",
    "oc login -u ci -p %PASSWORD% https://api", "cf login -u ci -p '{{ cf_password }}'",
])
def test_f0482_a_reference_or_a_placeholder_after_a_password_flag_is_kept(red, text: str) -> None:
    # Read 137's F-0482: docs/threat-model.md keeps a reference to where a secret is, and a placeholder, readable.
    assert red.redact(text) == text


@pytest.mark.parametrize("text", [f"+ ldapsearch -x -w{PASSWORD} -b o=x", f"+ ldapmodify -w{PASSWORD} -f c.ldif",
                                  f"+ sqlcmd -S db -U sa -P{PASSWORD} -Q 'select 1'"])
def test_f0483_a_password_glued_to_its_one_letter_flag_is_redacted(red, text: str) -> None:
    _redacted_once_and_for_all(red, text, PASSWORD)


@pytest.mark.parametrize("text", [
    f"+ docker exec -it redis redis-cli -a {PASSWORD} ping", f"+ kubectl exec -it redis-0 -- redis-cli -a {PASSWORD} info",
    f"+ docker compose exec db sqlcmd -S localhost -U sa -P {PASSWORD} -Q 'select 1'",
    f"+ sudo -u redis redis-cli -a {PASSWORD} ping", f"+ REDIS_HOST=cache redis-cli -a {PASSWORD} ping",
    f"+ env LDAPTLS_REQCERT=never ldapsearch -x -w {PASSWORD} -b o=x", f"+ timeout 5 redis-cli -a {PASSWORD} ping",
    f"+ bash -c 'redis-cli -a {PASSWORD} ping'", f"if true; then redis-cli -a {PASSWORD} ping; fi",
    f"ci@runner:~$ redis-cli -a {PASSWORD} ping", f"+ /usr/local/bin/redis-cli -a {PASSWORD} ping",
], ids=["docker-exec", "kubectl-exec", "compose-exec", "sudo-u", "assignment", "env", "timeout", "bash-c", "then",
        "prompt", "bin-folder"])
def test_f0491_a_client_another_program_starts_has_its_password_redacted(red, text: str) -> None:
    # Read 139's F-0491: read 137's F-0480 fix wanted the client to start the command, and missed these.
    _redacted_once_and_for_all(red, text, PASSWORD)


@pytest.mark.parametrize("text", [f"redis-cli -a *{PASSWORD} ping", f"docker login -u ci -p %{PASSWORD} r.example.com",
                                  f"sqlcmd -S db -P {{{PASSWORD} -Q 'select 1'", f"ldapsearch -x -w '<{PASSWORD}' -b o=x",
                                  f"smbclient //f/s -U svc%*{PASSWORD} -c ls", f"zip -P ${PASSWORD}x a.zip f"])
def test_f0492_a_password_that_starts_with_a_symbol_is_redacted(red, text: str) -> None:
    # Read 139's F-0492: a placeholder is known by its whole shape, not by its first character.
    _redacted_once_and_for_all(red, text, PASSWORD)


def test_f0493_a_double_quoted_password_holding_an_escaped_quote_is_redacted_whole(red) -> None:
    once = _redacted_once_and_for_all(red, f'+ redis-cli -a "k9\\"{PASSWORD}" ping', PASSWORD)
    assert once.endswith(" ping"), once


@pytest.mark.parametrize("text", [
    "pytest -q -k mongo -p no:cacheprovider", "tox -e mongo -p auto", "docker run --network-alias mongo -p 27017:27017 mongo:7",
    "docker run -h mongo -p 27017:27017 mongo:7", "docker run --link mongo:mongo -p 8080:80 app",
    "docker run --name  mongo -p 27017:27017 mongo:7", "kubectl logs mongo-0 -p mongod",
    "zip -P password archive.zip file",
])
def test_f0500_a_client_s_name_as_another_program_s_value_takes_no_flag(red, text: str) -> None:
    # Read 141's F-0500: after an option (`-k mongo`, `--network-alias mongo`) the name is that option's value.
    assert red.redact(text) == text


@pytest.mark.parametrize("text", ["+ redis-cli -a '$unshine2024' ping", "+ mongosh -u ci -p '$ecretvalue99'",
                                  "+ docker login -u ci -p '$ummer2024x' r.example.com"])
def test_f0501_a_single_quoted_dollar_password_is_a_password(red, text: str) -> None:
    # Read 141's F-0501: single-quoted, `$` is no reference (bash's `set -x` quotes such a value so).
    secret = text.split("'")[1]
    _redacted_once_and_for_all(red, text, secret)


@pytest.mark.parametrize("text", [
    f"cd /srv && redis-cli -a {PASSWORD} ping", f"true; mongosh -u ci -p {PASSWORD}", f"echo PING | redis-cli -a {PASSWORD}",
    f"false || sqlcmd -S db -P {PASSWORD} -Q x", f"    redis-cli -a {PASSWORD} ping", f"\tldapsearch -x -w {PASSWORD} -b o=x",
])
def test_f0502_a_client_after_a_spaced_operator_or_an_indent_has_its_password_redacted(red, text: str) -> None:
    # Read 142's F-0502: read 141's F-0500 fix took a client only right after an operator or a plain word.
    _redacted_once_and_for_all(red, text, PASSWORD)


@pytest.mark.parametrize("text", [
    f"+ sudo -E redis-cli -a {PASSWORD} ping", f"+ sudo --preserve-env redis-cli -a {PASSWORD}",
    f"+ env -i ldapsearch -x -w {PASSWORD} -b o=x", f"+ nice -n10 mongosh -p {PASSWORD}", f"+ stdbuf -oL sqlcmd -P {PASSWORD}",
    f"+ time -p redis-cli -a {PASSWORD}", f"+ xargs -r redis-cli -a {PASSWORD}",
])
def test_f0503_a_client_after_a_wrapper_s_flag_has_its_password_redacted(red, text: str) -> None:
    # Read 142's F-0503: a flag before the client was taken for one whose value the client's name is.
    _redacted_once_and_for_all(red, text, PASSWORD)


@pytest.mark.parametrize("text", ["+ mongosh -u admin -p 83920175", "+ mongo -u root -p=83920175 db"])
def test_f0504_a_numeric_mongo_shell_password_is_redacted(red, text: str) -> None:
    # Read 142's F-0504: the mongo shells' -p is the password (the port is --port): digits alone are one too.
    _redacted_once_and_for_all(red, text, "83920175")

