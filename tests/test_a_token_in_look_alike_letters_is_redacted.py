"""A token the rules know by its shape, spelled with a look-alike letter (`ghр_…`, a Cyrillic `р`) or in
compatibility forms (fullwidth `ＡＫＩＡ…`, which NFKC turns back into the AWS key id), is redacted as its plain
spelling is; honest text in other scripts, holding no secret, is kept as written (read 167's F-0571)."""

from __future__ import annotations

import pytest

from harness.core.redact import compile_patterns

GITHUB_BODY = "Q7wErTy5UiOp3AsDfGh2JkLzXcVbNm4s1D9f"
AWS_BODY = "Z3QW7RTY5UIOP2LK"


def _fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def _bold(text: str) -> str:
    """``text`` in MATHEMATICAL BOLD capitals and digits (NFKC folds them to ASCII)."""
    return "".join(chr(0x1D400 + ord(c) - ord("A")) if c.isupper() else chr(0x1D7CE + ord(c) - ord("0"))
                   for c in text)


SPELLINGS = {
    "github, Cyrillic р": ("gh\u0440_" + GITHUB_BODY, GITHUB_BODY),
    "github, Cyrillic о and е in the body": ("ghp_" + GITHUB_BODY.replace("O", "\u041e").replace("E", "\u0415"),
                                             GITHUB_BODY[6:]),
    "aws, fullwidth": (_fullwidth("AKIA" + AWS_BODY), _fullwidth(AWS_BODY)),
    "aws, Greek Α Κ Ι": ("\u0391\u039a\u0399\u0391" + AWS_BODY, AWS_BODY),
    "aws, Cyrillic А К": ("\u0410\u041aI\u0410" + AWS_BODY, AWS_BODY),
    "aws, mathematical bold": (_bold("AKIA" + AWS_BODY), _bold(AWS_BODY)),
}


@pytest.mark.parametrize("detector", [False, True], ids=["own rules", "with detect-secrets"])
@pytest.mark.parametrize("spelling", list(SPELLINGS))
def test_f0571_a_token_in_look_alike_letters_is_redacted(spelling, detector):
    token, body = SPELLINGS[spelling]
    text = f"the client authenticates with {token} and retries"
    out = compile_patterns(detector=detector).redact(text)
    assert body not in out and "[REDACTED:" in out, out
    assert out.startswith("the client authenticates with [REDACTED:") and out.endswith("] and retries"), out


def test_f0571_the_marker_names_the_token_s_kind():
    red = compile_patterns()
    assert red.redact("gh\u0440_" + GITHUB_BODY) == "[REDACTED:github_token]"
    assert red.redact(_fullwidth("AKIA" + AWS_BODY)) == "[REDACTED:aws_access_key_id]"


def test_f0571_a_look_alike_token_split_by_an_invisible_character_is_redacted():
    # Both at once: the zero-width space is read out of the folded text, as it is out of the text as written.
    token = "gh\u0440_" + GITHUB_BODY[:10] + "\u200b" + GITHUB_BODY[10:]
    out = compile_patterns().redact(f"token {token} end")
    assert GITHUB_BODY[10:] not in out and out == "token [REDACTED:github_token] end", out


def test_f0571_a_fullwidth_password_assignment_is_redacted():
    out = compile_patterns().redact(_fullwidth("password=") + "hunter2hunter2")
    assert "hunter2" not in out, out


def test_f0571_a_look_alike_token_in_an_evidence_log_s_bytes_is_redacted():
    data = f"plain: ok\ncyr: gh\u0440_{GITHUB_BODY}\nfw: {_fullwidth('AKIA' + AWS_BODY)}\n1 passed\n".encode()
    out = compile_patterns(detector=True).redact_bytes(data)
    assert GITHUB_BODY not in out and _fullwidth(AWS_BODY) not in out, out
    assert out.startswith("plain: ok\ncyr: [REDACTED:") and out.endswith("\n1 passed\n"), out


def test_f0571_secret_spans_finds_a_look_alike_token():
    # What a cut of the output asks (evidence/outputcut.py): it must not keep the token's lines apart.
    text = "before gh\u0440_" + GITHUB_BODY + " after"
    spans = compile_patterns().secret_spans(text)
    assert any(start <= 7 and end >= len(text) - len(" after") for _, _, start, end in spans), spans


def test_f0571_what_lies_beside_a_look_alike_token_is_kept_as_written():
    text = f"Пароль не нужен: gh\u0440_{GITHUB_BODY} — конец, ＯＫ。"
    out = compile_patterns(detector=True).redact(text)
    assert out == "Пароль не нужен: [REDACTED:github_token] — конец, ＯＫ。", out


@pytest.mark.parametrize("text", [
    "Die Größe der Datei übersteigt das Maß; bitte prüfen Sie die Einstellungen.",
    "Пароль не задан: укажите его в настройках сервера и перезапустите процесс.",
    "ТОКЕН ОТСУТСТВУЕТ. АРХИВ СОХРАНЁН В КАТАЛОГЕ /tmp/ВЫХОД.",
    "Η σύνδεση απέτυχε: ο κωδικός πρόσβασης είναι λανθασμένος.",
    "密码错误，请重试（第３次）。令牌：无",
    "パスワードが違います：もう一度お試しください。",
    "build passed 🎉✅ — 12 tests, 0 failures … ½ of them ™ slow",
    "naïve café résumé ﬁnance Ⅻ ① ²³ “quoted” non\u00a0breaking",
    "Ｆｕｌｌｗｉｄｔｈ ｔｅｘｔ ２０２６ with no secret in it",
])
def test_f0571_honest_text_in_other_scripts_is_kept_as_written(text):
    assert compile_patterns(detector=True).redact(text) == text
    assert compile_patterns().secret_spans(text) == []


def test_f0571_plain_ascii_is_redacted_as_before():
    # The plain spellings, and ASCII text without a secret: what the fold leaves alone.
    red = compile_patterns()
    assert red.redact("ghp_" + GITHUB_BODY) == "[REDACTED:github_token]"
    assert red.redact("AKIA" + AWS_BODY + " id") == "[REDACTED:aws_access_key_id] id"
    assert red.redact("ordinary output: 12 passed in 0.3s") == "ordinary output: 12 passed in 0.3s"


MORE_SPELLINGS = {
    "github, Latin script ɡ": ("\u0261hp_" + GITHUB_BODY, GITHUB_BODY),
    "aws, Latin small capital ᴏ": ("AKIA" + AWS_BODY.replace("O", "\u1d0f"), AWS_BODY[9:]),
    "aws, Cherokee Ꭺ": ("\u13aaKIA" + AWS_BODY, AWS_BODY),
    "github, Armenian հ": ("g\u0570p_" + GITHUB_BODY, GITHUB_BODY),
    "github, a combining acute on h": ("gh\u0301p_" + GITHUB_BODY, GITHUB_BODY),
}


@pytest.mark.parametrize("spelling", list(MORE_SPELLINGS))
def test_f0575_a_token_in_other_look_alikes_or_with_a_combining_mark_is_redacted(spelling):
    token, body = MORE_SPELLINGS[spelling]
    out = compile_patterns().redact(f"the client authenticates with {token} and retries")
    assert body not in out and "[REDACTED:" in out, out


@pytest.mark.parametrize("honest", ["naïve café", "nai\u0308ve cafe\u0301 (decomposed)", "Straße", "Ꭰꮃ Cherokee",
                                    "հայերեն բառ", "ɡood ɪdea", "data_Привет_x"])
def test_f0575_honest_text_with_those_letters_and_marks_is_kept(honest):
    assert compile_patterns().redact(honest) == honest
