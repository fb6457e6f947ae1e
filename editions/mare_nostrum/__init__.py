"""Mare Nostrum's edition packs, one folder each (pack.yaml, board, messages): the
package data of ``mare_nostrum.editions`` (setup.py installs this folder there). Data only."""
