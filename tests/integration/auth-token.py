#!/usr/bin/env python3
"""auth-token.py - send one iperf3 parameter exchange with a chosen authtoken
to a server on 127.0.0.1 and print what it answered, for t3004-auth.sh.

  auth-token.py PORT TOKEN_FILE   the token is the file's text (stripped)
  auth-token.py PORT -json VALUE  the token is this JSON value (any type)

Prints "SERVER_ERROR <code>", "CREATE_STREAMS" (the token was accepted;
the test is then abandoned) or "closed"; exits 1 on anything else.
"""
import json
import socket
import struct
import sys

COOKIE = b"authtokenauthtokenauthtokenauthtoken\0"


def main():
    port = int(sys.argv[1])
    if sys.argv[2] == "-json":
        token = json.loads(sys.argv[3])
    else:
        with open(sys.argv[2]) as f:
            token = f.read().strip()
    params = {"tcp": True, "omit": 0, "time": 1, "num": 0, "blockcount": 0,
              "parallel": 1, "len": 131072, "pacing_timer": 1000,
              "client_version": "3.21", "authtoken": token}
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(COOKIE)
    st = s.recv(1)
    if st != b"\x09":
        print("no PARAM_EXCHANGE: %r" % st)
        return 1
    data = json.dumps(params).encode()
    s.sendall(struct.pack(">I", len(data)) + data)
    answer = b""
    try:
        while len(answer) < 5:
            chunk = s.recv(5 - len(answer))
            if not chunk:
                break
            answer += chunk
    except ConnectionResetError:
        pass
    if answer[:1] == b"\xfe" and len(answer) == 5:
        print("SERVER_ERROR %d" % struct.unpack(">i", answer[1:5])[0])
    elif answer[:1] == b"\x0a":
        print("CREATE_STREAMS")
    elif answer == b"":
        print("closed")
    else:
        print("unexpected %r" % answer)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
