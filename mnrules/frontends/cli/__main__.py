"""``python -m mnrules.frontends.cli``: the ``mnrules`` command, as ``python -m mnrules``."""

import sys

from . import main

sys.exit(main())
