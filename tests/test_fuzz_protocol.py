"""Fuzzing the imsg decoder and a live server's socket with framed garbage.

``test_protocol.py`` covers raw bytes and a few hand-picked bad frames; these build frames with
valid headers around wrong payload sizes, unknown types and fds the receiver did not ask for, and
check what a peer must never be able to do: raise anything but ProtocolError, lose track of a
passed fd (each is handed out once or closed), or make the server leak fds or stop serving.
"""

from __future__ import annotations

import array
import os
import socket
import struct
import time

from harness import wait_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_protocol import _connect, _identify

from hmux_core import protocol as P

TYPES = st.one_of(
    st.sampled_from([P.MSG_VERSION, P.MSG_IDENTIFY_FLAGS, P.MSG_IDENTIFY_TERM,
                     P.MSG_IDENTIFY_TTYNAME, P.MSG_IDENTIFY_OLDCWD, P.MSG_IDENTIFY_STDIN,
                     P.MSG_IDENTIFY_ENVIRON, P.MSG_IDENTIFY_CLIENTPID, P.MSG_IDENTIFY_CWD,
                     P.MSG_IDENTIFY_FEATURES, P.MSG_IDENTIFY_STDOUT, P.MSG_IDENTIFY_LONGFLAGS,
                     P.MSG_IDENTIFY_TERMINFO, P.MSG_RESIZE, P.MSG_EXITING, P.MSG_WAKEUP,
                     P.MSG_UNLOCK, P.MSG_SHELL, P.MSG_READ, P.MSG_READ_DONE, P.MSG_WRITE_READY,
                     P.MSG_WRITE_CLOSE, P.MSG_READ_CANCEL, P.MSG_DETACH, P.MSG_EXIT]),
    st.integers(0, 2**32 - 1),
)  # fmt: skip
PAYLOAD = st.one_of(st.binary(max_size=40), st.sampled_from(
    [b"", b"\0", b"\x01\0\0\0", b"\x01\0\0\0\x02\0\0\0", b"\0" * 8, b"\xff" * 12, b"x" * 300]))


@st.composite
def frames(draw):
    """One frame: maybe a lying length, maybe a bad peer id, maybe an fd flag, maybe an fd."""
    t, data = draw(TYPES), draw(PAYLOAD)
    length = P.HEADER_SIZE + len(data)
    if draw(st.integers(0, 9)) == 0:
        length = draw(st.integers(0, 0x1FFFF))
    flag = draw(st.sampled_from([0, 0, 0, 0x10000, 0x80000000]))
    peer = draw(st.sampled_from([P.PROTOCOL_VERSION] * 6 + [7, 0x108, 0]))
    send_fd = draw(st.integers(0, 5)) == 0
    return struct.pack("=IIII", t, (length | flag) & 0xFFFFFFFF, peer, 0) + data, send_fd


SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))


@SETTINGS
@given(st.lists(frames(), max_size=12), st.lists(st.integers(1, 50), max_size=4))
def test_decoder_accounts_for_every_fd(seq, cuts):
    d = P.Decoder()
    stream = b"".join(f for f, _ in seq)
    opened = [os.open(os.devnull, os.O_RDONLY) for _, fd in seq if fd]
    handed: list[int] = []
    fds = list(opened)
    try:
        pos = 0
        for c in cuts + [len(stream)]:
            chunk = stream[pos:pos + c] if c != len(stream) else stream[pos:]
            pos += len(chunk)
            d.feed(chunk, [fds.pop(0)] if fds else None)
            for m in d.messages():
                assert 0 <= len(m.data) <= P.MAX_PAYLOAD
                if m.fd is not None:
                    handed.append(m.fd)
    except P.ProtocolError:
        pass
    # Each fd fed is handed out once or still held by the decoder; none is invented or lost.
    assert sorted(handed + d.fds) == sorted(set(opened) - set(fds))
    for fd in fds:
        os.close(fd)
    for fd in handed:
        os.close(fd)
    d.close_fds()
    assert d.fds == []


def _server_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def _send_all(sock: socket.socket, seq) -> None:
    for frame, with_fd in seq:
        if with_fd:
            fd = os.open(os.devnull, os.O_RDONLY)
            try:
                sock.sendmsg([frame], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [fd]))])
            finally:
                os.close(fd)
        else:
            sock.sendall(frame)


def _drain(sock: socket.socket) -> None:
    """Read until the server closes; the write side is shut so it sees EOF if it keeps us."""
    try:
        sock.shutdown(socket.SHUT_WR)
    except OSError:
        return
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            data = sock.recv(65536)
        except OSError:
            return
        if not data:
            return
        for m in _try_decode(data):
            if m.type == P.MSG_WRITE_OPEN:  # a command ran: let its output through
                try:
                    sock.sendall(P.encode(P.MSG_WRITE_READY, P.pack_stream_error(
                        P.unpack_write_open(m.data)[0], 0)))
                except OSError:
                    return
    raise AssertionError("server kept a garbage client open for 10s after EOF")


def _try_decode(data: bytes) -> list[P.Message]:
    d = P.Decoder()
    d.feed(data)
    try:
        return d.messages()
    except P.ProtocolError:
        return []


LIVE_FRAMES = st.lists(frames(), min_size=1, max_size=10)


def garbage_client(hmux, seq, identified: bool) -> None:
    """One connection sending ``seq`` (after a real identify if asked), then EOF."""
    sock = _connect(hmux)
    try:
        if identified:
            _identify(sock)
        try:
            _send_all(sock, seq)
        except OSError:
            pass  # the server may drop us mid-sequence: that is the point
        _drain(sock)
    finally:
        sock.close()


LIVE = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


def test_live_server_survives_framed_garbage(hmux):
    hmux.ok("new-session", "-d", "-s", "keep")
    pid = hmux.server_pid()
    assert pid
    baseline = _server_fds(pid)
    count = [0]

    @LIVE
    @given(LIVE_FRAMES, st.booleans())
    def one_client(seq, identified):
        garbage_client(hmux, seq, identified)
        count[0] += 1

    one_client()
    assert count[0] > 0
    # Still serving the session it had, and every fd garbage clients passed is closed again.
    assert hmux.ok("display", "-p", "-t", "keep", "#{session_name}") == "keep\n"
    wait_for(lambda: _server_fds(pid) <= baseline, timeout=10)
