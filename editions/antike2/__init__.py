"""Antike II's edition packs, one folder each (pack.yaml, board, messages): the
package data of ``antike2.editions`` (setup.py installs this folder there). Data only."""
