"""Antike II's cards, one YAML document each: the package data of ``antike2.cards``
(setup.py installs this folder there). Data only."""
