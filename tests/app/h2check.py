#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""HTTP/2 from python3-h2, a third implementation beside curl and nghttp: fetches every fixture
file over one connection, streams side by side, byte for byte; then sends what a server must
refuse (a malformed frame, a stream the client may not open, a header block past the limit, a
stream flood, the rapid-reset pattern) and checks the exact GOAWAY or RST_STREAM code that comes
back (RFC 9113 §5.4, §7), and that the server's descriptors are back to where they were.
Usage: h2check.py PORT ROOT SERVER_PID [--tls CA] [--fetch-only]. --fetch-only stops after the
fetch (a real server answers the bad frames its own way). Exit 0 when all held, else 1."""

import os
import socket
import ssl
import struct
import sys
import time

import h2.config
import h2.connection
import h2.events
import hpack

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
NO_ERROR, PROTOCOL_ERROR, FRAME_SIZE_ERROR, REFUSED_STREAM, CANCEL, COMPRESSION_ERROR = 0, 1, 6, 7, 8, 9
ENHANCE_YOUR_CALM = 11

port, root, pid = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
ca = sys.argv[sys.argv.index("--tls") + 1] if "--tls" in sys.argv else None
failures = []


def fail(what):
    print("FAIL:", what)
    failures.append(what)


def connect():
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    if ca:
        context = ssl.create_default_context(cafile=ca)
        context.set_alpn_protocols(["h2"])
        s = context.wrap_socket(s, server_hostname="localhost")
        if s.selected_alpn_protocol() != "h2":
            raise RuntimeError("ALPN chose %r, not h2" % s.selected_alpn_protocol())
    return s


def open_fds():
    return len(os.listdir("/proc/%d/fd" % pid))


def frame(kind, flags, stream, payload):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def read_frames(s, until, seconds=10):
    """Reads raw frames until `until(kind, flags, stream, payload)` is true or the peer closes;
    returns the frames seen."""
    buffer, seen, deadline = b"", [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        while len(buffer) >= 9:
            length = int.from_bytes(buffer[:3], "big")
            if len(buffer) < 9 + length:
                break
            kind, flags = buffer[3], buffer[4]
            stream = int.from_bytes(buffer[5:9], "big") & 0x7FFFFFFF
            payload = buffer[9:9 + length]
            buffer = buffer[9 + length:]
            seen.append((kind, flags, stream, payload))
            if until(kind, flags, stream, payload):
                return seen
        s.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            data = s.recv(65536)
        except (socket.timeout, ConnectionResetError, ssl.SSLError):
            break
        if not data:
            break
        buffer += data
    return seen


def goaway_code(seen):
    for kind, _, _, payload in seen:
        if kind == 7:
            return int.from_bytes(payload[4:8], "big")
    return None


def raw_session():
    """A connection past the preface and the SETTINGS exchange, for frames written by hand."""
    s = connect()
    s.sendall(PREFACE + frame(4, 0, 0, b""))
    read_frames(s, lambda kind, flags, *_: kind == 4 and not flags & 1)  # the server's SETTINGS
    s.sendall(frame(4, 1, 0, b""))  # ACK
    return s


def headers_block(path, extra=()):
    return hpack.Encoder().encode([(":method", "GET"), (":scheme", "https" if ca else "http"),
                                   (":authority", "127.0.0.1"), (":path", path), *extra])


def fetch_all():
    names = sorted(f for f in os.listdir(root) if f.endswith(".bin"))
    s = connect()
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    conn.update_settings({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 2**31 - 1})
    conn.increment_flow_control_window(2**31 - 1 - 65535)
    bodies, done, status = {}, set(), {}
    streams = {}
    for name in names:
        sid = conn.get_next_available_stream_id()
        streams[sid] = name
        bodies[sid] = bytearray()
        conn.send_headers(sid, [(":method", "GET"), (":scheme", "https" if ca else "http"),
                                (":authority", "127.0.0.1"), (":path", "/" + name)], end_stream=True)
    s.sendall(conn.data_to_send())
    deadline = time.monotonic() + 120
    while len(done) < len(streams) and time.monotonic() < deadline:
        data = s.recv(1 << 20)
        if not data:
            break
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.ResponseReceived):
                status[event.stream_id] = dict(event.headers).get(b":status")
            elif isinstance(event, h2.events.DataReceived):
                bodies[event.stream_id] += event.data
                conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                done.add(event.stream_id)
            elif isinstance(event, (h2.events.StreamReset, h2.events.ConnectionTerminated)):
                fail("fetch: %r" % event)
                deadline = 0
        s.sendall(conn.data_to_send())
    for sid, name in streams.items():
        with open(os.path.join(root, name), "rb") as f:
            expected = f.read()
        if status.get(sid) != b"200":
            fail("%s: status %r" % (name, status.get(sid)))
        elif bytes(bodies[sid]) != expected:
            fail("%s: %d bytes, not the file's %d" % (name, len(bodies[sid]), len(expected)))
    conn.close_connection()
    s.sendall(conn.data_to_send())
    s.close()
    print("ok: python3-h2 fetched %d files side by side" % len(streams))


def expect_goaway(what, payload_frames, code):
    s = raw_session()
    s.sendall(payload_frames)
    seen = read_frames(s, lambda kind, *_: kind == 7)
    got = goaway_code(seen)
    if got != code:
        fail("%s: GOAWAY code %r, not %d" % (what, got, code))
    else:
        print("ok: %s: GOAWAY %d" % (what, code))
    s.close()


def expect_reset(what, payload_frames, stream, code):
    s = raw_session()
    s.sendall(payload_frames)
    seen = read_frames(s, lambda kind, _, sid, *__: (kind == 3 and sid == stream) or kind == 7)
    resets = [int.from_bytes(p[:4], "big") for k, _, sid, p in seen if k == 3 and sid == stream]
    if resets != [code]:
        fail("%s: RST_STREAM %r (GOAWAY %r), not %d" % (what, resets, goaway_code(seen), code))
    else:
        print("ok: %s: RST_STREAM %d" % (what, code))
    s.close()


def flood(max_streams):
    """More streams at once than SETTINGS_MAX_CONCURRENT_STREAMS allows: the one past it is a
    stream error, PROTOCOL_ERROR or REFUSED_STREAM (RFC 9113 §5.1.2), which libnghttp2 makes a
    connection error (§5.4.2 allows it): GOAWAY PROTOCOL_ERROR that leaves the stream
    unprocessed (its id past the GOAWAY's last stream), or RST_STREAM REFUSED_STREAM."""
    s = raw_session()
    frames = b"".join(frame(1, 0x5, 1 + 2 * i, headers_block("/4096.bin"))
                      for i in range(max_streams + 1))
    s.sendall(frames)
    last = 1 + 2 * max_streams
    seen = read_frames(s, lambda kind, _, sid, *__: (kind == 3 and sid == last) or kind == 7)
    resets = [(sid, int.from_bytes(p[:4], "big")) for k, _, sid, p in seen if k == 3]
    goaways = [(int.from_bytes(p[:4], "big") & 0x7FFFFFFF, int.from_bytes(p[4:8], "big"))
               for k, _, _, p in seen if k == 7]
    if resets == [(last, REFUSED_STREAM)] or (
            not resets and len(goaways) == 1 and goaways[0][1] == PROTOCOL_ERROR and goaways[0][0] < last):
        print("ok: stream flood: stream %d of %d refused (%s)" %
              (last, max_streams + 1, "REFUSED_STREAM" if resets else "GOAWAY PROTOCOL_ERROR"))
    else:
        fail("stream flood: resets %r, GOAWAY %r (last stream, code)" % (resets[:4], goaways))
    s.close()


def rapid_reset(count):
    """HEADERS then RST_STREAM(CANCEL), `count` times (CVE-2023-44487): the server either keeps
    serving or calls it off with ENHANCE_YOUR_CALM; never anything else."""
    s = raw_session()
    frames = b"".join(frame(1, 0x5, 1 + 2 * i, headers_block("/1048583.bin")) +
                      frame(3, 0, 1 + 2 * i, struct.pack(">I", CANCEL)) for i in range(count))
    last = 1 + 2 * count
    s.sendall(frames + frame(1, 0x5, last, headers_block("/1.bin")))
    seen = read_frames(s, lambda kind, flags, sid, *_: (sid == last and kind == 0 and flags & 1) or kind == 7, 30)
    code = goaway_code(seen)
    answered = any(k == 0 and sid == last and f & 1 for k, f, sid, _ in seen)
    if code not in (None, ENHANCE_YOUR_CALM) or (code is None and not answered):
        fail("rapid reset: GOAWAY %r, answered after: %s" % (code, answered))
    else:
        print("ok: rapid reset x%d: %s" % (count, "answered after" if answered else "GOAWAY ENHANCE_YOUR_CALM"))
    s.close()


try:
    before = open_fds()
    fetch_all()
    if "--fetch-only" in sys.argv:
        sys.exit(1 if failures else 0)
    # A SETTINGS frame whose length is not a multiple of 6 (RFC 9113 §6.5).
    expect_goaway("SETTINGS of 5 bytes", frame(4, 0, 0, b"\0" * 5), FRAME_SIZE_ERROR)
    # A client opens odd streams only (§5.1.1).
    expect_goaway("HEADERS on an even stream", frame(1, 0x5, 2, headers_block("/1.bin")), PROTOCOL_ERROR)
    # A frame past SETTINGS_MAX_FRAME_SIZE (16K here) (§4.2).
    expect_goaway("a 20000-byte PING", frame(6, 0, 0, b"\0" * 20000), FRAME_SIZE_ERROR)
    # A header block that is not HPACK (an index never defined) (§4.3).
    expect_goaway("HEADERS that are not HPACK", frame(1, 0x5, 1, b"\xff\xff\xff\xff\x0f"), COMPRESSION_ERROR)
    # A request without :path (§8.3.1): that stream alone is reset.
    block = hpack.Encoder().encode([(":method", "GET"), (":scheme", "http"), (":authority", "x")])
    expect_reset("a request without :path", frame(1, 0x5, 1, block), 1, PROTOCOL_ERROR)
    flood(int(os.environ.get("H2_MAX_STREAMS", "128")))
    rapid_reset(500)
    # Every connection of the checks closed: the server holds what it held before.
    deadline = time.monotonic() + 10
    while open_fds() != before and time.monotonic() < deadline:
        time.sleep(0.05)
    if open_fds() != before:
        fail("the server holds %d descriptors, %d before" % (open_fds(), before))
except (OSError, RuntimeError, h2.exceptions.ProtocolError) as error:
    fail("%s: %s" % (type(error).__name__, error))

sys.exit(1 if failures else 0)
