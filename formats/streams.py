"""Reading inputs (files, `-`, gzip/bz2/xz by magic bytes) and writing outputs atomically."""

from __future__ import annotations

import bz2
import codecs
import contextlib
import errno
import gzip
import io
import lzma
import os
import re
import select
import stat
import sys
import tempfile
import unicodedata
import zlib
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any

from formats.console import WRITTEN, refuse_closed_stdout
from formats.errors import FormatError
from formats.memory import available_memory

STDIO = "-"

# Magic bytes -> (format name, decompressor factory).
_GZIP_MAGIC = b"\x1f\x8b"
_BZ2_MAGIC = b"BZh"  # then the block size digit and a block (or end-of-stream) magic
_BZ2_BLOCK = b"\x31\x41\x59\x26\x53\x59"
_BZ2_END = b"\x17\x72\x45\x38\x50\x90"
_XZ_MAGIC = b"\xfd7zXZ\x00"
_LONG_LINE = 1 << 20
_BINARY = "binary data (NUL byte), not text"
_COMPRESSED_PIECE = 1 << 16  # bytes asked of a decompressor per read (see iter_byte_blocks)


def _binary_line(line: bytes) -> bool:
    """Whether ``line`` (a whole line, or the start of one) is binary data as it is read:
    a megabyte or more holding a NUL byte, and no comment (a long comment may hold
    anything, as in minisat and cadical). A shorter line is left to the format's reader,
    which names its own format; this one is refused before the rest is read
    (``/dev/zero`` never ends)."""
    return len(line) >= _LONG_LINE and b"\0" in line and line.lstrip(b" \t")[:1] != b"c"


class _LineWatch:
    """Binary data refused as it is read in pieces (a stream that never ends, a compressed
    bomb): a NUL byte in a line that is not a comment (every reader refuses that, and a
    comment is the DIMACS reader's to judge), and more than the memory available, instead
    of ending in the kernel's out-of-memory killer."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.lines = 0  # line ends seen
        self.first = b""  # the first non-blank byte of the line being read, once known
        self.size = 0
        self.limit = available_memory()
        self.wide = False  # UTF-16 text (`utf16_start`): its NUL bytes are half characters

    def feed(self, piece: bytes) -> None:
        """Take the next piece; raise FormatError for binary data or too much of it."""
        self.size += len(piece)
        if self.limit is not None and self.size > self.limit:
            raise FormatError(
                self.name, None, f"larger than the {self.limit:,} bytes of memory available"
            )
        if b"\0" in piece and not self.wide:
            self._check_nul_lines(piece)
        last = piece.rfind(b"\n")
        if last >= 0:
            self.lines += piece.count(b"\n")
            piece = piece[last + 1 :]
            self.first = b""
        if not self.first:
            self.first = piece.lstrip(b" \t")[:1]

    def _check_nul_lines(self, piece: bytes) -> None:
        """Raise for the first line of ``piece`` holding a NUL byte that is no comment."""
        at = piece.find(b"\0")
        while at >= 0:
            start = piece.rfind(b"\n", 0, at) + 1
            before = piece[start:at].lstrip(b" \t")[:1]
            first = (self.first or before) if start == 0 else before  # (a line begun earlier)
            if first != b"c":
                raise FormatError(self.name, self.lines + piece.count(b"\n", 0, at) + 1, _BINARY)
            end = piece.find(b"\n", at)
            if end < 0:
                return
            at = piece.find(b"\0", end)


def display_name(path: str | os.PathLike[str]) -> str:
    """The name used in messages: ``<stdin>`` for ``-``, else the path as given."""
    text = os.fspath(path)
    return "<stdin>" if text == STDIO else text


def compression_of(head: bytes) -> str | None:
    """Which compression the first bytes announce: ``"gzip"``, ``"bz2"``, ``"xz"`` or None."""
    if head.startswith(_GZIP_MAGIC):
        return "gzip"
    if head.startswith(_BZ2_MAGIC) and head[3:4] in b"123456789" and head[4:10] in (
        _BZ2_BLOCK,
        _BZ2_END,
    ):
        return "bz2"
    if head.startswith(_XZ_MAGIC):
        return "xz"
    return None


_UNREAD_COMPRESSIONS = (
    (b"\x28\xb5\x2f\xfd", "zstd"),
    (b"\x04\x22\x4d\x18", "lz4"),
    (b"\x5d\x00\x00", "LZMA-alone (.lzma)"),
    (b"PK\x03\x04", "zip"),
    (b"7z\xbc\xaf\x27\x1c", "7z"),
)


def unread_compression_of(head: bytes) -> str | None:
    """Which compression satkit does not read the first bytes announce (zstd, lz4, .lzma,
    zip, 7z), or None.

    >>> unread_compression_of(b"PK\x03\x04..."), unread_compression_of(b"p cnf 1 1")
    ('zip', None)
    """
    for magic, kind in _UNREAD_COMPRESSIONS:
        if head.startswith(magic):
            return kind
    return None


def refuse_unread_compression(head: bytes, name: str) -> None:
    """FormatError naming the compression when the first bytes announce one that is not
    read here, rather than "binary data" further on: none of these bytes can start a text
    file.

    >>> refuse_unread_compression(b"p cnf 1 1", "x.cnf")
    """
    kind = unread_compression_of(head)
    if kind is not None:
        raise FormatError(
            name, 1, f"{kind} compressed data: satkit reads gzip, bz2 and xz (decompress it first)"
        )


def _open_compressed(kind: str, fileobj: IO[bytes]) -> IO[bytes]:
    """A decompressing reader over ``fileobj`` for ``kind`` (gzip, bz2 or xz).

    Concatenated streams are followed; bytes after the last one that start no
    stream are an error for all three (gzip raises it itself; Python's bz2 and
    lzma readers would take such bytes, a damaged second stream included, for
    the end of the file and drop its clauses)."""
    if kind == "gzip":
        return gzip.GzipFile(fileobj=fileobj, mode="rb")
    return io.BufferedReader(_Streams(kind, fileobj), _COMPRESSED_PIECE)


class TrailingBytes(OSError):
    """Bytes after a whole bz2 or xz stream that start no other stream."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"bytes that are not {kind} data follow the {kind} stream")
        self.kind = kind


class _Streams(io.RawIOBase):
    """Decompressed bz2 or xz data from ``raw``, one stream after the other.

    A stream cut short raises EOFError; bytes after a stream that are no stream
    raise the decompressor's error (OSError for bz2, LZMAError for xz), except
    the null bytes of xz's stream padding.
    """

    def __init__(self, kind: str, raw: IO[bytes]) -> None:
        self._kind = kind
        self._raw = raw
        self._decompressor = self._new()
        self._carry: bytes | None = None  # after a stream's end: its unused bytes, once

    def _new(self) -> Any:
        return bz2.BZ2Decompressor() if self._kind == "bz2" else lzma.LZMADecompressor()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        out = self._next(len(buffer))
        buffer[: len(out)] = out
        return len(out)

    def _next(self, size: int) -> bytes:
        """Up to ``size`` decompressed bytes; b"" only at the clean end of the input."""
        while True:
            decompressor = self._decompressor
            if decompressor.eof:
                if self._carry is None:
                    self._carry = decompressor.unused_data
                rest = self._carry or self._raw.read(_COMPRESSED_PIECE)
                self._carry = b""
                if not rest:
                    return b""
                if self._kind == "xz":
                    rest = rest.lstrip(b"\0")  # stream padding
                    if not rest:
                        continue
                self._decompressor = decompressor = self._new()
                self._carry = None
                try:
                    out = decompressor.decompress(rest, size)
                except (OSError, lzma.LZMAError) as exc:
                    raise TrailingBytes(self._kind) from exc
                if out:
                    return out
                continue
            elif decompressor.needs_input:
                data = self._raw.read(_COMPRESSED_PIECE)
                if not data:
                    raise EOFError("the compressed data ends before the end of its stream")
            else:
                data = b""
            out = decompressor.decompress(data, size)
            if out:
                return out


def _decompress(raw: bytes, kind: str, name: str) -> bytes:
    """Decompress a whole buffer; a truncated or corrupt stream is a FormatError.

    The error's line is the line the readable prefix had reached, so the user
    learns how far the data goes before it breaks.
    """
    chunks: list[bytes] = []
    watch = _LineWatch(name)
    try:
        with _open_compressed(kind, io.BytesIO(raw)) as stream:
            while True:
                chunk = stream.read(1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
                watch.wide = watch.wide or (len(chunks) == 1 and utf16_start(chunk))
                watch.feed(chunk)
    except FormatError:  # (the watch's: binary or too big; a ValueError, not a broken stream)
        raise
    except (EOFError, OSError, lzma.LZMAError, zlib.error, ValueError) as exc:
        line = _readable_prefix(raw, kind).count(b"\n") + 1
        raise FormatError(name, line, _broken_stream(kind, exc)) from None
    return b"".join(chunks)


def _broken_stream(kind: str, exc: BaseException) -> str:
    """What is wrong with compressed data whose decompression raised ``exc``."""
    detail = str(exc) or type(exc).__name__
    if isinstance(exc, TrailingBytes):
        tool = {"bz2": "bzip2 -d drops them with a warning", "xz": "xz -d refuses them too"}
        return (
            f"bytes that are not {kind} data follow the {kind} stream ({tool[exc.kind]}; "
            "a damaged second stream looks the same, so satkit does not guess)"
        )
    if isinstance(exc, gzip.BadGzipFile) and detail.startswith("Not a gzipped"):
        # a whole gzip stream, then bytes that start no other one: `gzip -d` and the
        # solvers drop them, but a damaged second member looks the same, and dropping
        # its clauses would change the answer
        return (
            "bytes that are not gzip data follow the gzip stream (gzip -d ignores them "
            "with a warning; satkit does not guess: 'gzip -dc' the file and check what it held)"
        )
    return f"{kind} data is truncated or corrupt ({detail})"


def _readable_prefix(raw: bytes, kind: str) -> bytes:
    """What a damaged compressed buffer yields before the damage (only used for messages).

    The file readers drop the whole last read when it fails, so this feeds a
    decompressor object 4 KiB of input at a time and keeps each piece's output;
    a truncated stream simply stops. Concatenated members/streams are followed.
    """
    factories = {
        "gzip": lambda: zlib.decompressobj(31),
        "bz2": bz2.BZ2Decompressor,
        "xz": lzma.LZMADecompressor,
    }
    out: list[bytes] = []
    data = raw
    try:
        while data:
            decompressor = factories[kind]()
            start = 0
            for start in range(0, len(data), 4096):
                out.append(decompressor.decompress(data[start : start + 4096]))
                if decompressor.eof:
                    break
            if not decompressor.eof:
                break
            data = decompressor.unused_data + data[start + 4096 :]
    except (EOFError, OSError, lzma.LZMAError, zlib.error, ValueError):
        pass
    return b"".join(out)


class _StdinReader:
    """Standard input's byte stream with another `read` (see the subclasses)."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw = raw

    def fileno(self) -> int:
        return self.raw.fileno()


class _Waiting(_StdinReader):
    """Standard input read as a blocking stream even when another program left it in
    non-blocking mode (``O_NONBLOCK`` is shared by every process of the pipe or terminal):
    there a read with no data yet returns None, which was taken for the end, so part of
    a formula was solved (or the empty head crashed). ``read`` waits for data instead,
    as a blocking read does, without changing the mode the others see."""

    def read(self, size: int = -1) -> bytes:
        """``size`` bytes, fewer only at the end (all of them for -1), as a blocking read
        gives: a short first read would cut the compression magic in two."""
        pieces: list[bytes] = []
        got = 0
        while size < 0 or got < size:
            try:
                chunk = self.raw.read(-1 if size < 0 else size - got)
            except BlockingIOError:
                chunk = None
            if chunk is None:  # nothing yet: wait for more
                select.select([self.raw], [], [])
                continue
            if not chunk:  # the end
                break
            pieces.append(chunk)
            got += len(chunk)
        return b"".join(pieces)


class _Terminal(_StdinReader):
    """Standard input typed at a terminal, read a line at a time (``read1``): a buffered
    read of many bytes takes the lines typed so far at the first Ctrl-D, and a terminal's
    end of input is not kept, so a second Ctrl-D was needed (``cat`` needs one)."""

    def read(self, size: int = -1) -> bytes:
        # (read1 sets aside all it is asked for: a megabyte a typed line cost 9 s a 10 MB paste)
        return self.raw.read1(min(size, 1 << 16) if size > 0 else 1 << 16)  # type: ignore[attr-defined]


def _stdin() -> IO[bytes]:
    """Standard input's bytes, wrapped in `_Waiting` when it is in non-blocking mode.

    A closed standard input (``<&-``) is an OSError (``Bad file descriptor``), as ``cat``
    says, and a text stream without bytes (a caller's ``io.StringIO``) gives its text."""
    stream = sys.stdin
    if stream is None:  # started with it closed: Python makes it None
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))
    raw = getattr(stream, "buffer", None)
    if raw is None:
        return io.BytesIO(stream.read().encode("utf-8", "surrogateescape"))
    try:
        fd = raw.fileno()
        blocking = os.get_blocking(fd)
        terminal = os.isatty(fd)
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return raw  # no descriptor (a test's in-memory stdin): reads never return None
    if not blocking:
        return _Waiting(raw)  # type: ignore[return-value]
    return _Terminal(raw) if terminal else raw  # type: ignore[return-value]


def _read_all(handle: IO[bytes], name: str) -> bytes:
    """Everything ``handle`` holds. A regular file is read in one go (it ends); anything
    else a megabyte at a time, watched (`_LineWatch`) until it is known to be compressed."""
    try:
        regular = stat.S_ISREG(os.fstat(handle.fileno()).st_mode)
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        regular = False
    if regular:
        return handle.read()
    pieces: list[bytes] = []
    watch: _LineWatch | None = _LineWatch(name)
    while True:
        piece = handle.read(_LONG_LINE)
        if not piece:
            return b"".join(pieces)
        pieces.append(piece)
        if watch is not None:
            if len(pieces) == 1 and compression_of(piece[:10]) is not None:
                watch = None  # (the decompressed text is watched instead)
            else:
                watch.wide = watch.wide or (len(pieces) == 1 and utf16_start(piece))
                watch.feed(piece)


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """All bytes of an input, decompressed when its magic bytes say gzip, bz2 or xz.

    ``-`` reads standard input. A missing or unreadable file is a FormatError
    (line None), so the command line reports it like any other bad input.
    """
    name = display_name(path)
    try:
        if os.fspath(path) == STDIO:
            raw = _read_all(_stdin(), name)
        else:
            with open(path, "rb") as handle:
                raw = _read_all(handle, name)
    except FileNotFoundError:
        raise FormatError(name, None, "no such file") from None
    except IsADirectoryError:
        raise FormatError(name, None, "is a directory, not a file") from None
    except OSError as exc:
        raise FormatError(name, None, f"cannot read: {exc.strerror or exc}") from None
    kind = compression_of(raw[:10])
    if kind is None:
        refuse_unread_compression(raw[:10], name)
    data = _decompress(raw, kind, name) if kind else raw
    if utf16_start(data):
        try:
            return data.decode("utf-16").encode()
        except UnicodeDecodeError as exc:
            line = data[: exc.start].decode("utf-16", "replace").count("\n") + 1
            raise FormatError(name, line, _NOT_UTF16) from None
    return data


def utf16_start(data: bytes) -> bool:
    """Whether ``data`` starts as UTF-16 text: a byte-order mark, then characters that text
    holds (no control character but a line end or tab, no unassigned, private-use or lone
    surrogate code) for its first 32 code units, which a binary file that happens to begin
    with FF FE seldom gives. Windows PowerShell 5's ``>`` writes a solver's answer so; such
    input is read as the same text in UTF-8 (`read_bytes`, `iter_byte_blocks`).

    >>> utf16_start("p cnf".encode("utf-16")), utf16_start("金 START".encode("utf-16"))
    (True, True)
    >>> utf16_start(b"\\xff\\xfe\\x12\\x9a\\x00\\x00")
    False
    """
    if data[:2] not in (b"\xff\xfe", b"\xfe\xff"):
        return False
    body = data[2:66]
    body = body[: len(body) // 2 * 2]
    text = body.decode("utf-16-le" if data[:2] == b"\xff\xfe" else "utf-16-be", "surrogatepass")
    if text and "\ud800" <= text[-1] <= "\udbff":  # (a pair cut by the 64 bytes looked at)
        text = text[:-1]
    return all(
        c in "\t\n\r\f\v" or unicodedata.category(c) not in ("Cc", "Cs", "Co", "Cn")
        for c in text
    )


_NOT_UTF16 = "not UTF-16 text, although it starts with UTF-16's byte-order mark"


class _BrokenUTF16(ValueError):
    """Text that breaks UTF-16 in a stream begun as UTF-16 (`_TextPieces`), after
    ``newlines`` line ends of the piece being read."""

    def __init__(self, newlines: int) -> None:
        super().__init__(_NOT_UTF16)
        self.newlines = newlines


class _TextPieces:
    """A stream's pieces (``read(size)``), turned from UTF-16 into UTF-8 when the first
    ones start as UTF-16 (`utf16_start`): a piece may end inside a character."""

    def __init__(self, read: Callable[[int], bytes]) -> None:
        self._read = read
        self._decoder: Any = None
        self._start: bytes | None = b""  # what came before UTF-16 was decided (None: decided)
        self._codec = "utf-16-le"  # its byte order, for counting the lines before a break

    def read(self, size: int) -> bytes:
        while True:
            piece = self._read(size)
            data = piece
            if self._start is not None:
                data = self._start + piece
                if len(data) < 4 and piece:  # (too little to tell yet, and more to come)
                    self._start = data
                    continue
                self._start = None
                if utf16_start(data):
                    self._decoder = codecs.getincrementaldecoder("utf-16")()
                    self._codec = "utf-16-le" if data[:2] == b"\xff\xfe" else "utf-16-be"
            if self._decoder is None:
                return data
            try:
                text = self._decoder.decode(data, final=not piece)
            except UnicodeDecodeError as exc:
                good = bytes(exc.object[: exc.start])
                lines = good.decode(self._codec, "replace").count("\n")
                raise _BrokenUTF16(lines) from None
            if text or not piece:
                return text.encode()


def lone_cr_line_ends(data: bytes, final: bool) -> bool | None:
    """Whether the first line end in ``data`` is a CR on its own (classic Mac OS text,
    which then ends every line so); None while ``data`` cannot tell yet (no line end, or
    a CR last and more data to come). ``final``: no more data follows.

    >>> lone_cr_line_ends(b"p cnf 1 1\\r1 0\\r", True), lone_cr_line_ends(b"1 0\\r\\n", True)
    (True, False)
    """
    lf = data.find(b"\n")
    cr = data.find(b"\r", 0, lf if lf >= 0 else len(data))
    if cr < 0:
        return False if lf >= 0 or final else None
    if cr + 1 < len(data):
        return data[cr + 1 : cr + 2] != b"\n"
    return True if final else None


def iter_byte_blocks(
    path: str | os.PathLike[str], block_size: int = 1 << 20
) -> Iterator[tuple[bytes, int]]:
    """Stream an input as blocks of whole lines: yields ``(block, first_line_number)``.

    ``-`` reads standard input; gzip/bz2/xz are detected by their magic bytes
    and decompressed on the fly; a leading UTF-8 BOM is dropped. Only one block
    (plus the part line it ends with) is held at a time. When the first line end
    is a lone CR (`lone_cr_line_ends`), every CR comes out as LF: the blocks, their
    line numbers and the memory used are those of the same text with LF line ends.

    A truncated or corrupt compressed stream is a FormatError whose line is
    where the readable data ends: one more than the number of newlines that
    decompressed, i.e. the partial last line if the data stops inside a line,
    else the line that would have come next. Compressed data is taken in the
    decompressor's own pieces (``read1``), so a failing read loses nothing that
    had already come out; a truncated stream is thus placed exactly, and a
    corrupt one at most one compressed read-buffer before the damage.
    """
    name = display_name(path)
    try:
        if os.fspath(path) == STDIO:
            raw: IO[bytes] = _stdin()
            owned = False
        else:
            raw = open(path, "rb")  # noqa: SIM115 - closed in the finally below
            owned = True
    except FileNotFoundError:
        raise FormatError(name, None, "no such file") from None
    except IsADirectoryError:
        raise FormatError(name, None, "is a directory, not a file") from None
    except OSError as exc:
        raise FormatError(name, None, f"cannot read: {exc.strerror or exc}") from None
    line = 1
    try:
        try:
            head = raw.read(10)
        except OSError as exc:  # as for every later read: the device or file system failed
            raise FormatError(name, line, f"cannot read: {exc.strerror or exc}") from None
        kind = compression_of(head)
        pieces: list[bytes] = []
        if kind is None and utf16_start(head):  # (read as the same text in UTF-8)
            read = _TextPieces(_Prefixed(head, raw).read).read
            piece_size = block_size
        elif kind is None:
            refuse_unread_compression(head, name)
            read = raw.read  # (plain bytes straight from the file: the fast path)
            piece_size = block_size
            pieces = [head] if head else []
        else:
            # one decompressor read at a time (read1): a read that fails loses only its own
            # output; 64 KiB, as read1 first allocates the full size asked for
            read = _TextPieces(_open_compressed(kind, _Prefixed(head, raw)).read1).read
            piece_size = min(block_size, _COMPRESSED_PIECE)
        size = len(head) if pieces else 0
        least = max(block_size, 3)  # at least 3 bytes first, so a leading BOM is whole
        wanted = least
        first = True
        lone_cr: bool | None = None  # decided at the first line end
        while True:
            try:
                chunk = read(piece_size)
                if lone_cr and chunk:
                    chunk = chunk.replace(b"\r", b"\n")
            except (EOFError, OSError, lzma.LZMAError, zlib.error, ValueError) as exc:
                line += sum(piece.count(b"\n") for piece in pieces)
                if isinstance(exc, _BrokenUTF16):  # (at the line of the broken character)
                    raise FormatError(name, line + exc.newlines, _NOT_UTF16) from None
                if kind is None:  # plain input: the device or the file system failed
                    why = getattr(exc, "strerror", None) or exc
                    raise FormatError(name, line, f"cannot read: {why}") from None
                raise FormatError(name, line, _broken_stream(kind, exc)) from None
            if chunk:
                pieces.append(chunk)
                size += len(chunk)
                if size < wanted:
                    continue
            data = b"".join(pieces)
            if first:
                first = False
                if data.startswith(b"\xef\xbb\xbf"):
                    data = data[3:]
            if lone_cr is None:
                lone_cr = lone_cr_line_ends(data, final=not chunk)
                if lone_cr:
                    data = data.replace(b"\r", b"\n")
            cut = data.rfind(b"\n") + 1
            if not chunk:  # the end: the whole lines, then a last line without its newline
                if cut:
                    yield data[:cut], line
                    line += data.count(b"\n", 0, cut)
                if cut < len(data):
                    yield data[cut:], line
                return
            if cut == 0:  # no line end yet
                if _binary_line(data):  # (data is the start of one line)
                    raise FormatError(name, line, _BINARY)
                # wait for as much again: a line of n bytes costs O(n) joins and scans
                pieces = [data]
                size = len(data)
                wanted = 2 * size
                continue
            block = data[:cut]
            carry = data[cut:]
            pieces = [carry] if carry else []
            size = len(carry)
            wanted = least
            yield block, line
            line += block.count(b"\n")
    finally:
        if owned:
            raw.close()


class _Prefixed(io.RawIOBase):
    """A readable stream that first returns ``head`` and then the rest of ``tail``."""

    def __init__(self, head: bytes, tail: IO[bytes]) -> None:
        self._head = head
        self._tail = tail

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self._head:
            size = min(len(buffer), len(self._head))
            buffer[:size] = self._head[:size]
            self._head = self._head[size:]
            return size
        data = self._tail.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def decode_text(data: bytes, name: str, *, keep_bad_bytes: bool = False) -> str:
    """UTF-8 text without a leading BOM; undecodable or binary data is a FormatError.

    Line ends are left as they are (CRLF stays CRLF) so that readers that must
    reproduce text byte for byte can. With ``keep_bad_bytes``, bytes that are not
    UTF-8 (a key written in cp1252, say) become lone surrogates (``surrogateescape``)
    instead of an error: the caller says where they are (`bad_byte`), and
    `atomic_output` writes them back as the same bytes.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    nul = data.find(b"\x00")
    if nul >= 0:
        raise FormatError(name, _line_at(data, nul), "binary data (NUL byte), not text")
    if keep_bad_bytes:
        return data.decode("utf-8", "surrogateescape")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = _line_at(data, exc.start)
        raise FormatError(name, line, f"not UTF-8 text (byte 0x{data[exc.start]:02x})") from None


def _line_at(data: bytes, index: int) -> int:
    """The number of the line that byte ``index`` is on; lines end at LF, CRLF or a lone CR
    (as `text_lines` splits them)."""
    head = data[:index]
    return head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n") + 1


_KEPT_BYTE = re.compile("[\udc80-\udcff]")
"""A byte that is not UTF-8, as ``surrogateescape`` keeps it."""


def bad_byte(text: str) -> tuple[int, int] | None:
    """Where `decode_text` kept a byte that is not UTF-8: (index in ``text``, the byte),
    or None."""
    found = _KEPT_BYTE.search(text)
    return None if found is None else (found.start(), ord(found.group()) - 0xDC00)


def text_lines(text: str) -> list[str]:
    """The lines of ``text`` without their line ends.

    A line ends only at LF, CRLF or a lone CR, as for every reader of these files
    (``str.splitlines`` also ends one at a form feed, a vertical tab or U+2028); a
    final line end opens no new line.

    >>> text_lines("a\\r\\nb\\rc\\fd\\n")
    ['a', 'b', 'c\\x0cd']
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def read_text(path: str | os.PathLike[str]) -> str:
    """The decoded text of an input (see :func:`read_bytes` and :func:`decode_text`)."""
    return decode_text(read_bytes(path), display_name(path))


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """True when two paths name the same existing file (``-`` is never a file)."""
    if STDIO in (os.fspath(a), os.fspath(b)):
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _stream_file(stream: object, path: str | os.PathLike[str]) -> os.stat_result | None:
    """The stat of the file behind ``stream`` when ``path`` names that same file (same
    device and inode), else None (also with no real stream, or no such file)."""
    try:
        given = os.fstat(stream.fileno())  # type: ignore[attr-defined]
        other = os.stat(path)
    except (AttributeError, ValueError, OSError):  # replaced or closed stream, no file
        return None
    return given if (given.st_dev, given.st_ino) == (other.st_dev, other.st_ino) else None


def is_stdout(path: str | os.PathLike[str]) -> bool:
    """True for ``-`` and for a path that names the file standard output already goes to
    (``/dev/stdout``, or ``out.txt`` in ``cmd --proof out.txt > out.txt``): a second
    output written there would be mixed into the first."""
    if os.fspath(path) == STDIO:
        return True
    given = _stream_file(sys.stdout, path)
    if given is None:
        return False
    return not (stat.S_ISCHR(given.st_mode) and not sys.stdout.isatty())  # /dev/null: no mix


def _is_stdin(path: str) -> bool:
    """True when standard input is a regular file and ``path`` names that same file
    (``cmd - -o FILE < FILE``: the input arrives as ``-`` but is FILE)."""
    given = _stream_file(sys.stdin, path)
    return given is not None and stat.S_ISREG(given.st_mode)


def check_output(
    path: str | os.PathLike[str], *, inputs: Sequence[str | os.PathLike[str]] = ()
) -> None:
    """Raise FormatError now if `atomic_output` would refuse ``path`` later.

    Commands call it before their work, so that a solve or a shrink that takes an hour
    does not end in "output folder does not exist". Refused: an empty name, one of
    ``inputs`` (including stdin redirected from the target), a directory, a missing or
    read-only folder. ``-`` (standard output) is always fine.
    """
    _checked_target(os.fspath(path), inputs)


def _checked_target(target: str, inputs: Sequence[str | os.PathLike[str]]) -> bool:
    """`check_output`'s checks; True when the target is `written_in_place`."""
    if target == STDIO:
        return False
    if not target:  # ('' would be taken as this folder, and fail only after the work)
        raise FormatError("''", None, "an empty name is no output file")
    for source in inputs:
        if same_file(target, source) or (os.fspath(source) == STDIO and _is_stdin(target)):
            raise FormatError(target, None, "refusing to overwrite the input file")
    if os.path.isdir(target):
        raise FormatError(target, None, "is a directory, not a file")
    if written_in_place(target):
        return True  # no temporary file, so no folder to check
    folder = os.path.dirname(os.path.realpath(target))
    if not os.path.isdir(folder):
        raise FormatError(target, None, "output folder does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise FormatError(target, None, "output folder is not writable")
    return False


def written_in_place(path: str | os.PathLike[str]) -> bool:
    """Whether `atomic_output` writes ``path`` in place instead of renaming a finished
    temporary file over it: a device or a pipe (``/dev/null``, a named pipe) and any
    path under ``/dev`` or ``/proc`` (``/dev/stdout``, a shell's ``>(…)`` as
    ``/dev/fd/63``). Renaming over those would replace the device or the link itself."""
    absolute = os.path.abspath(path)
    if absolute.startswith(("/dev/", "/proc/")):
        return True
    try:
        mode = os.stat(absolute).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


@contextlib.contextmanager
def atomic_output(
    path: str | os.PathLike[str],
    *,
    inputs: Sequence[str | os.PathLike[str]] = (),
    binary: bool = False,
    newline: str | None = "",
) -> Iterator[IO]:
    """Open an output that appears whole or not at all.

    Writes go to a temporary file in the target's folder, which is renamed over
    the target only when the ``with`` block finishes without an exception; on
    any error the temporary file is removed and the target is untouched. ``-``
    writes to standard output; devices, pipes and ``/dev`` paths are written in
    place (see `written_in_place`); a symbolic link stays a link to the replaced
    file. Refuses (FormatError) to overwrite one of ``inputs``, including a ``-``
    input whose standard input is redirected from the target (same device and
    inode). ``newline=""`` writes text exactly as given (no CRLF translation).
    A file named ``….gz``, ``….bz2`` or ``….xz`` is written compressed (see
    `compressed_writer`), as every reader here reads it.
    An OSError that names no file (a full disk: ENOSPC from a write) is raised again
    naming the output (``<stdout>`` for ``-``), so that the message says which failed.
    """
    target = os.fspath(path)
    try:
        with _atomic_output(target, inputs, binary, newline) as handle:
            yield handle
    except OSError as exc:
        if exc.filename is not None or exc.errno is None:
            raise
        name = "<stdout>" if target == STDIO else target
        raise OSError(exc.errno, exc.strerror, name) from exc  # (EPIPE stays BrokenPipeError)


@contextlib.contextmanager
def _atomic_output(
    target: str, inputs: Sequence[str | os.PathLike[str]], binary: bool, newline: str | None
) -> Iterator[IO]:
    if target == STDIO:
        refuse_closed_stdout()  # (the output is the command's product: nothing is no success)
        stream = sys.stdout.buffer if binary else _stdout_text()
        yield stream
        stream.flush()
        WRITTEN.append("<stdout>")  # (whole: a stop from here on must not say "nothing")
        return
    if _checked_target(target, inputs):
        with open(target, "wb") as special, _output_stream(special, target, binary, newline) as out:
            yield out
        WRITTEN.append(target)
        return
    given = target  # (compression goes by this name: the one the user and the next tool see)
    if os.path.islink(target) and not os.path.exists(target):
        try:  # a loop of links is an error (a dangling link gets its file created)
            os.stat(target)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise OSError(exc.errno, exc.strerror, given) from None
    target = os.path.realpath(target)  # through a symbolic link: its file is replaced
    folder = os.path.dirname(target)
    fd, temp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=folder)
    try:
        try:  # a file replaced keeps its permissions (a private 0600 file stays private)
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except OSError:  # a new file: what open() would give it
            mask = os.umask(0)
            os.umask(mask)
            mode = 0o666 & ~mask
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as raw, _output_stream(raw, given, binary, newline) as out:
            yield out
        try:
            os.replace(temp, target)
        except OSError as exc:  # named by the hidden temporary file: name the output
            why = exc.strerror or str(exc)
            if not os.path.isdir(folder):
                why = "the output folder no longer exists"
            raise OSError(exc.errno, why, given) from None
        WRITTEN.append(given)
    except BaseException:
        if os.path.lexists(temp):
            with contextlib.suppress(OSError):
                os.unlink(temp)
        elif given not in WRITTEN[-1:]:  # a stop just after the rename, before the line above
            WRITTEN.append(given)
        raise


_COMPRESSORS: dict[str, Callable[[IO[bytes]], IO[bytes]]] = {
    ".gz": lambda raw: gzip.GzipFile(filename="", fileobj=raw, mode="wb", compresslevel=6, mtime=0),
    ".bz2": lambda raw: bz2.BZ2File(raw, "wb"),
    ".xz": lambda raw: lzma.LZMAFile(raw, "wb"),  # noqa: SIM115 - closed by _output_stream
}
COMPRESSED_SUFFIXES = tuple(_COMPRESSORS)
"""The output names `atomic_output` writes compressed (lower case only)."""

DIMACS_SUFFIXES = (".cnf", ".dimacs")
"""A file named so is DIMACS whatever its first line (also with ``.gz``, ``.bz2``, ``.xz``)."""


def named_dimacs(path: str | os.PathLike[str] | None) -> bool:
    """Whether ``path``'s name says DIMACS (``x.cnf``, ``x.dimacs``, ``x.CNF.gz``, …); input
    of any name is read by its magic bytes, whatever compression suffix it has."""
    if path is None:
        return False
    return strip_compression(os.fspath(path).lower()).endswith(DIMACS_SUFFIXES)


def strip_compression(name: str) -> str:
    """``name`` without a compression suffix (``x.cnf.gz`` -> ``x.cnf``)."""
    for suffix in COMPRESSED_SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def compressed_writer(raw: IO[bytes], target: str) -> IO[bytes] | None:
    """A compressing writer over ``raw`` when ``target``'s name ends in one of
    `COMPRESSED_SUFFIXES`, else None. Lower case only, as cadical, kissat and picosat
    decide by the name (``x.GZ`` is plain text to them). Closing it leaves ``raw`` open.
    gzip is written at level 6 (gzip's own default) with no time stamp, so that the same
    output gives the same bytes."""
    make = _COMPRESSORS.get(os.path.splitext(target)[1])
    return None if make is None else make(raw)


@contextlib.contextmanager
def _output_stream(raw: IO[bytes], target: str, binary: bool, newline: str | None) -> Iterator[IO]:
    """What `atomic_output` yields over the open file ``raw``: bytes or UTF-8 text,
    compressed by the name's suffix."""
    packed = compressed_writer(raw, target)
    stream = raw if packed is None else packed
    out: IO = stream
    if not binary:
        out = io.TextIOWrapper(stream, encoding="utf-8", errors="surrogateescape", newline=newline)  # type: ignore[arg-type]
    try:
        yield out
    except BaseException:
        with contextlib.suppress(Exception):  # the output is thrown away: close it quietly
            out.close()
        raise
    out.close()  # (closing ``raw`` too, unless compressed: its own `with` closes it again)
    if packed is not None:
        packed.close()


class _SurrogateSafeStdout:
    """Standard output for text that may hold bytes `decode_text` kept: written as those
    bytes, where ``sys.stdout`` would refuse them (its errors handler is strict)."""

    def __init__(self, buffer: IO[bytes]) -> None:
        self.buffer = buffer

    def write(self, text: str) -> int:
        sys.stdout.flush()  # what was printed before comes first
        self.buffer.write(text.encode("utf-8", "surrogateescape"))
        return len(text)

    def flush(self) -> None:
        self.buffer.flush()


def buffer_stdout() -> None:
    """Give standard output a buffered byte layer when it has none (``PYTHONUNBUFFERED``,
    ``python -u``): there, one big write to a file that hits a size limit or a full disk
    writes only part, and the text layer drops the rest without an error, so a cut-off
    model or DP file came with exit 10 or 0. A ``BufferedWriter`` writes the rest or
    raises (a one-line error). Output still appears at once: it is flushed after each
    print, as click does."""
    stream = sys.stdout
    raw = getattr(stream, "buffer", None)
    if not isinstance(raw, io.RawIOBase) or not isinstance(stream, io.TextIOWrapper):
        return
    sys.stdout = io.TextIOWrapper(
        io.BufferedWriter(raw),
        encoding=stream.encoding,
        errors=stream.errors,
        line_buffering=stream.line_buffering,
        write_through=True,
    )


def _stdout_text() -> IO[str]:
    """``sys.stdout``, or when it has a byte buffer, a writer that keeps kept bytes."""
    buffer = getattr(sys.stdout, "buffer", None)
    return sys.stdout if buffer is None else _SurrogateSafeStdout(buffer)  # type: ignore[return-value]


def write_text_atomic(
    path: str | os.PathLike[str], text: str, *, inputs: Sequence[str | os.PathLike[str]] = ()
) -> None:
    """Write ``text`` exactly (no newline translation) to ``path`` atomically."""
    with atomic_output(path, inputs=inputs) as handle:
        handle.write(text)

