"""Antike II (Mac Gerdts): the second game on the mnrules kernel (issue 12)."""
