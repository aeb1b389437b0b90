"""Periodic evaluation during training: sample k completions per held-out problem, score
them through the same reward service, and report pass@1, pass@k and the mean reward.

The q-code recipe evaluates every 25 steps on 15 problems with 4 samples each;
reasoning-format and tinyv-rubric report a validation reward. Here the ``eval`` section
sets the same: every N steps (and after the last step), the first ``num_problems``
problems of ``eval.path`` (or the rows held out of the training set), ``num_samples`` =
k completions each, sampled with the policy's own ``generate``. The summary goes into the
run's metrics (``eval/*``, so every tracker gets it) and ``eval_results.json``; every
sample, with its reward breakdown, into ``eval_samples.jsonl``.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import torch
from transformers import TrainerCallback, TrainerControl, TrainerState, TrainingArguments

from services.contract.client.http import Item
from services.contract.protocol import ScoreResult, Status
from trainer.config import EvalSection, GenerationSection, RewardSection
from trainer.prompts import message_text, render_prompt
from trainer.remote_reward import build_item, recorded, solved

if TYPE_CHECKING:
    from transformers import PreTrainedTokenizerBase

log = logging.getLogger(__name__)

RESULTS_FILE = "eval_results.json"
SAMPLES_FILE = "eval_samples.jsonl"
# Sequences per generate() call: problems are batched so that about this many are sampled
# together (k per problem).
_SEQUENCES_PER_BATCH = 64


class Policy(Protocol):
    """The part of the policy model evaluation uses (a transformers or peft model)."""

    training: bool

    @property
    def device(self) -> torch.device: ...

    def eval(self) -> Any: ...

    def train(self, mode: bool = True) -> Any: ...

    def generate(self, *args: Any, **kwargs: Any) -> Any: ...


def pass_at_k(samples: int, correct: int, k: int) -> float:
    """The unbiased pass@k estimate from ``samples`` draws with ``correct`` right ones."""
    if samples - correct < k:
        return 1.0
    return 1.0 - math.comb(samples - correct, k) / math.comb(samples, k)


@dataclass(frozen=True)
class Sample:
    problem: int
    completion: str
    result: ScoreResult | None  # None: the row gives nothing to judge


def summarise(samples: list[Sample], k: int) -> dict[str, float | None]:
    """pass@1, pass@k, mean reward, per-component means and status shares of one round.

    A problem counts towards pass@ only when all of its samples were judged (a sample the
    service could not judge, e.g. q code without a q binary, is neither right nor wrong).
    The mean reward is reported only when every sample was scored: a mean over the few
    that were is ``eval/reward_of_scored``, next to the counts of scored and unavailable
    samples, never the round's result.
    """
    by_problem: dict[int, list[float | None]] = defaultdict(list)
    rewards: list[float] = []
    sums: dict[str, float] = defaultdict(float)
    counts: Counter[str] = Counter()
    statuses: Counter[str] = Counter()
    for sample in samples:
        result = sample.result
        if result is None:
            by_problem[sample.problem].append(None)
            statuses["skipped"] += 1
            continue
        statuses[result.status.value] += 1
        ok = result.status is Status.OK
        by_problem[sample.problem].append(solved(result) if ok else None)
        if result.reward is not None:
            rewards.append(result.reward)
        for name, value in result.components.items():
            sums[name] += float(value)
            counts[name] += 1
    judged = [values for values in by_problem.values() if all(v is not None for v in values)]
    pass_1: list[float] = []
    pass_k: list[float] = []
    for values in judged:
        right = sum(1 for v in values if v == 1.0)
        pass_1.append(pass_at_k(len(values), right, 1))
        pass_k.append(pass_at_k(len(values), right, k))
    mean_reward = sum(rewards) / len(rewards) if rewards else None
    all_scored = statuses["ok"] + statuses["timeout"] == len(samples)
    summary: dict[str, float | None] = {
        "eval/pass@1": sum(pass_1) / len(pass_1) if pass_1 else None,
        f"eval/pass@{k}": sum(pass_k) / len(pass_k) if pass_k else None,
        "eval/reward": mean_reward if all_scored else None,
        "eval/reward_of_scored": mean_reward,
        "eval/problems_judged": float(len(judged)),
        "eval/samples": float(len(samples)),
        "eval/samples_scored": float(statuses["ok"] + statuses["timeout"]),
        "eval/samples_unavailable": float(statuses["unavailable"]),
    }
    for name in sorted(sums):
        summary[f"eval/{name}"] = sums[name] / counts[name]
    total = len(samples)
    for status in ("ok", "timeout", "error", "unavailable", "skipped"):
        summary[f"eval/status_{status}"] = statuses[status] / total if total else None
    return summary


def headline(summary: dict[str, float | None], k: int, problems: int) -> str:
    """The round in one line, with how many samples were scored and how many could not be."""
    shown = dict.fromkeys(["eval/pass@1", f"eval/pass@{k}", "eval/reward"])
    values = ", ".join(
        f"{key.removeprefix('eval/')}={'n/a' if summary[key] is None else f'{summary[key]:.4g}'}"
        for key in shown
    )
    samples = int(summary["eval/samples"] or 0)
    scored = int(summary["eval/samples_scored"] or 0)
    unavailable = int(summary["eval/samples_unavailable"] or 0)
    judged = int(summary["eval/problems_judged"] or 0)
    counts = f"{scored} of {samples} samples scored, {unavailable} unavailable"
    counts += f"; {judged} of {problems} problems judged"
    if scored < samples:
        counts += "; the reward is not reported over a part of the round"
    return f"{values} ({counts})"


class Evaluator:
    """Samples, scores and records one evaluation round on a fixed set of problems."""

    def __init__(
        self,
        problems: list[dict[str, Any]],
        section: EvalSection,
        generation: GenerationSection,
        reward: RewardSection,
        score: Callable[[Sequence[Item], dict[str, Any]], list[ScoreResult]],
        output_dir: Path,
    ) -> None:
        if not problems:
            raise ValueError("evaluation needs at least one problem")
        self.problems = problems
        self.section = section
        self.generation = generation
        self.reward = reward
        self.score = score
        self.output_dir = output_dir

    @property
    def k(self) -> int:
        return self.section.num_samples

    def _prompt_text(self, prompt: Any, tokenizer: PreTrainedTokenizerBase) -> str:
        if isinstance(prompt, str):
            return prompt
        return render_prompt(prompt, tokenizer)

    @torch.no_grad()
    def sample(self, model: Policy, tokenizer: PreTrainedTokenizerBase) -> list[list[str]]:
        """k completions for every problem (the model in eval mode, restored afterwards)."""
        was_training = model.training
        model.eval()
        per_batch = max(1, _SEQUENCES_PER_BATCH // self.k)
        completions: list[list[str]] = []
        try:
            for start in range(0, len(self.problems), per_batch):
                batch = self.problems[start : start + per_batch]
                texts = [self._prompt_text(p["prompt"], tokenizer) for p in batch]
                inputs = tokenizer(
                    texts, return_tensors="pt", padding=True, add_special_tokens=False
                ).to(model.device)
                output = model.generate(
                    **inputs,
                    do_sample=True,
                    temperature=self.section.temperature or self.generation.temperature,
                    top_p=self.generation.top_p,
                    max_new_tokens=self.section.max_completion_length
                    or self.generation.max_completion_length,
                    num_return_sequences=self.k,
                    pad_token_id=tokenizer.pad_token_id,
                )
                decoded = tokenizer.batch_decode(
                    output[:, inputs["input_ids"].shape[1] :], skip_special_tokens=True
                )
                for index in range(len(batch)):
                    completions.append(decoded[index * self.k : (index + 1) * self.k])
        finally:
            if was_training:
                model.train()
        return completions

    def judge(self, completions: list[list[str]]) -> list[Sample]:
        """Score every completion in one batched request (rows without a reference skip)."""
        samples: list[Sample] = []
        items: list[Item] = []
        positions: list[int] = []
        for problem, texts in enumerate(completions):
            row = self.problems[problem]
            question = message_text(row["prompt"])
            for text in texts:
                item = build_item(len(samples), question, text, row, self.reward)
                if item is not None:
                    items.append(item)
                    positions.append(len(samples))
                samples.append(Sample(problem, text, None))
        results = self.score(items, self.reward.options()) if items else []
        for position, result in zip(positions, results, strict=True):
            samples[position] = Sample(
                samples[position].problem, samples[position].completion, result
            )
        return samples

    def evaluate(self, completions: list[list[str]], step: int) -> dict[str, float | None]:
        """Score one round's completions, write them down, and return the summary."""
        started = time.perf_counter()
        samples = self.judge(completions)
        summary = summarise(samples, self.k)
        summary["eval/seconds"] = time.perf_counter() - started
        self._record(step, summary, samples)
        log.info("eval at step %d: %s", step, headline(summary, self.k, len(self.problems)))
        return summary

    def _record(self, step: int, summary: dict[str, float | None], samples: list[Sample]) -> None:
        self.output_dir.mkdir(parents=True, exist_ok=True)
        results_path = self.output_dir / RESULTS_FILE
        rounds: list[dict[str, Any]] = []
        if results_path.exists():
            rounds = json.loads(results_path.read_text(encoding="utf-8"))
        rounds.append(
            {
                "step": step,
                "num_problems": len(self.problems),
                "num_samples": self.k,
                **{key.removeprefix("eval/"): value for key, value in summary.items()},
            }
        )
        results_path.write_text(json.dumps(rounds, indent=2) + "\n", encoding="utf-8")
        with (self.output_dir / SAMPLES_FILE).open("a", encoding="utf-8") as handle:
            for sample in samples:
                row = self.problems[sample.problem]
                result = sample.result
                record = {
                    "step": step,
                    "problem": sample.problem,
                    "prompt": message_text(row["prompt"]),
                    "reference": row.get("reference"),
                    "tests": row.get("tests"),
                    "completion": sample.completion,
                    "reward": None if result is None else result.reward,
                    "solved": None if result is None else solved(result),
                    **recorded(result),
                }
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")


class EvalCallback(TrainerCallback):
    """Runs the evaluator every ``every_steps`` steps and after the last step.

    Every process samples (a ZeRO-3 or FSDP model needs all ranks in each forward pass);
    the main process scores, records and logs through ``log`` (the trainer's, so the
    metrics reach metrics.jsonl and the trackers).
    """

    def __init__(
        self,
        evaluator: Evaluator,
        every_steps: int,
        log_metrics: Callable[[dict[str, float]], None],
        close: Callable[[], None] = lambda: None,
    ) -> None:
        self.evaluator = evaluator
        self.every_steps = every_steps
        self.log_metrics = log_metrics
        self.close = close
        self._last_step = -1

    def _evaluate(self, state: TrainerState, control: TrainerControl, **kwargs: Any) -> None:
        model, tokenizer = kwargs["model"], kwargs["processing_class"]
        if state.global_step == self._last_step:
            return
        self._last_step = state.global_step
        completions = self.evaluator.sample(model, tokenizer)
        if not state.is_world_process_zero:
            return
        summary = self.evaluator.evaluate(completions, state.global_step)
        # The trainer's log() treats a model in eval mode as an evaluation, so the train
        # metrics gathered for this step stay for the regular log line; and its on_log
        # clears should_log, which that line still needs.
        was_training, should_log = model.training, control.should_log
        model.eval()
        try:
            self.log_metrics({k: v for k, v in summary.items() if v is not None})
        finally:
            control.should_log = should_log
            if was_training:
                model.train()

    def on_step_end(
        self,
        args: TrainingArguments,
        state: TrainerState,
        control: TrainerControl,
        **kwargs: Any,
    ) -> None:
        if state.global_step % self.every_steps == 0:
            self._evaluate(state, control, **kwargs)

    def on_train_end(
        self,
        args: TrainingArguments,
        state: TrainerState,
        control: TrainerControl,
        **kwargs: Any,
    ) -> None:
        self._evaluate(state, control, **kwargs)


Examples = list[dict[str, Any]]


def select_problems(
    section: EvalSection, train_examples: Examples, load: Callable[[str], Examples]
) -> tuple[Examples, Examples]:
    """(training examples, evaluation problems) for an enabled ``eval`` section.

    With ``eval.path`` the problems are its first ``num_problems`` rows (``load`` reads a
    file as examples); without it they are the last ``num_problems`` training rows, which
    leave the training set.
    """
    if section.path is not None:
        return train_examples, load(section.path)[: section.num_problems]
    if len(train_examples) <= section.num_problems:
        raise ValueError(
            f"eval.num_problems ({section.num_problems}) would hold out all "
            f"{len(train_examples)} training rows; set eval.path or fewer problems"
        )
    return train_examples[: -section.num_problems], train_examples[-section.num_problems :]
