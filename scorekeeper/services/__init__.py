"""The use cases, one module per area: load, authorize, ask the rules, write one transaction."""
