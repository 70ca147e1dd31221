"""Human approvals of a policy change, signed with the approver's SSH key and bound to the exact bytes."""
