"""The verifier client's own logic, without a server: reading list-prompt completions and
splitting a batch into requests."""

from __future__ import annotations

from typing import Any

import pytest

from services.verifier.client import VerifierClient, _choices
from services.verifier.config import VerifierConfig
from services.verifier.prompts import PLAIN
from services.verifier.transport import CallError
from services.verifier.types import ErrorKind, error_kind

pytestmark = pytest.mark.anyio


def test_choices_come_back_in_prompt_order() -> None:
    response = {"choices": [{"index": 1, "text": "b"}, {"index": 0, "text": "a"}]}
    assert [c["text"] for c in _choices(response, 2)] == ["a", "b"]


@pytest.mark.parametrize(
    "response",
    [
        {"choices": [{"index": 0}]},  # fewer than the prompts
        {"choices": [{"index": 0}, {"index": 0}]},  # an index twice
        {"error": "no choices"},
        ["not", "a", "dict"],
    ],
)
def test_choices_that_do_not_match_the_prompts_are_a_bad_response(response: Any) -> None:
    with pytest.raises(CallError) as caught:
        _choices(response, 2)
    assert caught.value.kind is ErrorKind.BAD_RESPONSE


async def test_a_batch_is_split_by_max_batch_and_keeps_its_order() -> None:
    sizes: list[int] = []

    async def run(chunk: list[str]) -> list[str]:
        sizes.append(len(chunk))
        return [prompt.upper() for prompt in chunk]

    async with VerifierClient(VerifierConfig(url="http://127.0.0.1:1", max_batch=2)) as client:
        out = await client._batched(["a", "b", "c", "d", "e"], run, lambda error: error)
    assert out == ["A", "B", "C", "D", "E"]
    assert sorted(sizes) == [1, 2, 2]


async def test_a_failed_chunk_gives_its_items_the_reason_and_spares_the_others() -> None:
    async def run(chunk: list[str]) -> list[str]:
        if "boom" in chunk:
            raise CallError(ErrorKind.UNAVAILABLE, "server down")
        if "odd" in chunk:
            raise KeyError("surprise")
        return chunk

    config = VerifierConfig(url="http://127.0.0.1:1", max_batch=1)
    async with VerifierClient(config) as client:
        out = await client._batched(["ok", "boom", "odd"], run, lambda error: f"! {error}")
    assert out[0] == "ok"
    assert out[1] == "! unavailable: server down"
    assert out[2].startswith("! bad_response: KeyError")
    assert error_kind(out[2][2:]) is ErrorKind.BAD_RESPONSE


async def test_a_named_model_in_text_scoring_without_chat_format_asks_the_server_nothing() -> None:
    # Model, chat format and label tokens are what setup learns; here all are given.
    config = VerifierConfig(
        url="http://127.0.0.1:1", chat_format="none", model="judge", scoring="text"
    )
    async with VerifierClient(config) as client:
        assert await client._setup() == ("judge", PLAIN)  # nothing asked of the server
        assert client.transport.requests_sent == {}
