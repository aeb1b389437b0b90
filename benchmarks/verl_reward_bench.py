"""Trainer reward stage: a 4,096-sample GRPO step, requests sent and seconds, per trainer.

One step is 512 math prompts x 8 completions, as a GRPO rollout hands them over: a few
sentences of working, then a boxed answer (right in about half, wrong, or none at all), and
half of each group repeating an answer already in it. The service runs on loopback with its
default settings; the ``POST /score`` requests it answered during each step come from its own
``/metrics``, the seconds are the trainer's reward stage as each trainer's own code runs it:

* verl 0.9, its reward loop (``RewardLoopManager.compute_rm_score``: ``reward.num_workers``
  Ray actors on a local CPU cluster, the naive manager), with the adapter file loaded by path
  (``trainer/adapters/verl_reward.py``): ``compute_score``, called per sample in the loop's
  thread pool, one request per sample, against ``compute_score_async``, awaited by the loop,
  which coalesces the calls into batched requests. Run in verl's venv by
  ``benchmarks/verl_reward_step.py``; the arms alternate, a fresh step (new numbers, so no
  verdict comes from the service's cache) each time.
* TRL: ``grpo-train``'s reward function (``trainer/remote_reward.py``) called once with the
  step, as ``GRPOTrainer`` calls it; it splits a call into requests of ``service.max_batch``.
* OpenRLHF 0.11: its ``SingleTurnAgentExecutor.execute`` for each sample, 8 per prompt
  gathered as its vLLM engine actor's ``generate_responses`` does, all prompts at once, with
  ``--reward.remote_url .../get_reward``. Stubbed, because it needs a GPU: the engine, which
  returns the scripted completion's token ids.

Writes ``benchmarks/results/verl_reward_bench.json`` and prints a Markdown table. Medians
over the rounds; on a shared machine, ratios count more than seconds.
Usage: ``python benchmarks/verl_reward_bench.py [--rounds 3] [--workers 8] [--prompts 512]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.service import running_service
from trainer.config import TrainerConfig
from trainer.remote_reward import RemoteReward
from trainer.service_client import AsyncServiceClient, ClientSettings
from trainer.smollm2 import build_tokenizer, gguf_path

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "benchmarks" / "results"
VERL_PYTHON = REPO / ".cache" / "verl" / "bin" / "python"
STEP_DRIVER = REPO / "benchmarks" / "verl_reward_step.py"
ADAPTER = REPO / "trainer" / "adapters" / "verl_reward.py"
GROUP = 8
# The rewards of the service's default math options: right, wrong, no answer.
REWARDS = {"right": 1.0, "wrong": -1.0, "none": -0.5}
ARMS = {"per-sample": "compute_score", "coalesced": "compute_score_async"}


def make_step(prompts: int, seed: int) -> list[dict[str, Any]]:
    """One step's samples: ``question``, ``completion``, ``reference``, ``kind``."""
    rng = random.Random(seed)
    samples = []
    for _ in range(prompts):
        a, b, c = rng.randint(10, 999), rng.randint(10, 999), rng.randint(2, 9)
        answer = (a + b) * c
        question = f"A crate holds {a} apples and another holds {b}. {c} such pairs: how many?"
        distinct = []
        for _ in range(GROUP // 2):
            kind = rng.choices(["right", "wrong", "none"], [0.5, 0.4, 0.1])[0]
            shown = answer if kind == "right" else answer + rng.choice([-c, c, 10, -10, 1])
            working = (
                f"First add the two crates: {a} + {b} = {a + b}. There are {c} such pairs, so "
                f"multiply: {a + b} * {c}. Checking the units, the result counts apples. "
            )
            if kind == "none":  # no number at all: nothing the service could read as one
                text = "I tried to add the crates and multiply, but lost count. I am not sure."
            else:
                text = working + f"So the answer is \\boxed{{{shown}}}."
            distinct.append((text, kind))
        group = distinct + [rng.choice(distinct) for _ in range(GROUP - len(distinct))]
        rng.shuffle(group)
        for completion, kind in group:
            samples.append(
                {
                    "question": question,
                    "completion": completion,
                    "reference": str(answer),
                    "kind": kind,
                }
            )
    return samples


def score_requests(url: str) -> dict[str, float]:
    """Requests to ``/score`` and ``/get_reward`` the service has answered so far, by status
    code (its own /metrics)."""
    text = httpx.get(f"{url}/metrics", timeout=60).text
    counts: dict[str, float] = {}
    for labels, value in re.findall(r"^verifier_requests_total\{([^}]*)\} (\S+)$", text, re.M):
        code = re.search(r'code="(\d+)"', labels)
        if re.search(r'route="/(score|get_reward)"', labels) and code:
            counts[code.group(1)] = counts.get(code.group(1), 0.0) + float(value)
    return counts


def counted(before: dict[str, float], after: dict[str, float]) -> dict[str, Any]:
    by_code = {code: after[code] - before.get(code, 0.0) for code in after}
    by_code = {code: count for code, count in by_code.items() if count}
    return {"requests": sum(by_code.values()), "requests_by_code": by_code}


def expected(step: list[dict[str, Any]]) -> list[float]:
    return [REWARDS[sample["kind"]] for sample in step]


def verl_arms(
    url: str, tokenizer_dir: Path, workers: int, steps: list[tuple[str, list[dict[str, Any]]]]
) -> list[dict[str, Any]]:
    def rows(step: list[dict[str, Any]]) -> list[list[Any]]:
        return [["gsm8k", s["completion"], s["reference"], {"question": s["question"]}]
                for s in step]  # fmt: skip

    spec = {
        "service_url": url,
        "tokenizer": str(tokenizer_dir),
        "adapter": str(ADAPTER),
        "workers": workers,
        "warmup": rows(make_step(2 * workers, seed=-1)),
        "steps": [{"function": ARMS[arm], "rows": rows(step)} for arm, step in steps],
    }
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", TOKENIZERS_PARALLELISM="false")
    done = subprocess.run(
        [str(VERL_PYTHON), str(STEP_DRIVER)],
        input=json.dumps(spec),
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        check=True,
        cwd=REPO,
    )
    results: list[dict[str, Any]] = json.loads(done.stdout.strip().splitlines()[-1])["steps"]
    for (arm, step), result in zip(steps, results, strict=True):
        result["arm"] = arm
        result["right"] = sum(
            abs(got - want) < 1e-6
            for got, want in zip(result.pop("scores"), expected(step), strict=True)
        )
    return results


def trl_arm(url: str, step: list[dict[str, Any]]) -> dict[str, Any]:
    reward = RemoteReward(AsyncServiceClient(ClientSettings(urls=(url,))), TrainerConfig().reward)

    async def call() -> list[float | None]:
        try:
            return await reward(
                prompts=[s["question"] for s in step],
                completions=[s["completion"] for s in step],
                completion_ids=None,
                task=["math"] * len(step),
                reference=[s["reference"] for s in step],
            )
        finally:
            await reward.client.aclose()

    before = score_requests(url)
    started = time.perf_counter()
    rewards = asyncio.run(call())
    seconds = time.perf_counter() - started
    right = sum(got == want for got, want in zip(rewards, expected(step), strict=True))
    return {"arm": "trl", "seconds": seconds, **counted(before, score_requests(url)),
            "right": right}  # fmt: skip


def openrlhf_arm(url: str, tokenizer: Any, step: list[dict[str, Any]]) -> dict[str, Any]:
    # OpenRLHF imports vLLM for types only on this path; its engine is the GPU part.
    stubs = {name: types.ModuleType(name) for name in ("vllm", "vllm.inputs", "vllm.utils")}
    stubs["vllm"].SamplingParams = types.SimpleNamespace  # type: ignore[attr-defined]
    stubs["vllm.inputs"].TokensPrompt = dict  # type: ignore[attr-defined]
    stubs["vllm.utils"].random_uuid = lambda: "0"  # type: ignore[attr-defined]
    for name, module in stubs.items():
        sys.modules.setdefault(name, module)
    from openrlhf.utils.agent import SingleTurnAgentExecutor

    executor = SingleTurnAgentExecutor(f"{url}/get_reward")
    params = types.SimpleNamespace(max_tokens=512, logprobs=None)

    class Engine:
        """Returns the sample's scripted completion, as vLLM would have generated it."""

        def __init__(self, completion: str) -> None:
            ids = tokenizer(completion, add_special_tokens=False)["input_ids"]
            ids += tokenizer.convert_tokens_to_ids(["<|im_end|>"])
            output = types.SimpleNamespace(token_ids=ids, finish_reason="stop", logprobs=None)
            self.result = types.SimpleNamespace(outputs=[output])

        async def generate(self, *_: Any, **__: Any) -> Any:
            return self.result

    def prompt(question: str) -> str:
        chat = [{"role": "user", "content": question}]
        text: str = tokenizer.apply_chat_template(chat, tokenize=False, add_generation_prompt=True)
        return text

    groups = [step[start : start + GROUP] for start in range(0, len(step), GROUP)]
    engines = [[Engine(s["completion"]) for s in group] for group in groups]
    prompts = [prompt(group[0]["question"]) for group in groups]

    async def responses(index: int) -> list[Any]:
        # A vLLM engine actor's generate_responses: the prompt's samples, gathered.
        group = groups[index]
        return list(
            await asyncio.gather(
                *(
                    executor.execute(
                        prompts[index],
                        sample["reference"],
                        params,
                        2048,
                        tokenizer,
                        engines[index][n],
                    )
                    for n, sample in enumerate(group)
                )
            )
        )

    async def every() -> list[Any]:
        return [o for outputs in await asyncio.gather(*map(responses, range(len(groups))))
                for o in outputs]  # fmt: skip

    before = score_requests(url)
    started = time.perf_counter()
    outputs = asyncio.run(every())
    seconds = time.perf_counter() - started
    rewards = [o["reward"][0] if o["reward"] else None for o in outputs]
    right = sum(got == want for got, want in zip(rewards, expected(step), strict=True))
    return {"arm": "openrlhf", "seconds": seconds, **counted(before, score_requests(url)),
            "right": right}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=8, help="verl's reward.num_workers")
    parser.add_argument("--prompts", type=int, default=512, help="prompts per step (x 8)")
    parser.add_argument("--skip", nargs="*", default=[], choices=["verl", "trl", "openrlhf"])
    args = parser.parse_args()
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    work = Path(tempfile.mkdtemp(prefix="verl-reward-bench-"))
    tokenizer = build_tokenizer(gguf_path())  # SmolLM2's own tokenizer
    tokenizer.save_pretrained(work / "tokenizer")
    seeds = iter(range(1000, 2000))
    runs: list[dict[str, Any]] = []
    loads: list[float] = [os.getloadavg()[0]]
    with running_service() as url:
        if "verl" not in args.skip:
            steps = []
            for round_ in range(args.rounds):
                order = ["per-sample", "coalesced"][:: 1 if round_ % 2 == 0 else -1]
                steps += [(arm, make_step(args.prompts, next(seeds))) for arm in order]
            runs += verl_arms(url, work / "tokenizer", args.workers, steps)
            loads.append(os.getloadavg()[0])
        for _ in range(args.rounds):
            if "trl" not in args.skip:
                runs.append(trl_arm(url, make_step(args.prompts, next(seeds))))
            if "openrlhf" not in args.skip:
                runs.append(openrlhf_arm(url, tokenizer, make_step(args.prompts, next(seeds))))
        loads.append(os.getloadavg()[0])

    samples = args.prompts * GROUP
    arms: dict[str, dict[str, Any]] = {}
    for arm in ("per-sample", "coalesced", "trl", "openrlhf"):
        mine = [run for run in runs if run["arm"] == arm]
        if mine:
            arms[arm] = {
                "seconds": statistics.median(run["seconds"] for run in mine),
                "requests": statistics.median(run["requests"] for run in mine),
                "refused_429": statistics.median(
                    run["requests_by_code"].get("429", 0.0) for run in mine
                ),
                "right": min(run["right"] for run in mine),
                "steps": len(mine),
            }
    report: dict[str, Any] = {
        "benchmark": "reward stage of a 4,096-sample GRPO step: requests and seconds by trainer",
        "machine": {
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
        },
        "setup": {
            "samples_per_step": samples,
            "group": GROUP,
            "task": "math, boxed answers, half of each group repeats an answer in it",
            "verl": "0.9.1 RewardLoopManager, naive manager, adapter loaded by path",
            "verl_reward_workers": args.workers,
            "trl_max_batch": ClientSettings(urls=("x",)).max_batch,
            "rounds": args.rounds,
            "statistic": "median over rounds; right = fewest rewards equal to the expected; "
            "requests: all the service answered, 429 (queue full, retried) included",
        },
        "arms": arms,
        "load_average": loads,
        "runs": runs,
    }
    if "per-sample" in arms and "coalesced" in arms:
        pairs = zip(
            [run for run in runs if run["arm"] == "per-sample"],
            [run for run in runs if run["arm"] == "coalesced"],
            strict=True,
        )
        report["coalesced_vs_per_sample"] = {
            "requests": arms["coalesced"]["requests"] / arms["per-sample"]["requests"],
            "speedup": arms["per-sample"]["seconds"] / arms["coalesced"]["seconds"],
            "speedup_by_round": [per["seconds"] / co["seconds"] for per, co in pairs],
        }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "verl_reward_bench.json").write_text(json.dumps(report, indent=2) + "\n")
    names = {
        "per-sample": "verl, `compute_score` (one request per sample)",
        "coalesced": "verl, `compute_score_async` (coalesced)",
        "trl": "TRL, `grpo-train`'s reward function",
        "openrlhf": "OpenRLHF 0.11, `/get_reward`",
    }
    print(f"| trainer path ({samples} samples) | requests (429) | seconds | rewards as expected |")
    print("|---|---|---|---|")
    for arm, row in arms.items():
        print(f"| {names[arm]} | {row['requests']:.0f} ({row['refused_429']:.0f}) | "
              f"{row['seconds']:.2f} | {row['right']}/{samples} |")  # fmt: skip
    print(f"\nload average {', '.join(f'{load:.1f}' for load in loads)} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
