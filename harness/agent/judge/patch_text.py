"""The files a Codex patch (`*** Begin Patch` … `*** End Patch`) names in its headers. Pure.

Codex's parser trims each line before it reads a header (#27's task F-0016), so padded headers count."""

from __future__ import annotations

PATCH_HEADERS = ("*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: ")
DELETE_HEADER = ("*** Delete File: ",)
PROGRAMS = ("apply_patch", "applypatch")  # Codex's programs that apply such a patch
UNREADABLE_REASON = ("this line runs Codex's `apply_patch` with a patch the guard cannot read (from stdin, a file, "
                     "`$(…)` or an escaped string), so it cannot tell which files it writes")
UNREADABLE_INSTEAD = ("give the patch inline (`apply_patch <<'EOF' … EOF`, or as one quoted argument), or use the "
                      "apply_patch tool")
UNREADABLE = f"harness: {UNREADABLE_REASON}. Instead: {UNREADABLE_INSTEAD}"


def patch_paths(text: str, headers: tuple[str, ...] = PATCH_HEADERS) -> list[str]:
    """The paths the patch ``text``'s ``headers`` name, as written."""
    if "*** " not in text:
        return []
    out = []
    for line in text.splitlines():
        line = line.strip()
        for header in headers:
            if line.startswith(header.strip() + " "):
                out.append(line[len(header.strip()):].strip())
    return out
