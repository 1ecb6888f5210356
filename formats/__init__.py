"""formats: every file format satkit reads or writes (DIMACS, the assignment's formats, results).

This package imports nothing else of the project.
"""

from formats.errors import FormatError, FormatWarning
from formats.formula import Formula

__all__ = ["FormatError", "FormatWarning", "Formula"]
