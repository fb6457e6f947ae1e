"""What is installed and read: the games (games), their edition packs (packs) assembled
into a rule set (ruleset), YAML with file, line and column for every error (yamlsource),
the box (box), cards as data (card_files, card_check) and the kernel's own data files
(resources)."""
