"""`harness.core.lazy_re` is `re` itself, fetched on first use: the same functions, flags and types (so the guard's
patterns give the same answers), and a name `re` lacks fails as it does."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from harness.core import lazy_re


@pytest.mark.parametrize("name", ["search", "match", "fullmatch", "sub", "findall", "finditer", "split", "escape",
                                  "compile", "IGNORECASE", "M", "Match", "Pattern", "error"])
def test_every_name_is_re_s_own(name) -> None:
    assert getattr(lazy_re, name) is getattr(re, name)


def test_a_name_re_lacks_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        lazy_re.no_such_function  # noqa: B018


def test_it_lends_no_module_dunder_of_re_s() -> None:
    """re is a package: lending its __path__ would make `harness.core.lazy_re._parser` importable."""
    assert not hasattr(lazy_re, "__path__")
    with pytest.raises(ImportError):
        __import__("harness.core.lazy_re._parser")


def test_importing_it_imports_no_re_until_a_pattern_is_used() -> None:
    code = ("import sys\nfrom harness.core import lazy_re\nbefore = 're' in sys.modules\n"
            "found = lazy_re.search('b+', 'abbc').group(0)\nprint(before, 're' in sys.modules, found)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True", "bb"]
