"""DRUP/DRAT proof logs: collect lemmas and deletions, or write them to a file as they come."""

from __future__ import annotations

from typing import IO, Any


class ProofLog:
    """A DRUP log that engines append to: kept in memory, or written to ``sink``.

    In memory, steps are stored as ``(is_deletion, literals)``. Text output is the
    usual ``1 -2 0`` / ``d 1 -2 0`` lines; binary output is the DRAT binary format
    (``a``/``d`` byte, literals as 7-bit varints of ``2l`` / ``-2l+1``, ``0x00``).
    With a ``sink`` (an open file: text, or bytes when ``binary``) every step is
    written there at once and nothing is kept, so a long run's proof costs no
    memory; ``lines`` and ``to_binary`` then have nothing to give (None).
    """

    __slots__ = ("binary", "count", "sink", "steps")

    def __init__(self, sink: IO[Any] | None = None, *, binary: bool = False) -> None:
        self.steps: list[tuple[bool, tuple[int, ...]]] = []
        self.sink = sink
        self.binary = binary
        self.count = 0

    def add(self, lits: list[int]) -> None:
        """Log a lemma."""
        self._log(False, lits)

    def delete(self, lits: list[int]) -> None:
        """Log a deletion."""
        self._log(True, lits)

    def _log(self, deleted: bool, lits: list[int]) -> None:
        self.count += 1
        sink = self.sink
        if sink is None:
            self.steps.append((deleted, tuple(lits)))
        elif self.binary:
            sink.write(_binary_step(deleted, lits))
        else:
            sink.write(_text_step(deleted, lits) + "\n")

    def __len__(self) -> int:
        return self.count

    def lines(self) -> list[str] | None:
        """The proof as text lines without newlines (``d`` prefix for deletions); None when
        it went to a file."""
        if self.sink is not None:
            return None
        return [_text_step(deleted, lits) for deleted, lits in self.steps]

    def to_text(self) -> str | None:
        """The whole proof as text DRUP, one step per line (None when it went to a file)."""
        lines = self.lines()
        if lines is None:
            return None
        return "\n".join(lines) + "\n" if lines else ""

    def to_binary(self) -> bytes | None:
        """The whole proof in binary DRAT (None when it went to a file)."""
        if self.sink is not None:
            return None
        return b"".join(_binary_step(deleted, lits) for deleted, lits in self.steps)


def _text_step(deleted: bool, lits: Any) -> str:
    body = " ".join(map(str, lits))
    text = (body + " 0") if body else "0"
    return "d " + text if deleted else text


def _binary_step(deleted: bool, lits: Any) -> bytes:
    out = bytearray(b"d" if deleted else b"a")
    for lit in lits:
        code = 2 * lit if lit > 0 else -2 * lit + 1
        while code > 0x7F:
            out.append((code & 0x7F) | 0x80)
            code >>= 7
        out.append(code)
    out.append(0)
    return bytes(out)
