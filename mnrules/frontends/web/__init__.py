"""The web front end, ``mnrules serve`` (the ``web`` extra: Starlette and uvicorn)."""
