"""Edition packs: one folder per edition (pack.yaml, board.yaml, ...). Data only."""
