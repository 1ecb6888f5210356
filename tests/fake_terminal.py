"""A stand-in for stderr at a terminal, for tests of progress lines."""

from __future__ import annotations


class FakeTerminal:
    """Says it is a terminal and keeps what is written to it (as ``text``)."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True
