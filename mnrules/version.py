"""The kernel's version and the version of its public surface, read by the package, by
:mod:`mnrules.api` and by the packs' ``engine:`` and ``api:`` checks (a module of its own,
so that reading it imports nothing else)."""

__version__ = "0.2.0"
API_VERSION = "1.3"
"""The version of the public surface, :mod:`mnrules.api` (a pack's ``api:`` key)."""
