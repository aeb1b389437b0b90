"""VerifierClient: batched TinyV-style verdicts and rubric grades from a vLLM server.

Many prompts go in ONE ``/v1/completions`` request (its ``prompt`` field takes a list);
the chat template is applied client-side from a prefix/suffix learned once from the
server (``/tokenize`` with ``messages`` then ``/detokenize``), so the service needs no
tokenizer, and the model's own template is used. Nothing here raises for a bad, slow or
dead server: each item carries an error reason and the caller keeps the rule verdict.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from services.domain import VerdictSource
from services.verifier.breaker import BreakerState
from services.verifier.cache import VerdictCache
from services.verifier.config import VerifierConfig
from services.verifier.parsing import (
    label_probability,
    parse_total_score,
    text_label,
    verdict_after_thinking,
)
from services.verifier.prompts import (
    PLAIN,
    SCORE_PREFIX,
    SCORE_REGEX,
    SENTINEL,
    ChatWrapper,
    rubric_prompt,
    verify_prompt,
)
from services.verifier.transport import CallError, Transport
from services.verifier.types import (
    ErrorKind,
    RubricJudgement,
    RubricRequest,
    VerifierJudgement,
    VerifyRequest,
    error_reason,
)

R = TypeVar("R")
_COMPLETIONS = "/v1/completions"


def _choices(response: Any, expected: int) -> list[dict[str, Any]]:
    """The choices of a list-prompt completion, in prompt order, or CallError."""
    choices = response.get("choices") if isinstance(response, dict) else None
    if not isinstance(choices, list) or len(choices) != expected:
        got = len(choices) if isinstance(choices, list) else "no"
        raise CallError(ErrorKind.BAD_RESPONSE, f"expected {expected} choices, got {got}")
    ordered = sorted(choices, key=lambda choice: int(choice.get("index", 0)))
    if [int(c.get("index", 0)) for c in ordered] != list(range(expected)):
        raise CallError(ErrorKind.BAD_RESPONSE, "choice indexes do not match the prompts")
    return ordered


class VerifierClient:
    def __init__(self, config: VerifierConfig) -> None:
        self.config = config
        self.transport = Transport(config)
        self.cache: VerdictCache[VerifierJudgement] = VerdictCache(config.cache_size)
        self.rubric_cache: VerdictCache[RubricJudgement] = VerdictCache(config.cache_size)
        self._model: str | None = config.model
        self._wrapper: ChatWrapper | None = None if config.chat_format == "server" else PLAIN
        self._label_ids: dict[str, bool] | None = None  # "token_id:N" -> is the true label
        self._setup_lock = asyncio.Lock()

    async def aclose(self) -> None:
        await self.transport.aclose()

    async def __aenter__(self) -> VerifierClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # -- setup: learned from the server once, retried on the next call after a failure ----

    async def _setup(self) -> tuple[str, ChatWrapper]:
        async with self._setup_lock:
            if self._model is None:
                listing = await self.transport.request("GET", "/v1/models")
                try:
                    self._model = str(listing["data"][0]["id"])
                except (KeyError, IndexError, TypeError) as exc:
                    raise CallError(ErrorKind.BAD_RESPONSE, "/v1/models lists no model") from exc
            if self._wrapper is None:
                self._wrapper = await self._learn_chat_wrapper(self._model)
            logprobs = self.config.scoring == "logprob" and not self.config.thinking
            if logprobs and self._label_ids is None:
                self._label_ids = await self._learn_label_ids(self._model)
            return self._model, self._wrapper

    async def _learn_chat_wrapper(self, model: str) -> ChatWrapper:
        body = {
            "model": model,
            "messages": [{"role": "user", "content": SENTINEL}],
            "add_generation_prompt": True,
            "add_special_tokens": False,
        }
        tokens = (await self.transport.request("POST", "/tokenize", body)).get("tokens")
        rendered = await self.transport.request(
            "POST", "/detokenize", {"model": model, "tokens": tokens}
        )
        try:
            return ChatWrapper.from_rendered(str(rendered["prompt"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise CallError(ErrorKind.BAD_RESPONSE, f"cannot learn chat format: {exc}") from exc

    async def _learn_label_ids(self, model: str) -> dict[str, bool]:
        """Token ids of each single-token spelling of the labels ("True", " True", "true"...)."""
        ids: dict[str, bool] = {}
        for label, is_true in ((self.config.true_label, True), (self.config.false_label, False)):
            for variant in {label, " " + label, label.lower(), " " + label.lower()}:
                body = {"model": model, "prompt": variant, "add_special_tokens": False}
                tokens = (await self.transport.request("POST", "/tokenize", body)).get("tokens")
                if isinstance(tokens, list) and len(tokens) == 1:
                    ids[f"token_id:{tokens[0]}"] = is_true
        if not any(ids.values()) or all(ids.values()):
            raise CallError(ErrorKind.BAD_RESPONSE, "a label is not a single token for this model")
        return ids

    # -- batching ------------------------------------------------------------------------

    async def _batched(
        self,
        prompts: list[str],
        run: Callable[[list[str]], Awaitable[list[R]]],
        on_error: Callable[[str], R],
    ) -> list[R]:
        """Split ``prompts`` into chunks of max_batch, run them concurrently, keep order."""
        size = self.config.max_batch
        chunks = [prompts[i : i + size] for i in range(0, len(prompts), size)]

        async def one(chunk: list[str]) -> list[R]:
            try:
                return await run(chunk)
            except CallError as exc:
                return [on_error(exc.reason)] * len(chunk)
            except Exception as exc:  # never let a surprise escape into the reward path
                reason = error_reason(ErrorKind.BAD_RESPONSE, f"{type(exc).__name__}: {exc}")
                return [on_error(reason)] * len(chunk)

        results = await asyncio.gather(*(one(chunk) for chunk in chunks))
        return [item for chunk in results for item in chunk]

    # -- verdicts ------------------------------------------------------------------------

    async def judge(
        self, items: Sequence[VerifyRequest], source: VerdictSource = VerdictSource.TINYV
    ) -> list[VerifierJudgement]:
        """P(answer is correct) for each item, in order; errors are per item, never raised.

        ``source`` tinyv: a True/False verdict (probability, text, or after thinking);
        rubric: a graded critique, whose X/10 (clamped into [0, 1]) is the probability.
        """
        keys = [(source, item.question, item.reference, item.answer) for item in items]

        async def fresh(missed: list[tuple[str, ...]]) -> list[VerifierJudgement]:
            requests = [VerifyRequest(*key[1:]) for key in missed]
            return await self._judge_uncached(requests, source)

        return await self.cache.through(keys, fresh, _missing())

    async def _judge_uncached(
        self, items: list[VerifyRequest], source: VerdictSource
    ) -> list[VerifierJudgement]:
        try:
            model, wrapper = await self._setup()
        except CallError as exc:
            return [VerifierJudgement(None, error=exc.reason)] * len(items)
        prompts = [wrapper.wrap(verify_prompt(self.config, item, source)) for item in items]
        if source == VerdictSource.RUBRIC:
            run = self._rubric_verdict_chunk
        elif self.config.thinking:
            run = self._thinking_chunk
        else:
            run = self._text_chunk if self.config.scoring == "text" else self._logprob_chunk

        async def chunk(batch: list[str]) -> list[VerifierJudgement]:
            return await run(model, batch)

        return await self._batched(prompts, chunk, lambda e: VerifierJudgement(None, error=e))

    async def _logprob_chunk(self, model: str, prompts: list[str]) -> list[VerifierJudgement]:
        label_ids = self._label_ids or {}
        body = {
            "model": model,
            "prompt": prompts,
            "max_tokens": 1,
            "temperature": 0.0,
            "logprobs": 1,
            # vLLM >= 0.20: exact logprobs of these ids, not just whatever is in the top-k.
            "logprob_token_ids": sorted(int(key.split(":")[1]) for key in label_ids),
            "return_tokens_as_token_ids": True,
            "add_special_tokens": False,  # the chat prefix already holds any BOS
        }
        response = await self.transport.request("POST", _COMPLETIONS, body)
        out = []
        for choice in _choices(response, len(prompts)):
            logprobs = choice.get("logprobs") or {}
            tops = logprobs.get("top_logprobs") or [None]
            top = tops[0] if isinstance(tops[0], dict) else None
            if top is None:
                reason = error_reason(ErrorKind.BAD_RESPONSE, "no logprobs in the response")
                out.append(VerifierJudgement(None, error=reason))
                continue
            found = label_probability(
                top, self.config.true_label, self.config.false_label, token_labels=label_ids
            )
            out.append(
                VerifierJudgement(
                    found.probability,
                    label_mass=found.label_mass,
                    decided_by="logprob",
                    raw=str(choice.get("text", "")),
                    error=None
                    if found.probability is not None
                    else error_reason(ErrorKind.BAD_RESPONSE, "no label token has probability"),
                )
            )
        return out

    async def _text_chunk(self, model: str, prompts: list[str]) -> list[VerifierJudgement]:
        labels = [self.config.true_label, self.config.false_label]
        body = {
            "model": model,
            "prompt": prompts,
            "max_tokens": 8,
            "temperature": 0.0,
            # Not guided_choice: vLLM >= 0.12 ignores guided_* fields (200, unconstrained).
            "structured_outputs": {"choice": labels},
            "add_special_tokens": False,
        }
        response = await self.transport.request("POST", _COMPLETIONS, body)
        out = []
        for choice in _choices(response, len(prompts)):
            text = str(choice.get("text", ""))
            label = text_label(text, *labels) if text.strip() in labels else None
            finish = choice.get("finish_reason")
            if label is None or finish != "stop":
                detail = f"answer {text[:40]!r} (finish_reason={finish}) is not a label"
                out.append(VerifierJudgement(None, raw=text, error=error_reason(
                    ErrorKind.BAD_RESPONSE, detail)))  # fmt: skip
                continue
            out.append(VerifierJudgement(1.0 if label else 0.0, decided_by="text", raw=text))
        return out

    async def _thinking_chunk(self, model: str, prompts: list[str]) -> list[VerifierJudgement]:
        body = {
            "model": model,
            "prompt": prompts,
            "max_tokens": self.config.thinking_max_tokens,
            "temperature": 0.0,
            "add_special_tokens": False,
        }
        response = await self.transport.request("POST", _COMPLETIONS, body)
        out = []
        for choice in _choices(response, len(prompts)):
            text = str(choice.get("text", ""))
            label, answer = verdict_after_thinking(
                text, self.config.true_label, self.config.false_label
            )
            if label is None:
                detail = f"no verdict after thinking (ends with {text[-60:]!r})"
                reason = error_reason(ErrorKind.BAD_RESPONSE, detail)
                out.append(VerifierJudgement(None, raw=text[-200:], error=reason))
                continue
            out.append(VerifierJudgement(float(label), decided_by="thinking", raw=answer[:200]))
        return out

    async def _rubric_verdict_chunk(
        self, model: str, prompts: list[str]
    ) -> list[VerifierJudgement]:
        out = []
        for grade in await self._rubric_chunk(model, prompts):
            out.append(
                VerifierJudgement(
                    grade.score, decided_by="rubric", raw=grade.critique[-600:], error=grade.error
                )
            )
        return out

    # -- rubric grades -------------------------------------------------------------------

    async def grade_rubric(self, items: Sequence[RubricRequest]) -> list[RubricJudgement]:
        """A critique ending in "Total Score: X/10" per item; score = X/10 clamped into [0, 1]."""
        keys = [(item.question, item.response, item.rubric) for item in items]

        async def fresh(missed: list[tuple[str, ...]]) -> list[RubricJudgement]:
            return await self._grade_uncached([RubricRequest(*key) for key in missed])

        return await self.rubric_cache.through(
            keys, fresh, RubricJudgement(None, error=_missing().error)
        )

    async def _grade_uncached(self, items: list[RubricRequest]) -> list[RubricJudgement]:
        try:
            model, wrapper = await self._setup()
        except CallError as exc:
            return [RubricJudgement(None, error=exc.reason)] * len(items)
        prompts = [wrapper.wrap(rubric_prompt(self.config, item)) for item in items]

        async def chunk(batch: list[str]) -> list[RubricJudgement]:
            return await self._rubric_chunk(model, batch)

        return await self._batched(prompts, chunk, lambda e: RubricJudgement(None, error=e))

    async def _rubric_chunk(self, model: str, prompts: list[str]) -> list[RubricJudgement]:
        # Step 1: a free critique, stopped before it writes a score itself.
        thinking = self.config.thinking_max_tokens if self.config.thinking else 0
        critique_body = {
            "model": model,
            "prompt": prompts,
            "max_tokens": self.config.rubric_max_tokens + thinking,
            "temperature": 0.0,
            "stop": ["Total Score", "Total score", "total score", "TOTAL SCORE"],
            "add_special_tokens": False,
        }
        critiques = [
            str(c.get("text", "")).rstrip()
            for c in _choices(
                await self.transport.request("POST", _COMPLETIONS, critique_body), len(prompts)
            )
        ]
        # Step 2: the score, forced into "N/10" by a regex-structured output.
        score_body = {
            "model": model,
            "prompt": [p + c + SCORE_PREFIX for p, c in zip(prompts, critiques, strict=True)],
            "max_tokens": 8,
            "temperature": 0.0,
            "structured_outputs": {"regex": SCORE_REGEX},
            "add_special_tokens": False,
        }
        scores = _choices(
            await self.transport.request("POST", _COMPLETIONS, score_body), len(prompts)
        )
        out = []
        for critique, choice in zip(critiques, scores, strict=True):
            text = f"{critique}{SCORE_PREFIX}{choice.get('text', '')}".strip()
            score, why = parse_total_score(text)
            error = None if score is not None else error_reason(ErrorKind.BAD_RESPONSE, str(why))
            out.append(RubricJudgement(score, critique=text, error=error))
        return out

    # -- readiness -----------------------------------------------------------------------

    async def health(self) -> tuple[bool, str]:
        """(any endpoint serves the model, one line per endpoint) for the service's /ready."""
        lines, ok_any = [], False
        for endpoint in self.transport.endpoints:
            ok, detail = await self._endpoint_health(endpoint)
            ok_any = ok_any or ok
            if endpoint.breaker.state is not BreakerState.CLOSED:
                detail += f" [breaker {endpoint.breaker.state.value}]"
            lines.append(f"{endpoint.url}: {detail}")
        return ok_any, "; ".join(lines)

    async def _endpoint_health(self, endpoint: Any) -> tuple[bool, str]:
        try:
            alive = await self.transport.probe(endpoint, "/health")
            if alive.status_code != 200:
                return False, f"/health returned HTTP {alive.status_code}"
            listing = await self.transport.probe(endpoint, "/v1/models")
        except Exception as exc:  # health must report, never raise
            return False, f"unreachable ({type(exc).__name__})"
        if listing.status_code in (401, 403):
            return False, f"HTTP {listing.status_code} on /v1/models (check the API key)"
        if listing.status_code != 200:
            return False, f"/v1/models returned HTTP {listing.status_code}"
        try:
            served = [str(m["id"]) for m in listing.json()["data"]]
        except (ValueError, KeyError, TypeError):
            return False, "/v1/models returned an unexpected body"
        if self.config.model and self.config.model not in served:
            return False, f"model {self.config.model!r} not served (serves {served})"
        return True, f"ok (serves {', '.join(served)})"


def _missing() -> VerifierJudgement:
    reason = error_reason(ErrorKind.BAD_RESPONSE, "internal: item got no judgement")
    return VerifierJudgement(None, error=reason)
