"""Hero and wonder tiles: one YAML document per tile. Data only."""
