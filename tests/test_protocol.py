"""tmux's wire protocol: framing units, and a real server fed good and bad frames."""

from __future__ import annotations

import array
import os
import socket
import struct
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hmux_core import protocol as P


def test_frame_roundtrip():
    d = P.Decoder()
    d.feed(P.encode(P.MSG_COMMAND, P.pack_command(["list-sessions", "-F", "#{session_name}"])))
    (m,) = d.messages()
    assert m.type == P.MSG_COMMAND and m.peerid == 8
    assert P.unpack_command(m.data) == ["list-sessions", "-F", "#{session_name}"]


def test_header_is_16_bytes_native_order():
    frame = P.encode(P.MSG_EXIT, P.pack_int(3))
    assert len(frame) == 20
    assert struct.unpack("=IIII", frame[:16]) == (P.MSG_EXIT, 20, 8, 0xFFFFFFFF)


def test_both_fd_encodings_take_an_fd():
    old = struct.pack("=IIII", P.MSG_IDENTIFY_STDIN, 16 | 0x10000, 8, 0xFFFFFFFF)
    new = struct.pack("=IIII", P.MSG_IDENTIFY_STDOUT, 16 | 0x80000000, 8, 0xFFFFFFFF)
    d = P.Decoder()
    d.feed(old + new, [10, 11])
    a, b = d.messages()
    assert (a.fd, b.fd) == (10, 11)


def test_partial_frames_wait_for_the_rest():
    frame = P.encode(P.MSG_IDENTIFY_TERM, P.pack_string("xterm"))
    d = P.Decoder()
    d.feed(frame[:7])
    assert d.messages() == []
    d.feed(frame[7:])
    assert P.unpack_string(d.messages()[0].data) == "xterm"


def test_oversized_and_undersized_frames_rejected():
    d = P.Decoder()
    d.feed(struct.pack("=IIII", 200, 20000, 8, 0))
    with pytest.raises(P.ProtocolError):
        d.messages()
    d = P.Decoder()
    d.feed(struct.pack("=IIII", 200, 3, 8, 0))
    with pytest.raises(P.ProtocolError):
        d.messages()


def test_fd_flag_without_fd_rejected():
    d = P.Decoder()
    d.feed(struct.pack("=IIII", P.MSG_IDENTIFY_STDIN, 16 | 0x10000, 8, 0))
    with pytest.raises(P.ProtocolError):
        d.messages()


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=4096))
def test_decoder_never_crashes(data):
    d = P.Decoder()
    d.feed(data)
    try:
        for m in d.messages():
            assert 0 <= len(m.data) <= P.MAX_PAYLOAD
    except P.ProtocolError:
        pass


# -- against a running server -------------------------------------------------------------------


def _connect(hmux) -> socket.socket:
    path = os.path.join(hmux.env["TMUX_TMPDIR"], f"hmux-{os.getuid()}", hmux.socket_args[1])
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    s.settimeout(10)
    return s


def _identify(s: socket.socket, done: bool = True) -> None:
    s.sendall(P.encode(P.MSG_IDENTIFY_FLAGS, P.pack_int(P.CLIENT_UTF8)))
    s.sendall(P.encode(P.MSG_IDENTIFY_LONGFLAGS, P.pack_u64(P.CLIENT_UTF8)))
    s.sendall(P.encode(P.MSG_IDENTIFY_TERM, P.pack_string("xterm")))
    s.sendall(P.encode(P.MSG_IDENTIFY_CWD, P.pack_string("/")))
    fd = os.open(os.devnull, os.O_RDWR)
    for t in (P.MSG_IDENTIFY_STDIN, P.MSG_IDENTIFY_STDOUT):
        s.sendmsg([P.encode_with_fd(t)], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [fd]))])
    os.close(fd)
    s.sendall(P.encode(P.MSG_IDENTIFY_CLIENTPID, P.pack_int(os.getpid())))
    if done:
        s.sendall(P.encode(P.MSG_IDENTIFY_DONE))


def _read_until_exit(s: socket.socket) -> tuple[dict[int, bytes], int]:
    d = P.Decoder()
    streams: dict[int, bytes] = {}
    while True:
        data = s.recv(65536)
        assert data, "server closed without MSG_EXIT"
        d.feed(data)
        for m in d.messages():
            if m.type == P.MSG_WRITE_OPEN:
                stream = P.unpack_write_open(m.data)[0]
                s.sendall(P.encode(P.MSG_WRITE_READY, P.pack_stream_error(stream, 0)))
            elif m.type == P.MSG_WRITE:
                stream, chunk = P.unpack_stream(m.data)
                streams[stream] = streams.get(stream, b"") + chunk
            elif m.type == P.MSG_EXIT:
                return streams, P.unpack_int(m.data[:4])


def _alive(hmux) -> bool:
    return hmux.cmd("has-session", "-t", "keep").rc == 0


def test_raw_client_runs_a_command(hmux):
    hmux.ok("new-session", "-d", "-s", "keep")
    s = _connect(hmux)
    _identify(s)
    s.sendall(P.encode(P.MSG_COMMAND, P.pack_command(["display", "-p", "#{session_name}"])))
    streams, rc = _read_until_exit(s)
    assert rc == 0 and streams[1] == b"keep\n"


def test_version_mismatch_answered(hmux):
    hmux.ok("new-session", "-d", "-s", "keep")
    s = _connect(hmux)
    s.sendall(struct.pack("=IIII", P.MSG_IDENTIFY_FLAGS, 20, 7, 0) + P.pack_int(0))
    d = P.Decoder()
    d.feed(s.recv(1024))
    (m,) = d.messages()
    assert m.type == P.MSG_VERSION and m.data == b""
    assert _alive(hmux)


@pytest.mark.parametrize("garbage", [
    b"\xff" * 64,
    struct.pack("=IIII", 200, 60000, 8, 0) + b"x" * 100,
    struct.pack("=IIII", P.MSG_IDENTIFY_STDIN, 16 | 0x10000, 8, 0),
    struct.pack("=IIII", P.MSG_COMMAND, 18, 8, 0) + b"\x01\x00",
    struct.pack("=IIII", P.MSG_COMMAND, 24, 8, 0) + struct.pack("=i", 5) + b"ab\0\0",
])
def test_garbage_frames_drop_only_that_client(hmux, garbage):
    hmux.ok("new-session", "-d", "-s", "keep")
    s = _connect(hmux)
    if garbage[:4] == struct.pack("=I", P.MSG_COMMAND):
        _identify(s)
    s.sendall(garbage)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            if not s.recv(65536):
                break
        except OSError:
            break
    assert _alive(hmux)


def test_client_that_never_identifies_is_dropped(hmux):
    hmux.ok("new-session", "-d", "-s", "keep")
    s = _connect(hmux)
    _identify(s, done=False)
    s.settimeout(15)
    assert s.recv(1024) == b""  # closed by the server's identify deadline
    assert _alive(hmux)


def test_client_disconnecting_mid_command(hmux):
    hmux.ok("new-session", "-d", "-s", "keep")
    for _ in range(5):
        s = _connect(hmux)
        _identify(s)
        s.sendall(P.encode(P.MSG_COMMAND, P.pack_command(["list-panes", "-a"])))
        s.close()
    assert _alive(hmux)


def test_stdin_read_for_dash(hmux):
    # READ_OPEN/READ/READ_DONE: the client serves its stdin to the server.
    hmux.ok("new-session", "-d", "-s", "keep")
    r = hmux.cmd("source-file", "-", stdin="set -g @fromstdin yes\n")
    assert hmux.ok("show", "-gv", "@fromstdin") == "yes\n" or r.rc != 0


def test_hmux_client_drives_a_tmux_37_server(tmux):
    """hmux's client is a tmux client: it passes its fds with tmux 3.6+'s IMSG_FD_MARK, which a
    3.7b server requires (it reads the old HASFD bit as an oversized length and drops us)."""
    import sys

    from harness import Mux

    tmux.ok("new-session", "-d", "-s", "s", "-n", "w0", "-x", "80", "-y", "24", "cat")
    via_hmux = Mux([sys.executable, "-m", "hmux_core.cli"], tmux.socket_args, tmux.env,
                   cwd=tmux.cwd, config=None)
    # -L names a socket in tmux-UID only for tmux; give hmux's client the oracle's socket path.
    path = os.path.join(tmux.env["TMUX_TMPDIR"], f"tmux-{os.getuid()}", tmux.socket_args[1])
    via_hmux.socket_args = ["-S", path]
    via_hmux.ok("new-window", "-d", "-n", "from-hmux", "cat")
    assert tmux.ok("list-windows", "-F", "#{window_index}:#{window_name}") == "0:w0\n1:from-hmux\n"
    assert via_hmux.ok("display", "-p", "#{version}") == "3.7b\n"
    echo = via_hmux.cmd("load-buffer", "-", stdin="from stdin")  # a fd-backed file stream
    assert echo.rc == 0 and tmux.ok("show-buffer") == "from stdin"
