"""The kernel's own data: the grammar of the effect language, the top-level folder
``grammar/`` installed as the package ``mnrules.grammar`` (setup.py). A game's data
(its packs and cards) belongs to the game's package: see :mod:`mnrules.content.games`."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from ..errors import MnrulesError


def data_dir(name: str) -> Path:
    """The folder of the kernel's bundled ``name`` data: only "grammar" is the kernel's
    (editions and cards are each game's: :func:`mnrules.content.games.editions_dir`,
    :func:`mnrules.content.games.cards_dir`)."""
    if name != "grammar":
        raise MnrulesError(f"{name!r} is no data of the kernel's: a game's packs and cards "
                           f"are in its own package (mnrules.content.games.editions_dir(game), "
                           f"mnrules.content.games.cards_dir(game))")
    try:
        return Path(str(resources.files("mnrules.grammar")))
    except ModuleNotFoundError:   # a bare checkout on the path: grammar/ installs there
        raise MnrulesError("mnrules is imported from a folder where it is not installed "
                           "(no mnrules.grammar): install it, in a checkout pip install "
                           "-e '.[dev]'") from None
