"""tmux's client/server wire protocol (imsg framing, protocol version 8).

Pure encoding and decoding, no I/O, so both the server (trio) and the client (blocking sockets)
share it, and the fuzz tests can feed it arbitrary frames.

Frames are a 16-byte native-order header ``type, len, peerid, pid`` followed by the payload. tmux
up to 3.5 keeps ``len`` in the low 16 bits and an fd flag in bit 16; 3.6+ uses a 32-bit length with
an fd mark in bit 31. Frames never exceed 16 KiB, so masking with 0xFFFF reads both, and our own
frames (no fds from the server) are identical in both encodings.
"""

from __future__ import annotations

import struct

PROTOCOL_VERSION = 8
HEADER = struct.Struct("=IIII")
HEADER_SIZE = HEADER.size
MAX_IMSGSIZE = 16384
MAX_PAYLOAD = MAX_IMSGSIZE - HEADER_SIZE
#: Largest data chunk in one MSG_WRITE / MSG_READ (the payload also carries the stream number).
MAX_STREAM_DATA = MAX_PAYLOAD - 4
FD_FLAGS = 0x80010000  # old IMSGF_HASFD (bit 16) | new IMSG_FD_MARK (bit 31)

MSG_VERSION = 12

MSG_IDENTIFY_FLAGS = 100
MSG_IDENTIFY_TERM = 101
MSG_IDENTIFY_TTYNAME = 102
MSG_IDENTIFY_OLDCWD = 103
MSG_IDENTIFY_STDIN = 104
MSG_IDENTIFY_ENVIRON = 105
MSG_IDENTIFY_DONE = 106
MSG_IDENTIFY_CLIENTPID = 107
MSG_IDENTIFY_CWD = 108
MSG_IDENTIFY_FEATURES = 109
MSG_IDENTIFY_STDOUT = 110
MSG_IDENTIFY_LONGFLAGS = 111
MSG_IDENTIFY_TERMINFO = 112

MSG_COMMAND = 200
MSG_DETACH = 201
MSG_DETACHKILL = 202
MSG_EXIT = 203
MSG_EXITED = 204
MSG_EXITING = 205
MSG_LOCK = 206
MSG_READY = 207
MSG_RESIZE = 208
MSG_SHELL = 209
MSG_SHUTDOWN = 210
MSG_OLDSTDERR = 211
MSG_OLDSTDIN = 212
MSG_OLDSTDOUT = 213
MSG_SUSPEND = 214
MSG_UNLOCK = 215
MSG_WAKEUP = 216
MSG_EXEC = 217
MSG_FLAGS = 218

MSG_READ_OPEN = 300
MSG_READ = 301
MSG_READ_DONE = 302
MSG_WRITE_OPEN = 303
MSG_WRITE = 304
MSG_WRITE_READY = 305
MSG_WRITE_CLOSE = 306
MSG_READ_CANCEL = 307

# Client flags (tmux.h), the bits a server reads.
CLIENT_LOGIN = 0x2
CLIENT_NOSTARTSERVER = 0x1000
CLIENT_CONTROL = 0x2000
CLIENT_CONTROLCONTROL = 0x4000
CLIENT_UTF8 = 0x10000
CLIENT_DEFAULTSOCKET = 0x8000000
CLIENT_STARTSERVER = 0x10000000
CLIENT_NOFORK = 0x40000000
CLIENT_CONTROL_WAITEXIT = 1 << 33

_INT = struct.Struct("=i")
_INT2 = struct.Struct("=ii")
_INT3 = struct.Struct("=iii")
_U64 = struct.Struct("=Q")


class ProtocolError(Exception):
    """A peer sent something that cannot be a tmux frame; the connection must be dropped."""


class Message:
    """One decoded frame (a plain class: the client imports this module, and dataclasses
    would cost it more start-up time than the rest of the module)."""

    __slots__ = ("type", "data", "peerid", "fd")

    def __init__(self, type: int, data: bytes, peerid: int = PROTOCOL_VERSION,
                 fd: int | None = None) -> None:
        self.type, self.data, self.peerid, self.fd = type, data, peerid, fd

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and (self.type, self.data, self.peerid, self.fd) == (
            other.type, other.data, other.peerid, other.fd)

    def __repr__(self) -> str:
        return f"Message(type={self.type}, data={self.data!r}, peerid={self.peerid}, fd={self.fd})"


def encode(msg_type: int, data: bytes = b"") -> bytes:
    """One frame as the server or client sends it (never carries an fd flag)."""
    if len(data) > MAX_PAYLOAD:
        raise ValueError(f"payload too large for one imsg: {len(data)}")
    return HEADER.pack(msg_type, HEADER_SIZE + len(data), PROTOCOL_VERSION, 0xFFFFFFFF) + data


def encode_with_fd(msg_type: int, data: bytes = b"") -> bytes:
    """A frame whose fd travels in the same sendmsg, marked as tmux 3.6 and later mark it
    (IMSG_FD_MARK, bit 31 of the length): a 3.7b server drops a frame with the old HASFD bit,
    which it reads as a length over the limit. (The hmux server reads both.)"""
    return (
        HEADER.pack(msg_type, (HEADER_SIZE + len(data)) | 0x80000000, PROTOCOL_VERSION,
                    0xFFFFFFFF)
        + data
    )


class Decoder:
    """Incremental frame decoder: feed bytes and fds as they arrive, pop messages."""

    def __init__(self) -> None:
        self.buf = bytearray()
        self.fds: list[int] = []

    def feed(self, data: bytes, fds: list[int] | None = None) -> None:
        self.buf += data
        if fds:
            self.fds.extend(fds)

    def messages(self) -> list[Message]:
        """Complete frames so far. On ProtocolError the fds of frames decoded before the bad
        one go back to ``fds``, so ``close_fds`` still closes every fd the peer passed."""
        out: list[Message] = []
        buf = self.buf
        pos = 0
        while len(buf) - pos >= HEADER_SIZE:
            mtype, raw, peerid, _pid = HEADER.unpack_from(buf, pos)
            length = raw & 0xFFFF
            if length < HEADER_SIZE or length > MAX_IMSGSIZE or (raw & 0x7FFE0000):
                self._give_back(out)
                raise ProtocolError(f"bad frame length {raw:#x}")
            if len(buf) - pos < length:
                break
            fd = None
            if raw & FD_FLAGS:
                if not self.fds:
                    self._give_back(out)
                    raise ProtocolError("fd flag without a passed fd")
                fd = self.fds.pop(0)
            out.append(Message(mtype, bytes(buf[pos + HEADER_SIZE : pos + length]), peerid, fd))
            pos += length
        if pos:
            del buf[:pos]
        return out

    def _give_back(self, out: list[Message]) -> None:
        self.fds[:0] = [m.fd for m in out if m.fd is not None]

    def close_fds(self) -> None:
        import os

        for fd in self.fds:
            try:
                os.close(fd)
            except OSError:
                pass
        self.fds.clear()


# -- payload helpers ------------------------------------------------------------------------------


def pack_int(value: int) -> bytes:
    return _INT.pack(value)


def unpack_int(data: bytes) -> int:
    if len(data) != 4:
        raise ProtocolError("bad int payload size")
    return _INT.unpack(data)[0]


def pack_u64(value: int) -> bytes:
    return _U64.pack(value)


def unpack_u64(data: bytes) -> int:
    if len(data) != 8:
        raise ProtocolError("bad u64 payload size")
    return _U64.unpack(data)[0]


def pack_string(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape") + b"\0"


def unpack_string(data: bytes) -> str:
    if data.endswith(b"\0"):
        data = data[:-1]
    return data.decode("utf-8", "surrogateescape")


def pack_command(argv: list[str]) -> bytes:
    """``struct msg_command { int argc; }`` followed by NUL-terminated arguments."""
    return _INT.pack(len(argv)) + b"".join(pack_string(a) for a in argv)


def unpack_command(data: bytes) -> list[str]:
    if len(data) < 4:
        raise ProtocolError("bad MSG_COMMAND size")
    (argc,) = _INT.unpack_from(data)
    rest = data[4:]
    if argc == 0:
        return []
    if argc < 0 or not rest.endswith(b"\0"):
        raise ProtocolError("bad MSG_COMMAND argv")
    parts = rest[:-1].split(b"\0")
    if len(parts) != argc:
        raise ProtocolError("bad MSG_COMMAND argc")
    return [p.decode("utf-8", "surrogateescape") for p in parts]


def pack_write_open(stream: int, fd: int, flags: int, path: str = "") -> bytes:
    return _INT3.pack(stream, fd, flags) + (pack_string(path) if path else b"")


def unpack_write_open(data: bytes) -> tuple[int, int, int, str]:
    if len(data) < 12:
        raise ProtocolError("bad MSG_WRITE_OPEN size")
    stream, fd, flags = _INT3.unpack_from(data)
    return stream, fd, flags, unpack_string(data[12:]) if len(data) > 12 else ""


def pack_stream(stream: int, data: bytes = b"") -> bytes:
    return _INT.pack(stream) + data


def unpack_stream(data: bytes) -> tuple[int, bytes]:
    if len(data) < 4:
        raise ProtocolError("bad stream payload size")
    return _INT.unpack_from(data)[0], data[4:]


def pack_stream_error(stream: int, error: int) -> bytes:
    return _INT2.pack(stream, error)


def unpack_stream_error(data: bytes) -> tuple[int, int]:
    if len(data) != 8:
        raise ProtocolError("bad stream/error payload size")
    return _INT2.unpack(data)


def pack_read_open(stream: int, fd: int, path: str) -> bytes:
    return _INT2.pack(stream, fd) + pack_string(path)


def unpack_read_open(data: bytes) -> tuple[int, int, str]:
    if len(data) < 8:
        raise ProtocolError("bad MSG_READ_OPEN size")
    stream, fd = _INT2.unpack_from(data)
    return stream, fd, unpack_string(data[8:])
