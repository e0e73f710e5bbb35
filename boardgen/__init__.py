"""boardgen: labyrinth board games as data, printed as PDF kits and proven playable."""

from boardgen.errors import BoardgenError, DataError, OutputError, UnplayableError, UsageError

__version__ = "0.1.0"

__all__ = ["BoardgenError", "DataError", "OutputError", "UnplayableError", "UsageError", "__version__"]
