#!/usr/bin/env python3
"""The peer the harness benchmark compares against: a single-threaded asyncio + aiohttp streaming
client, reading SSE the way vLLM's, SGLang's and EvalScope's benchmark clients do (iterate the
response's lines, strip "data: ", stamp, json.loads every event, keep the text and the stamps).

Runs a closed loop of C streams for a fixed time and prints one JSON line, like
bench/harness-client.js: requests and events in the measured window, CPU and wall seconds over it,
errors, and (when the mock stamps its events) client stamp minus server send stamp per event.
Stamps are time.monotonic_ns() (CLOCK_MONOTONIC, the clock the mock stamps with).

    python3 bench/peers/aiohttp_client.py '{"url": "http://127.0.0.1:8000", "concurrency": 1024,
                                            "warmupS": 1, "durationS": 4, "osl": 64}'
Only Debian's python3-aiohttp is needed; exits 3 with a JSON error line when it is missing.
"""
import asyncio
import json
import resource
import sys
import time

try:
    import aiohttp
except ImportError:
    print(json.dumps({"error": "python3-aiohttp is not installed"}))
    sys.exit(3)

STAMP = b'"sb_send_ns":"'


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


async def main(cfg):
    url = cfg["url"].rstrip("/") + "/v1/chat/completions"
    concurrency = cfg["concurrency"]
    payload = {
        "model": "mock-model",
        "messages": [{"role": "user", "content": "Tell me a story."}],
        "max_tokens": cfg.get("osl", 64),
        "stream": True,
    }
    state = {"measuring": False, "stop": False, "requests": 0, "events": 0, "errors": 0, "first_error": None}
    fidelity = []

    async def one(session):
        events = []  # (stamp, data) as the reference clients keep them
        text = ""
        async with session.post(url, json=payload) as resp:
            if resp.status != 200:
                raise RuntimeError(f"HTTP {resp.status}")
            async for chunk_bytes in resp.content:
                chunk_bytes = chunk_bytes.strip()
                if not chunk_bytes:
                    continue
                chunk = chunk_bytes.decode("utf-8").removeprefix("data: ")
                if chunk == "[DONE]":
                    continue
                stamp = time.monotonic_ns()
                data = json.loads(chunk)
                choices = data.get("choices")
                if choices:
                    text += choices[0].get("delta", {}).get("content") or ""
                events.append((stamp, data))
        return events

    async def worker(session):
        while not state["stop"]:
            try:
                events = await one(session)
            except Exception as err:  # noqa: BLE001 - every failure is one error record
                if state["measuring"]:
                    state["errors"] += 1
                    state["first_error"] = state["first_error"] or repr(err)
                continue
            if not state["measuring"]:
                continue
            state["requests"] += 1
            state["events"] += len(events) + 1  # + [DONE], as the other clients count it
            for stamp, data in events:
                sent = data.get("sb_send_ns")
                if sent is not None:
                    fidelity.append(stamp - int(sent))

    connector = aiohttp.TCPConnector(limit=concurrency, limit_per_host=concurrency)
    timeout = aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        tasks = [asyncio.create_task(worker(session)) for _ in range(concurrency)]
        await asyncio.sleep(cfg.get("warmupS", 1))
        state["measuring"] = True
        cpu0, t0 = cpu_seconds(), time.monotonic_ns()
        await asyncio.sleep(cfg.get("durationS", 4))
        cpu, wall = cpu_seconds() - cpu0, (time.monotonic_ns() - t0) / 1e9
        state["measuring"] = False
        state["stop"] = True
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    fidelity.sort()
    n = len(fidelity)

    def q(p):
        return fidelity[min(n - 1, max(0, -(-int(p * n * 1000) // 1000) - 1))] / 1e6

    print(json.dumps({
        "transport": "aiohttp",
        "concurrency": concurrency,
        "requests": state["requests"],
        "events": state["events"],
        "errors": state["errors"],
        "first_error": state["first_error"],
        "wall_s": wall,
        "cpu_s": cpu,
        "fidelity_ms": {"count": n, "p50": q(0.5), "p99": q(0.99), "max": fidelity[-1] / 1e6, "min": fidelity[0] / 1e6} if n else None,
        "python": sys.version.split()[0],
        "aiohttp": aiohttp.__version__,
    }))


if __name__ == "__main__":
    asyncio.run(main(json.loads(sys.argv[1] if len(sys.argv) > 1 else "{}")))
