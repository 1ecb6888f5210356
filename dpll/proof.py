"""DRUP/DRAT proof logs: collect lemmas and deletions, write them as text or binary DRAT."""

from __future__ import annotations


class ProofLog:
    """An in-memory DRUP log that engines append to.

    Steps are stored as ``(is_deletion, literals)``. Text output is the usual
    ``1 -2 0`` / ``d 1 -2 0`` lines; binary output is the DRAT binary format
    (``a``/``d`` byte, literals as 7-bit varints of ``2l`` / ``-2l+1``, ``0x00``).
    """

    __slots__ = ("steps",)

    def __init__(self) -> None:
        self.steps: list[tuple[bool, tuple[int, ...]]] = []

    def add(self, lits: list[int]) -> None:
        """Log a lemma."""
        self.steps.append((False, tuple(lits)))

    def delete(self, lits: list[int]) -> None:
        """Log a deletion."""
        self.steps.append((True, tuple(lits)))

    def __len__(self) -> int:
        return len(self.steps)

    def lines(self) -> list[str]:
        """The proof as text lines without newlines (``d`` prefix for deletions)."""
        out = []
        for deleted, lits in self.steps:
            body = " ".join(map(str, lits))
            text = (body + " 0") if body else "0"
            out.append("d " + text if deleted else text)
        return out

    def to_text(self) -> str:
        """The whole proof as text DRUP, one step per line."""
        lines = self.lines()
        return "\n".join(lines) + "\n" if lines else ""

    def to_binary(self) -> bytes:
        """The whole proof in binary DRAT."""
        out = bytearray()
        for deleted, lits in self.steps:
            out.append(0x64 if deleted else 0x61)
            for lit in lits:
                code = 2 * lit if lit > 0 else -2 * lit + 1
                while code > 0x7F:
                    out.append((code & 0x7F) | 0x80)
                    code >>= 7
                out.append(code)
            out.append(0)
        return bytes(out)
