"""Output files written whole or not at all: a temporary file beside the output, synced, then renamed.

A full disk, a write refused, an exception or a killed process while a sheet, a picture or a table is
written leaves the file that was there before (or none): never half a file. The temporary file is
named ``.NAME.XXXXXXXX.part`` in the same folder (a rename is atomic only within one file system), and
is removed when the writing fails; only a process killed outright can leave one behind, beside an
output it never touched.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> write_output(folder / "a.txt", "one\\n")
>>> (folder / "a.txt").read_text()
'one\\n'
>>> write_output(folder / "a.txt", lambda handle: handle.write(b"two\\n"))
>>> (folder / "a.txt").read_text(), sorted(p.name for p in folder.iterdir())
('two\\n', ['a.txt'])
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import IO, Any


class AtomicOutput:
    """An output file being written: ``handle`` (binary) is a temporary file beside ``path``; :meth:`commit`
    puts it in place of ``path`` (synced first), :meth:`discard` removes it and leaves ``path`` as it was.

    As a context manager: committed when the block ends normally, discarded when it raises.
    ``replace=False`` never puts it over a file already there (``FileExistsError`` at the commit, the
    temporary file removed): a check and a write with no gap between them.
    """

    def __init__(self, path: Path | str, *, replace: bool = True) -> None:
        self.path = Path(path)  # the name a person gave, in every message
        self.replace = replace
        self.done = False
        # a symbolic link is kept: the file it leads to is the one replaced (a rename over the link itself
        # would put a file in its place and leave the linked file as it was)
        self.target = Path(os.path.realpath(self.path)) if replace else self.path
        try:
            status: os.stat_result | None = self.target.stat()
        except OSError:
            status = None
        self.direct = status is not None and replace and not stat.S_ISREG(status.st_mode)
        if self.direct:
            # a device or a pipe (/dev/null, /dev/stdout, a FIFO) is written to as it is: a rename over it
            # would replace the device itself with a file (root may rename over /dev/null); nothing to keep whole
            self.temp = self.target
            self.handle: IO[bytes] = open(self.target, "wb")  # closed by commit or discard
            return
        folder = self.target.parent
        self.temp = folder / f".{self.target.name}.{secrets.token_hex(4)}.part"
        mode = 0o666  # as open() makes a new file: the umask applies
        if status is not None:
            mode = stat.S_IMODE(status.st_mode)  # writing over a file: it keeps its permissions
        fd = os.open(self.temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), mode)
        self.handle = os.fdopen(fd, "wb")

    def commit(self) -> None:
        """The bytes written on the disk, then the temporary file renamed to ``path`` (the folder synced)."""
        if self.done:
            return
        try:
            if self.direct:
                self.handle.close()  # a device or a pipe: written as it goes, nothing to rename
                self.done = True
                return
            self.handle.flush()
            os.fsync(self.handle.fileno())
            self.handle.close()
            if self.replace:
                os.replace(self.temp, self.target)
            else:
                os.link(self.temp, self.path)  # FileExistsError when a file is there: never over it
                os.unlink(self.temp)
        except OSError as exc:
            self.discard()
            raise self.failed(exc) from None
        except BaseException:
            self.discard()
            raise
        self.done = True
        _sync_folder(self.target.parent)

    def failed(self, exc: OSError) -> OSError:
        """``exc`` (a write that failed: a full disk...) naming ``path``, the file a person asked for, not the
        temporary one."""
        return OSError(exc.errno, exc.strerror or str(exc), str(self.path))

    def discard(self) -> None:
        """The temporary file removed; ``path`` left as it was."""
        self.done = True
        try:
            self.handle.close()
        except OSError:  # its last bytes could not be written either: they are thrown away
            pass
        if self.direct:
            return
        try:
            os.unlink(self.temp)
        except FileNotFoundError:
            pass

    def __enter__(self) -> AtomicOutput:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()


def write_output(path: Path | str, content: bytes | str | Callable[[IO[bytes]], Any], *, replace: bool = True) -> None:
    """Write ``content`` (bytes, text as UTF-8, or a function that writes to a binary file) to ``path``
    whole or not at all (:class:`AtomicOutput`); an ``OSError`` (a full disk...) leaves ``path`` as it was."""
    try:
        output = AtomicOutput(path, replace=replace)
    except OSError as exc:  # the folder is not there, or not writable
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
    with output:
        try:
            if callable(content):
                content(output.handle)
            else:
                output.handle.write(content.encode("utf-8") if isinstance(content, str) else content)
        except OSError as exc:
            raise output.failed(exc) from None


def _sync_folder(folder: Path) -> None:
    """The rename on the disk too (where the system lets a folder be opened for that)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
