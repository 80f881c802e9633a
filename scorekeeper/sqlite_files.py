"""The SQLite database's files, checked before each transaction: a write to a file the
server may not write is refused (503) before SQLite tries it, and SQLite's shared memory is
left alone once its file is locked against writing.

In WAL mode each process maps the ``-shm`` file (the WAL index) into memory, writably when
it could open the file for writing. A write transaction writes to that memory, and so does
a read that starts after a write (its read mark), and the checkpoint when the last
connection closes. Once the file is made immutable (``chattr +i``) or its file system
read-only, the kernel answers such a write to the mapping with SIGBUS, which kills the
process; SQLite never sees an error to report. So before each transaction the files are
checked with ``access(2)`` (a few microseconds): a write finds out that it cannot be done,
and a process that holds the WAL index writably while its file is locked uses no connection
(nor closes one) until the file is writable again. A process that opens the database while
the ``-shm`` file is locked maps it read-only (SQLite does so itself): it reads, and only
its writes are refused. A database in a directory the process may not write, with no WAL
beside it, is opened as immutable, so that it is read; once the directory may be written
again, those connections are replaced."""

from __future__ import annotations

import errno
import os
import sqlite3
from urllib.parse import quote

from sqlalchemy import URL
from sqlalchemy.exc import OperationalError

#: The key a request's WSGI environ gets when this process had better be replaced
#: (:attr:`SqliteFiles.replace`): gunicorn then replaces it (gunicorn.conf.py).
REPLACE_WORKER = "scorekeeper.replace_worker"


class FilesUnwritable(sqlite3.OperationalError):
    """A transaction refused before SQLite began it: a file it may write is unwritable."""


def database_path(url: URL) -> str | None:
    """The file a SQLite URL names (``file:`` URIs too), ``None`` for a database in memory."""
    name = url.database or ""
    if url.query.get("uri") == "true":
        name = name.removeprefix("file:").partition("?")[0]
    return None if name in ("", ":memory:") else os.path.abspath(name)


def _writable(path: str) -> bool:
    """Whether this process may write ``path`` (a missing file: SQLite makes it or says so)."""
    return os.access(path, os.W_OK) or not os.path.lexists(path)


def _locked(path: str) -> bool:
    """Whether ``path`` is locked against any writing (immutable, or on a read-only file
    system), which a writable mapping of it turns into SIGBUS; not when only its permission
    bits forbid opening it for writing, which leave a mapping made before writable."""
    try:
        os.close(os.open(path, os.O_RDWR))
    except OSError as error:
        return error.errno in (errno.EPERM, errno.EROFS)
    return False


class SqliteFiles:
    """The database file, its WAL and its WAL index, as one process uses them."""

    def __init__(self, path: str) -> None:
        self.paths = (path, f"{path}-wal", f"{path}-shm")
        self.index = self.paths[2]
        #: A connection was opened while the WAL index could be written: this process may
        #: hold it writably (as long as the process lives, to be safe).
        self.mapped = False
        #: A connection was opened while it could not: this process may hold it read-only,
        #: and write again only once every connection is closed.
        self.mapped_read_only = False
        #: This process had better be replaced: it holds the WAL index writably while its
        #: file is locked, or read-only while it is writable again.
        self.replace = False

    def immutable(self) -> bool:
        """Whether the database can be opened only as immutable: in WAL mode a reader needs
        the ``-wal`` and ``-shm`` files, which a directory this process may not write cannot
        get; with no ``-wal`` there, no process is writing it either."""
        directory = os.path.dirname(self.paths[0])
        return not os.access(directory, os.W_OK) and not os.path.lexists(self.paths[1])

    def connected(self) -> None:
        """A connection was opened (it maps the WAL index, writably if it may)."""
        if _writable(self.index):
            self.mapped = True
        else:
            self.mapped_read_only = True

    def check(self, *, write: bool) -> None:
        """Raise :class:`OperationalError` when the transaction about to begin could not be
        done: a write with a file unwritable, or any while the mapped WAL index is locked."""
        if _writable(self.index):
            self.replace = self.mapped_read_only
            if not write or all(_writable(path) for path in self.paths[:2]):
                return
        elif self.mapped and _locked(self.index):
            self.replace = True
            raise _refused("the WAL index is locked against writing while it is mapped")
        elif not write:
            return
        raise _refused("a file of the database may not be written")


def open_immutable(path: str, cargs: list[str], cparams: dict[str, object]) -> None:
    """Have SQLite open ``path`` as immutable (no locks, no WAL, no changes)."""
    cargs[0] = f"file:{quote(path)}?immutable=1"
    cparams["uri"] = True


def _refused(reason: str) -> OperationalError:
    return OperationalError("BEGIN", None, FilesUnwritable(reason))
