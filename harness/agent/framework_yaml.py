"""`.pre-commit-config.yaml` loaded as the pre-commit framework loads it, for the guard's rules on it.

pre-commit reads its config with `yaml.load(text, Loader=CSafeLoader)` (pre_commit/yaml.py, PyYAML's safe
loader, libyaml's when present): a key given twice keeps its last value, merges (`<<:`), anchors, tags and
explicit keys are read as YAML reads them. A text it cannot load (any error: cfgv turns every one into an
invalid config) runs no hook at all. PyYAML is imported here, when a config is judged, never on the guard's
fast paths (tests/test_layering.py).
"""

from __future__ import annotations

# What a text that does not load is read as: a config that runs no hook.
UNLOADABLE = None


def load_config(text: str | None) -> object:
    """The framework config ``text`` as pre-commit loads it; None for no text or one that does not load."""
    if text is None:
        return None
    import yaml

    try:
        return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except Exception:  # pre-commit (cfgv) turns every loader error into an invalid config
        return UNLOADABLE
