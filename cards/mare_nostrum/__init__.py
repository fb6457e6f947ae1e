"""Mare Nostrum's cards, one YAML document each: the package data of ``mare_nostrum.cards``
(setup.py installs this folder there). Data only."""
