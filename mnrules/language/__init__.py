"""The effect language: heroes and wonders as short scripts.

``syntax`` parses a script into rules, ``words`` matches their phrases against the
vocabulary the rule plugins declare, ``compiler`` turns rules into hook
registrations, ``explain`` says in plain English what was understood.
"""
