"""The evidence types of seed §11."""

EVIDENCE_TYPES = (
    "build", "lint", "typecheck", "unit_test", "integration_test",
    "contract_test", "security", "review", "custom",
)
