"""The latency of a choice in ``mnrules serve`` with 1, 16 and 64 games played at once:
``python benchmarks/bench_web.py [CLIENTS...] [--seconds S] [--bots KIND]``.

A real server (``mnrules serve`` in a subprocess, its store in a temporary folder); each
client plays its own game as Rome against four bots (heuristic by default), clicking the
last option each time, for ``--seconds``; the table gives p50, p99 and the largest of
each choice's round trip (the bots' answers included, within the request's budget) and
the server's resident memory after the run (a game played out, its client starts
another)."""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

import httpx


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def _client(url: str, seconds: float, bots: str, seed: int, out: list[float]) -> None:
    seats = {"rome": "human", **dict.fromkeys(("greece", "carthage", "egypt", "babylon"),
                                               bots)}
    with httpx.Client(base_url=url, timeout=120) as c:
        def new(seed: int) -> tuple[str, dict[str, str], dict[str, Any]]:
            host = c.post("/api/games", json={"edition": "en", "players": 5, "seed": seed,
                                              "seats": seats}).json()["host"]
            return host, {"x-mnrules-seat": host.rsplit("/", 1)[-1]}, \
                c.get("/api" + host).json()
        host, token, view = new(seed)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if view["over"]:                 # a game played out: the client starts another
                seed += 1000
                host, token, view = new(seed)
            if not view["options"]:          # the bots still at it: poll as the page does
                time.sleep(0.2)
                view = c.get("/api" + host).json()
                continue
            t = time.monotonic()
            r = c.post("/api" + host + "/choose", headers=token,
                       json={"key": len(view["options"]) - 1, "version": view["version"]})
            out.append(time.monotonic() - t)
            view = r.json() if r.status_code == 200 else c.get("/api" + host).json()


def run(clients: int, seconds: float, bots: str) -> tuple[list[float], float]:
    port = _port()
    with tempfile.TemporaryDirectory() as data:
        proc = subprocess.Popen([sys.executable, "-m", "mnrules", "serve", "--port",
                                 str(port), "--data", data], stdout=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    httpx.get(url + "/", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            times: list[float] = []
            threads = [threading.Thread(target=_client, args=(url, seconds, bots, i, times))
                       for i in range(clients)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            return times, _rss_mb(proc.pid)
        finally:
            proc.terminate()
            proc.wait(30)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("clients", nargs="*", type=int, default=[1, 16, 64])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--bots", default="heuristic")
    args = ap.parse_args()
    print(f"cores: {os.cpu_count()}; bots: {args.bots}; {args.seconds:g} s a run")
    print(f"{'games':>6} {'choices':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} "
          f"{'RSS MB':>8}")
    for n in args.clients:
        times, rss = run(n, args.seconds, args.bots)
        if len(times) < 2:
            print(f"{n:>6} {len(times):>8}  (too few choices)")
            continue
        q = statistics.quantiles(times, n=100)
        print(f"{n:>6} {len(times):>8} {q[49] * 1000:>8.0f} {q[98] * 1000:>8.0f} "
              f"{max(times) * 1000:>8.0f} {rss:>8.0f}")


if __name__ == "__main__":
    main()
