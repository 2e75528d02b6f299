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
With "requestCount": N (the end-to-end bench, bench/e2e.js), it runs exactly N requests instead, all
measured, and also reports TTFT p50 and ITL p50 per request ((last - first event) / (osl - 1)) from
its own stamps and from the server's.

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
    state = {"measuring": False, "stop": False, "requests": 0, "events": 0, "errors": 0, "first_error": None, "issued": 0}
    fidelity = []
    count_mode = cfg.get("requestCount") is not None
    total = cfg.get("requestCount") or 0
    osl = cfg.get("osl", 64)
    ttft, itl_c, itl_s = [], [], []

    async def one(session):
        events = []  # (stamp, data) as the reference clients keep them
        text = ""
        sent_ns = time.monotonic_ns()
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
        if count_mode and events:
            ttft.append(events[0][0] - sent_ns)
            stamped = [(c, int(d["sb_send_ns"])) for c, d in events if "sb_send_ns" in d]
            if osl > 1 and len(stamped) > 1:
                itl_c.append((stamped[-1][0] - stamped[0][0]) / (osl - 1))
                itl_s.append((stamped[-1][1] - stamped[0][1]) / (osl - 1))
        return events

    async def worker(session):
        while not state["stop"]:
            if count_mode:
                if state["issued"] >= total:
                    return
                state["issued"] += 1
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
        if count_mode:
            state["measuring"] = True
            cpu0, t0 = cpu_seconds(), time.monotonic_ns()
            await asyncio.gather(*[worker(session) for _ in range(min(concurrency, total))])
            cpu, wall = cpu_seconds() - cpu0, (time.monotonic_ns() - t0) / 1e9
            return report(state, fidelity, concurrency, wall, cpu, ttft, itl_c, itl_s)
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

    report(state, fidelity, concurrency, wall, cpu)


def report(state, fidelity, concurrency, wall, cpu, ttft=None, itl_c=None, itl_s=None):
    fidelity.sort()
    n = len(fidelity)

    def q(p):
        return fidelity[min(n - 1, max(0, -(-int(p * n * 1000) // 1000) - 1))] / 1e6

    def p50_ms(xs):
        return sorted(xs)[len(xs) // 2] / 1e6 if xs else None

    extra = {"ttft_ms_p50": p50_ms(ttft), "itl_ms_p50": p50_ms(itl_c), "server_itl_ms_p50": p50_ms(itl_s)} if ttft is not None else {}
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
        **extra,
    }))


if __name__ == "__main__":
    asyncio.run(main(json.loads(sys.argv[1] if len(sys.argv) > 1 else "{}")))
