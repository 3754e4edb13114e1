#!/usr/bin/env python3
"""t5000-hostile.py - hostile iperf3 peers for the t5*.sh tests, loopback only.

  t5000-hostile.py client PORT CASE   misbehave against `nicdoctor serve`
  t5000-hostile.py server PORT CASE   misbehave against `nicdoctor bench`

A client case exits 0 when the server reacted as it should (refused, closed,
or answered busy within the bound) and prints what it saw; a server case
serves one client connection and exits.  Only 127.0.0.1 is ever used.
"""
import json
import os
import socket
import struct
import sys
import time

HOST = "127.0.0.1"
COOKIE = b"hostilehostilehostilehostilehostile1\0"
PARAM_EXCHANGE, CREATE_STREAMS, TEST_START, TEST_RUNNING = 9, 10, 1, 2
TEST_END, EXCHANGE_RESULTS, DISPLAY_RESULTS = 4, 13, 14
SERVER_ERROR, ACCESS_DENIED = 0xFE, 0xFF
# How long the server may take to give up on a silent peer (serve runs
# with --idle-timeout 2 in the tests).
BOUND_SEC = float(os.environ.get("HOSTILE_BOUND_SEC", "6"))


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def connect(port, timeout=BOUND_SEC):
    s = socket.create_connection((HOST, port), timeout=timeout)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def read_until_close(s, limit=1 << 20):
    """Everything the server sends until it closes; fail if it never does."""
    data = b""
    start = time.monotonic()
    s.settimeout(BOUND_SEC)
    try:
        while len(data) < limit:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except socket.timeout:
        fail("server still holds the connection after %.1f s" % BOUND_SEC)
    except ConnectionResetError:
        pass
    return data, time.monotonic() - start


def expect_refusal(port, payload_after_state, what):
    """Cookie, PARAM_EXCHANGE, then payload: SERVER_ERROR or a close.

    A server still tearing down the test it just refused may answer the
    next connection "busy" (0xff), as any iperf3 server does while it holds
    a test: retry that briefly, it is not what this case is about."""
    for attempt in range(10):
        s = connect(port)
        s.sendall(COOKIE)
        st = s.recv(1)
        if st != b"\xff":
            break
        s.close()
        time.sleep(0.2)
    if st != bytes([PARAM_EXCHANGE]):
        fail("%s: wanted PARAM_EXCHANGE, got %r" % (what, st))
    try:
        s.sendall(payload_after_state)
    except (BrokenPipeError, ConnectionResetError):
        pass
    data, sec = read_until_close(s)
    s.close()
    if data[:1] == bytes([SERVER_ERROR]) and len(data) >= 5:
        code = struct.unpack(">i", data[1:5])[0]
        print("%s: SERVER_ERROR %d, closed after %.2f s" % (what, code, sec))
    elif data == b"":
        print("%s: closed after %.2f s" % (what, sec))
    else:
        fail("%s: unexpected answer %r" % (what, data[:32]))


def params(**kw):
    p = {"tcp": True, "omit": 0, "time": 1, "num": 0, "blockcount": 0,
         "parallel": 1, "len": 131072, "pacing_timer": 1000, "client_version": "3.12"}
    p.update(kw)
    return p


def frame(obj=None, raw=None):
    if raw is None:
        raw = json.dumps(obj).encode()
    return struct.pack(">I", len(raw)) + raw


def c_random(port):
    rnd = os.urandom(4096)
    s = connect(port)
    try:
        s.sendall(rnd)
    except (BrokenPipeError, ConnectionResetError):
        pass
    data, sec = read_until_close(s)
    print("random: %d bytes back, closed after %.2f s" % (len(data), sec))


def c_cookie_silence(port):
    s = connect(port)
    s.sendall(COOKIE)
    data, sec = read_until_close(s)
    if data not in (b"", bytes([PARAM_EXCHANGE])):
        fail("cookie-silence: unexpected %r" % data[:16])
    print("cookie-silence: server gave up after %.2f s" % sec)


def c_partial_cookie(port):
    s = connect(port)
    s.sendall(COOKIE[:10])
    data, sec = read_until_close(s)
    print("partial-cookie: closed after %.2f s" % sec)


def c_len0(port):
    expect_refusal(port, struct.pack(">I", 0), "len0")


def c_len8193(port):
    expect_refusal(port, struct.pack(">I", 8193) + b"{" * 8193, "len8193")


def c_lenmax(port):
    expect_refusal(port, struct.pack(">I", 0xFFFFFFFF) + b"{\"a\":" * 1000, "lenmax")


def c_badjson(port):
    expect_refusal(port, frame(raw=b"{\"tcp\":tru"), "bad JSON")


def c_wrong_types(port):
    for i, p in enumerate([params(time="10"), params(parallel=[1]), params(len=None),
                           params(omit={"a": 1}), params(bandwidth=True)]):
        expect_refusal(port, frame(p), "wrong types %d" % i)
    expect_refusal(port, frame(raw=b"[1,2,3]"), "array, not object")
    expect_refusal(port, frame(raw=b"\"tcp\""), "string, not object")


def c_minus1(port):
    big = 18446744073709551615
    for key in ("time", "omit", "parallel", "len", "bandwidth", "window", "MSS"):
        expect_refusal(port, frame(params(**{key: big})), "%s=%d" % (key, big))


def c_parallel(port):
    expect_refusal(port, frame(params(parallel=100000)), "parallel 100000")


def silent_since(s, t0, what):
    """The server must close s (an error first is fine): print how long after t0."""
    s.settimeout(BOUND_SEC)
    got = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
    except socket.timeout:
        fail("%s: server still holds the connection after %.1f s" % (what, BOUND_SEC))
    except ConnectionResetError:
        pass
    sec = time.monotonic() - t0
    if got[:1] == bytes([SERVER_ERROR]) and len(got) >= 5:
        code = struct.unpack(">i", got[1:5])[0]
        print("%s: SERVER_ERROR %d, server gave up after %.2f s" % (what, code, sec))
    else:
        print("%s: server gave up after %.2f s" % (what, sec))


def c_silent_connect(port):
    """Connected, and not a byte of the cookie."""
    s = connect(port)
    silent_since(s, time.monotonic(), "silent-connect")


def start_test(port, **kw):
    """Cookie and parameters; returns the control socket at CREATE_STREAMS."""
    ctrl = connect(port)
    ctrl.sendall(COOKIE)
    if ctrl.recv(1) != bytes([PARAM_EXCHANGE]):
        fail("no PARAM_EXCHANGE")
    ctrl.sendall(frame(params(**kw)))
    if ctrl.recv(1) != bytes([CREATE_STREAMS]):
        fail("no CREATE_STREAMS")
    return ctrl


def open_stream(port):
    data = connect(port)
    data.sendall(COOKIE)
    return data


def running(ctrl, what):
    if recv_exact(ctrl, 2) != bytes([TEST_START, TEST_RUNNING]):
        fail("%s: no TEST_START, TEST_RUNNING" % what)


def c_silent_streams_wait(port):
    """Two streams asked for, one opened, then silence."""
    ctrl = start_test(port, parallel=2, time=86400)
    data = open_stream(port)
    silent_since(ctrl, time.monotonic(), "silent-streams-wait")
    data.close()


def c_silent_stream(port):
    """A day's test, its stream open, and nothing sent on anything."""
    ctrl = start_test(port, time=86400)
    data = open_stream(port)
    running(ctrl, "silent-stream")
    silent_since(ctrl, time.monotonic(), "silent-stream")
    data.close()


def c_silent_mid_test(port):
    """A day's test that sends for a second, then goes silent."""
    ctrl = start_test(port, time=86400)
    data = open_stream(port)
    running(ctrl, "silent-mid-test")
    end = time.monotonic() + 1
    while time.monotonic() < end:
        data.sendall(b"0" * 65536)
    silent_since(ctrl, time.monotonic(), "silent-mid-test")
    data.close()


def c_silent_reverse(port):
    """A day's -R test whose client never reads what the server sends."""
    ctrl = start_test(port, time=86400, reverse=True)
    data = open_stream(port)
    running(ctrl, "silent-reverse")
    silent_since(ctrl, time.monotonic(), "silent-reverse")
    data.close()


def c_wrong_cookie(port):
    """A real test awaiting its data stream gets one with another cookie."""
    ctrl = connect(port)
    ctrl.sendall(COOKIE)
    if ctrl.recv(1) != bytes([PARAM_EXCHANGE]):
        fail("wrong-cookie: no PARAM_EXCHANGE")
    ctrl.sendall(frame(params()))
    if ctrl.recv(1) != bytes([CREATE_STREAMS]):
        fail("wrong-cookie: no CREATE_STREAMS")
    data = connect(port)
    data.sendall(b"X" * 36 + b"\0")
    got, sec = read_until_close(data)
    if got not in (b"", bytes([ACCESS_DENIED])):
        fail("wrong-cookie: data connection got %r" % got[:16])
    print("wrong-cookie: data connection %s after %.2f s" %
          ("answered busy" if got else "closed", sec))
    ctrl.close()


def c_busy(port):
    s = connect(port)
    try:
        s.sendall(COOKIE)
    except (BrokenPipeError, ConnectionResetError):
        pass
    data, sec = read_until_close(s)
    if data[:1] != bytes([ACCESS_DENIED]):
        fail("busy: wanted 0xff, got %r" % data[:16])
    print("busy: answered 0xff")


def c_burst(port):
    socks, refused = [], 0
    for i in range(200):
        try:
            s = socket.socket()
            s.setblocking(False)
            s.connect_ex((HOST, port))
            socks.append(s)
        except OSError:
            refused += 1
    time.sleep(0.3)
    for i, s in enumerate(socks):
        try:
            s.send(COOKIE[: i % 38])
        except OSError:
            pass
    time.sleep(0.5)
    for s in socks:
        s.close()
    print("burst: %d opened, %d refused" % (len(socks), refused))


def serve_one(port, body):
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((HOST, port))
    ls.listen(8)
    ls.settimeout(30)
    print("listening", flush=True)
    ctrl, _ = ls.accept()
    ctrl.settimeout(30)
    try:
        recv_exact(ctrl, 37)
        body(ls, ctrl)
    except (OSError, socket.timeout) as e:
        print("server: %s" % e)
    ctrl.close()
    ls.close()


def recv_exact(s, n):
    data = b""
    while len(data) < n:
        chunk = s.recv(n - len(data))
        if not chunk:
            raise ConnectionResetError("peer closed")
        data += chunk
    return data


def recv_json(s):
    n = struct.unpack(">I", recv_exact(s, 4))[0]
    return json.loads(recv_exact(s, n))


def until_test_end(ls, ctrl):
    """Play a stock server up to the client's TEST_END."""
    ctrl.sendall(bytes([PARAM_EXCHANGE]))
    p = recv_json(ctrl)
    ctrl.sendall(bytes([CREATE_STREAMS]))
    data, _ = ls.accept()
    recv_exact(data, 37)
    ctrl.sendall(bytes([TEST_START, TEST_RUNNING]))
    data.setblocking(False)
    ctrl.settimeout(0.05)
    while True:
        try:
            while data.recv(1 << 20):
                pass
        except (BlockingIOError, OSError):
            pass
        try:
            st = ctrl.recv(1)
        except socket.timeout:
            continue
        if st == bytes([TEST_END]) or not st:
            break
    ctrl.settimeout(30)
    return p, data


def s_garbage_state(ls, ctrl):
    ctrl.sendall(bytes([99]) + os.urandom(64))
    time.sleep(1)


def s_garbage_bytes(ls, ctrl):
    ctrl.sendall(bytes([PARAM_EXCHANGE]))
    recv_json(ctrl)
    ctrl.sendall(bytes([0x80]) + os.urandom(4096))
    time.sleep(1)


def s_silence(ls, ctrl):
    time.sleep(20)


def s_silence_after_end(ls, ctrl):
    until_test_end(ls, ctrl)
    time.sleep(20)


def s_big_results(ls, ctrl):
    _, data = until_test_end(ls, ctrl)
    ctrl.sendall(bytes([EXCHANGE_RESULTS]))
    recv_json(ctrl)
    size = 100 << 20
    ctrl.sendall(struct.pack(">I", size))
    chunk = b"{\"streams\":[" + b" " * (1 << 20)
    sent = 0
    try:
        while sent < size:
            ctrl.sendall(chunk)
            sent += len(chunk)
    except OSError:
        pass
    print("server: sent %d bytes of results before the client stopped" % sent)
    data.close()


def s_escape_output(ls, ctrl, far_end=False):
    """Valid results whose strings hold terminal escapes and bytes that are
    no UTF-8: ESC [ 2J, OSC 52 (clipboard), BEL, CR, the C1 CSI as UTF-8 and
    raw, 0xff; with far_end, a far-end report (as `nicdoctor serve` sends
    to diagnose --peer) made of such strings too."""
    _, data = until_test_end(ls, ctrl)
    ctrl.sendall(bytes([EXCHANGE_RESULTS]))
    theirs = recv_json(ctrl)
    streams = [{"id": st["id"], "bytes": st.get("bytes", 0), "retransmits": 0,
                "jitter": 0, "errors": 0, "packets": 0, "start_time": 0,
                "end_time": st.get("end_time", 1)} for st in theirs.get("streams", [])]
    hostile = "@ESC[2Jwiped\n@ESC]52;c;ZXZpbA==@BEL\nline@CR@C1 31m@RAW@FF\n"
    obj = {"cpu_util_total": 1, "cpu_util_user": 0, "cpu_util_system": 1,
           "sender_has_retransmits": 0, "congestion_used": "cubic@ESC[5m@FF",
           "streams": streams, "server_output_text": hostile,
           "server_output_json": {"title": "@ESC]0;t@BEL@FF"}}
    if far_end:
        finding = {"id": "queues.single", "severity": "warning", "verdict": "untested",
                   "title": "one queue@ESC]52;c;ZXZpbA==@BEL@FF", "ceiling_mbps": None,
                   "evidence": {"driver@ESC[2J": "evil@C1 2J@RAW"}, "fix": None}
        obj["nicdoctor_peer"] = {"schema": "nicdoctor.peer/1", "report": {
            "schema": "nicdoctor.report/1", "interface": {"name": "eth0@ESC[2J"},
            "host": {"name": "far@ESC]0;x@BEL@FF"}, "findings": [finding]}}
    raw = json.dumps(obj).encode()
    for mark, byte in (("@ESC", b"\\u001b"), ("@BEL", b"\\u0007"), ("@CR", b"\\r"),
                       ("@C1", b"\\u009b"), ("@RAW", b"\x9b"), ("@FF", b"\xff")):
        raw = raw.replace(mark.encode(), byte)
    ctrl.sendall(struct.pack(">I", len(raw)) + raw)
    ctrl.sendall(bytes([DISPLAY_RESULTS]))
    try:
        ctrl.recv(1)
    except OSError:
        pass
    data.close()


CLIENT = {"random": c_random, "cookie-silence": c_cookie_silence,
          "partial-cookie": c_partial_cookie, "len0": c_len0, "len8193": c_len8193,
          "lenmax": c_lenmax, "badjson": c_badjson, "wrong-types": c_wrong_types,
          "minus1": c_minus1, "parallel": c_parallel, "wrong-cookie": c_wrong_cookie,
          "busy": c_busy, "burst": c_burst, "silent-connect": c_silent_connect,
          "silent-streams-wait": c_silent_streams_wait, "silent-stream": c_silent_stream,
          "silent-mid-test": c_silent_mid_test, "silent-reverse": c_silent_reverse}
SERVER = {"garbage-state": s_garbage_state, "garbage-bytes": s_garbage_bytes,
          "silence": s_silence, "silence-after-end": s_silence_after_end,
          "big-results": s_big_results, "escape-output": s_escape_output,
          "escape-far-end": lambda ls, ctrl: s_escape_output(ls, ctrl, far_end=True)}


def main():
    role, port, case = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if role == "client":
        CLIENT[case](port)
    else:
        serve_one(port, SERVER[case])


if __name__ == "__main__":
    main()
