"""Bots for Antike II."""
