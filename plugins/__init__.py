"""The rules of Mare Nostrum: Empires as plugins on the mnrules event bus.

One module per part of the rules; an edition pack lists the ones it plays with.
Modules import each other relatively and the core as ``mnrules``.
"""
