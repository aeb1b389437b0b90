"""The HTTP contract, exercised against the real service over loopback."""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from harness.service import running_service
from tests.conftest import API_KEY, SMALL_BATCH_LIMIT, SMALL_BODY_LIMIT


def _math(completion: str, reference: Any, **extra: Any) -> dict[str, Any]:
    return {"task": "math", "completion": completion, "reference": reference, **extra}


def test_health_needs_no_key_and_reports_version(strict_service_url: str) -> None:
    response = httpx.get(f"{strict_service_url}/health")
    assert response.status_code == 200
    assert response.json()["status"] == "ok"
    assert response.json()["version"]


def test_ready_lists_backends(client: httpx.Client) -> None:
    body = client.get("/ready").json()
    assert body["ready"] is True
    assert body["backends"]["math"]["ok"] is True
    assert body["backends"]["llm_verifier"]["ok"] is False
    assert "VERIFIER_LLM_URL" in body["backends"]["llm_verifier"]["detail"]


def test_openapi_documents_the_batch_contract(client: httpx.Client) -> None:
    spec = client.get("/openapi.json").json()
    for path in ("/score", "/score/math", "/grade", "/health", "/ready", "/metrics"):
        assert path in spec["paths"]
    schemas = spec["components"]["schemas"]
    assert {"ScoreRequest", "MathItem", "CodeItem", "RubricItem", "RewardOptions"} <= set(schemas)
    body_ref = spec["paths"]["/score"]["post"]["requestBody"]["content"]["application/json"]
    assert body_ref["schema"]["$ref"].endswith("/ScoreRequest")
    assert client.get("/docs").status_code == 200


def test_batch_results_are_in_order_with_ids_and_statuses(client: httpx.Client) -> None:
    items = [
        _math("so the answer is \\boxed{\\frac{1}{2}}", "0.5", id="half"),
        _math("The answer is 7.", "8", id=2),
        _math("I am not sure what to do here at all, sorry.", "3", id="none"),
        {"task": "math", "id": "bad", "completion": "\\boxed{1}"},  # no reference
        {
            "task": "code",
            "id": "code",
            "completion": "x",
            "language": "python",
            "tests": [{"code": "assert True"}],
        },
        {"task": "nonsense", "id": "what"},
        "not even an object",
    ]
    response = client.post("/score", json={"items": items})
    assert response.status_code == 200
    results = response.json()["results"]
    assert [r["index"] for r in results] == list(range(len(items)))
    assert [r["id"] for r in results] == ["half", 2, "none", "bad", "code", "what", None]
    half, seven, none, bad, code, nonsense, garbage = results
    assert (half["status"], half["reward"], half["extracted"]) == ("ok", 1.0, "\\frac{1}{2}")
    assert (seven["status"], seven["reward"], seven["extracted"]) == ("ok", -1.0, "7")
    assert (none["status"], none["reward"], none["components"]["no_answer"]) == ("ok", -0.5, 1.0)
    assert bad["status"] == "error" and "reference" in bad["detail"] and bad["reward"] is None
    assert code["status"] in ("unavailable", "ok", "error")
    assert nonsense["status"] == "error" and "task" in nonsense["detail"]
    assert garbage["status"] == "error"
    summary = response.json()["summary"]
    assert summary["items"] == len(items)
    assert sum(summary["by_status"].values()) == len(items)


def test_a_large_batch_answers_what_small_ones_do(client: httpx.Client) -> None:
    # Above services.api.score.RENDER_ON_THREAD_ABOVE results the response is written off
    # the event loop; each result must be the one a request of that item alone gets.
    kinds = [
        {"task": "math", "completion": "\\boxed{\\frac{1}{2}}", "reference": "0.5"},
        {"task": "math", "completion": "The answer is 7.", "reference": "8"},
        {"task": "math", "completion": "no answer here", "reference": "3"},
        {"task": "math", "completion": "\\boxed{x^2+2x+1}", "reference": "(x+1)^2"},
    ]
    items = [{**kinds[n % len(kinds)], "id": n} for n in range(300)]
    large = client.post("/score", json={"items": items})
    assert large.status_code == 200, large.text
    results = large.json()["results"]
    assert [r["index"] for r in results] == list(range(300))
    assert [r["id"] for r in results] == list(range(300))
    for n, kind in enumerate(kinds):
        alone = client.post("/score", json={"items": [{**kind, "id": n}]}).json()["results"][0]
        assert results[n] | {"index": 0} == alone, (kind, results[n], alone)
        assert all(results[m] | {"id": n, "index": 0} == alone for m in range(n, 300, 4))


def test_reward_values_are_per_request(client: httpx.Client) -> None:
    options = {"correct": 2.0, "wrong": 0.25, "no_answer": -3.0}
    items = [_math("\\boxed{4}", "4"), _math("\\boxed{5}", "4"), _math("", "4")]
    results = client.post("/score/math", json={"items": items, "options": options}).json()
    assert [r["reward"] for r in results["results"]] == [2.0, 0.25, -3.0]


def test_format_and_thinking_components_are_weighted(client: httpx.Client) -> None:
    thought = " ".join(["step"] * 30)
    good = f"<think>{thought}</think>\n<answer>\\boxed{{12}}</answer>"
    short = "<reasoning>quick</reasoning><answer>12</answer>"
    loose = f"Sure! <think>{thought}</think> then <answer>12</answer> done"
    options = {"format_weight": 0.5, "thinking_weight": 0.25, "min_thinking_words": 10}
    items = [_math(c, "12") for c in (good, short, loose)]
    results = client.post("/score/math", json={"items": items, "options": options}).json()
    good_r, short_r, loose_r = results["results"]
    assert good_r["components"]["format"] == 1.0 and good_r["components"]["thinking"] == 0.0
    assert good_r["reward"] == pytest.approx(1.0 + 0.5)
    assert short_r["components"]["format"] == 1.0 and short_r["components"]["thinking"] == -1.0
    assert short_r["reward"] == pytest.approx(1.0 + 0.5 - 0.25)
    assert loose_r["components"]["format"] == 0.5
    assert loose_r["reward"] == pytest.approx(1.0 + 0.25)


def test_grade_returns_verdict_and_extractions(client: httpx.Client) -> None:
    right = client.post("/grade", json={"answer": "2\\sqrt{2}", "reference": "\\sqrt{8}"}).json()
    assert right["correct"] is True and right["status"] == "ok" and right["method"] == "rule"
    assert right["extracted_answer"] == "2\\sqrt{2}"
    wrong = client.post(
        "/grade", json={"answer": "Thus the answer is $x=4$.", "reference": "#### 3"}
    ).json()
    assert wrong["correct"] is False
    assert wrong["extracted_answer"] == "x=4" and wrong["extracted_reference"] == "3"
    empty = client.post("/grade", json={"answer": "I give up on this one.", "reference": "3"})
    assert empty.json()["correct"] is False
    assert "no final answer" in empty.json()["explanation"]


# References that cannot judge an answer, and what the item's detail says of each.
BAD_REFERENCES: list[tuple[Any, str]] = [
    ("", "the reference is empty"),
    ("  \n\t", "the reference is only whitespace"),
    ("4\x00", "the reference holds a control character (U+0000)"),
    ("\x1b[0m4", "the reference holds a control character (U+001B)"),
    ("$$", "the reference holds no answer"),
    ("\\boxed{}", "the reference holds no answer"),
    ("####", "the reference holds no answer"),
    ("???", "the reference holds no answer"),
    (True, "the reference is a boolean (true), not an answer"),
    (None, "the reference is missing (null)"),
    ([4], "reference"),
]


@pytest.mark.parametrize("route", ["/score", "/score/math"])
def test_a_reference_that_cannot_judge_is_an_item_error_never_a_reward(
    client: httpx.Client, route: str
) -> None:
    """Each bad reference is an error of its own item, with the reason; the batch's other
    items are scored as usual. An empty box does not match an empty box."""
    bad = [_math("\\boxed{4}", reference) for reference, _ in BAD_REFERENCES]
    items = [*bad, _math("\\boxed{}", "\\boxed{}"), _math("\\boxed{4}", "4", id="fine")]
    response = client.post(route, json={"items": items})
    assert response.status_code == 200, response.text
    *results, empty_box, fine = response.json()["results"]
    for result, (reference, reason) in zip(results, BAD_REFERENCES, strict=True):
        assert (result["status"], result["reward"]) == ("error", None), reference
        assert reason in result["detail"], (reference, result["detail"])
    assert (empty_box["status"], empty_box["reward"]) == ("error", None)
    assert (fine["status"], fine["reward"], fine["id"]) == ("ok", 1.0, "fine")


def test_numbers_are_references_converted_exactly(client: httpx.Client) -> None:
    big = 123456789012345678901234567890  # past 64 bits: a float would change its digits
    cases = [
        (4, "\\boxed{4}", 1.0),
        (4, "\\boxed{5}", -1.0),
        (0.1, "\\boxed{0.1}", 1.0),
        (0.1, "\\boxed{\\frac{1}{10}}", 1.0),
        (-2.5, "\\boxed{-\\frac{5}{2}}", 1.0),
        (0.1, "\\boxed{0.1000000000000000055511151231257827}", -1.0),  # 0.1's binary value
        (big, f"\\boxed{{{big}}}", 1.0),
        (big, f"\\boxed{{{big + 1}}}", -1.0),
    ]
    for route in ("/score", "/score/math"):
        items = [_math(answer, reference) for reference, answer, _ in cases]
        results = client.post(route, json={"items": items}).json()["results"]
        assert [(r["status"], r["reward"]) for r in results] == [
            ("ok", reward) for _, _, reward in cases
        ], [r["detail"] for r in results]


def test_grade_takes_numbers_and_reports_a_reference_that_cannot_judge(
    client: httpx.Client,
) -> None:
    four = client.post("/grade", json={"answer": "4", "reference": 4}).json()
    assert (four["correct"], four["extracted_reference"]) == (True, "4")
    tenth = client.post("/grade", json={"answer": "1/10", "reference": 0.1}).json()
    assert (tenth["correct"], tenth["extracted_reference"]) == (True, "0.1")
    for reference, reason in BAD_REFERENCES[:8]:
        graded = client.post("/grade", json={"answer": "4", "reference": reference})
        assert graded.status_code == 200, graded.text
        body = graded.json()
        assert (body["status"], body["correct"]) == ("error", None), reference
        assert reason in body["explanation"], (reference, body["explanation"])
    # Not a reference at all: the request is malformed (422, naming the field and why).
    # Python's JSON (the route's) reads NaN; httpx writes none, so the bodies are written here.
    for reference, reason in [("true", "boolean"), ("null", "missing"), ("NaN", "nan")]:
        content = f'{{"answer": "4", "reference": {reference}}}'
        refused = client.post(
            "/grade", content=content, headers={"Content-Type": "application/json"}
        )
        assert refused.status_code == 422, refused.text
        (problem,) = refused.json()["detail"]
        assert problem["loc"][-1] == "reference" and reason in problem["msg"], problem


def test_modes_without_a_verifier_fall_back_to_the_rule_verdict_visibly(
    client: httpx.Client,
) -> None:
    items = [_math("\\boxed{3}", "4")]
    result = client.post("/score", json={"items": items, "options": {"mode": "addon"}}).json()
    only = result["results"][0]
    assert only["status"] == "unavailable"
    assert only["judge"] == "rule" and only["reward"] == -1.0
    assert "verifier" in only["detail"]


def test_metrics_count_requests_items_and_cache_hits(client: httpx.Client) -> None:
    items = [_math(f"\\boxed{{{n}}}", "\\frac{84}{2}") for n in (42, 42, 42, 41)]
    client.post("/score/math", json={"items": items})
    client.post("/score/math", json={"items": items})
    text = client.get("/metrics").text
    assert 'verifier_requests_total{code="200",route="/score/math"}' in text
    assert 'verifier_items_total{status="ok",task="math"}' in text
    hit_line = 'verifier_math_cache_total{result="hit"}'
    hits = [line for line in text.splitlines() if line.startswith(hit_line)]
    assert hits and float(hits[0].split()[-1]) >= 4
    assert "verifier_request_seconds_bucket" in text


def test_ten_thousand_item_batch(client: httpx.Client) -> None:
    items = [_math(f"The answer is \\boxed{{{i % 97}}}", str(i % 89), id=i) for i in range(10_000)]
    started = time.monotonic()
    response = client.post("/score/math", json={"items": items})
    elapsed = time.monotonic() - started
    assert response.status_code == 200
    results = response.json()["results"]
    assert len(results) == 10_000
    assert [r["id"] for r in results] == list(range(10_000))
    for i, result in enumerate(results):
        assert result["status"] == "ok"
        assert result["reward"] == (1.0 if i % 97 == i % 89 else -1.0)
    assert elapsed < 120  # ~1-3 s measured; generous bound


# Every kind of answer that could stall a symbolic engine. Guards refuse most of them at
# once; the rest reach a worker, overrun the deadline and have the worker killed.
_HOSTILE = [
    "2^{2^{2^{2^{2^{5}}}}}+%d",
    "9^{9^{9^{9}}}-%d",
    "%d00000!",
    "(10^{%d+20})!",
    "10^{10^{5}}+%d",
    "1e99999%d",
    "x^{1000000%d}",
    "\\sum_{k=1}^{9999%d} k^{999}",
    "\\prod_{k=1}^{50%d0} (x+k)",
    "((((((((((((((((((((((((((((((%d))))))))))))))))))))))))))))))",
    "1" * 5000 + "%d",
    "%d" + "+x" * 600,
    "x" * 1_000_000 + "%d",
]


@pytest.fixture(scope="module")
def tight_deadline_url() -> Iterator[str]:
    """A service with a 2 s symbolic deadline, so hostile answers are cut off quickly."""
    with running_service({"VERIFIER_MATH_TIMEOUT_S": "2"}) as url:
        yield url


def test_hostile_batch_is_bounded_and_the_service_keeps_serving(tight_deadline_url: str) -> None:
    service_url = tight_deadline_url
    answers = [_HOSTILE[i % len(_HOSTILE)] % i for i in range(200)]
    items = [_math(f"\\boxed{{{a}}}", "1") for a in answers]
    with concurrent.futures.ThreadPoolExecutor(1) as executor:
        started = time.monotonic()
        hostile = executor.submit(
            httpx.post, f"{service_url}/score/math", json={"items": items}, timeout=600
        )
        time.sleep(1.0)
        # While the hostile batch runs, ordinary requests are still answered promptly.
        for _ in range(3):
            probe_started = time.monotonic()
            health = httpx.get(f"{service_url}/health", timeout=30)
            assert health.status_code == 200
            normal = httpx.post(
                f"{service_url}/score/math",
                json={"items": [_math("\\boxed{\\frac{\\sqrt{2}}{2}}", "\\frac{1}{\\sqrt{2}}")]},
                timeout=60,
            )
            assert normal.json()["results"][0]["reward"] == 1.0
            assert time.monotonic() - probe_started < 30
        response = hostile.result()
        elapsed = time.monotonic() - started
    assert response.status_code == 200
    results = response.json()["results"]
    assert len(results) == 200
    # Each is refused, cut off at the deadline, or (a huge factorial that mpmath evaluates
    # in a second) judged for real: none is ever accepted as equal to 1.
    statuses = {r["status"] for r in results}
    assert statuses <= {"timeout", "error", "ok"}, statuses
    assert {r["status"] for r in results if r["status"] != "ok"} == {"timeout", "error"}
    assert all(r["reward"] == -1.0 for r in results if r["status"] == "ok")
    assert all(r["detail"] for r in results)
    assert elapsed < 300  # 16 reach the deadline (2 s each, 2 workers): ~20 s measured


def test_strict_service_rejects_missing_or_wrong_key(strict_service_url: str) -> None:
    body = {"items": [_math("\\boxed{1}", "1")]}
    for route in ("/score", "/score/math"):
        assert httpx.post(f"{strict_service_url}{route}", json=body).status_code == 401
        wrong = httpx.post(
            f"{strict_service_url}{route}", json=body, headers={"Authorization": "Bearer nope"}
        )
        assert wrong.status_code == 401
    grade = {"answer": "1", "reference": "1"}
    assert httpx.post(f"{strict_service_url}/grade", json=grade).status_code == 401
    good = httpx.post(
        f"{strict_service_url}/score", json=body, headers={"Authorization": f"Bearer {API_KEY}"}
    )
    assert good.status_code == 200 and good.json()["results"][0]["reward"] == 1.0


def test_oversized_body_gets_413(strict_service_url: str) -> None:
    headers = {"Authorization": f"Bearer {API_KEY}"}
    big = {"items": [_math("x" * (SMALL_BODY_LIMIT + 10), "1")]}
    response = httpx.post(f"{strict_service_url}/score", json=big, headers=headers)
    assert response.status_code == 413
    assert str(SMALL_BODY_LIMIT) in response.json()["detail"]

    def chunks() -> Any:  # no Content-Length: the limit must still hold
        yield b'{"items": [{"completion": "'
        for _ in range(50):
            yield b"y" * 10_000
        yield b'", "reference": "1"}]}'

    streamed = httpx.post(
        f"{strict_service_url}/score",
        content=chunks(),
        headers={**headers, "Content-Type": "application/json"},
    )
    assert streamed.status_code == 413


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"options": {}}, "items"),
        ({"items": "nope"}, "items"),
        ({"items": [], "options": {"verifier_weight": 2}}, "verifier_weight"),
        ({"items": [], "options": {"mode": "oracle"}}, "mode"),
        ({"items": [], "unknown": 1}, "unknown"),
        ({"items": [{}] * (SMALL_BATCH_LIMIT + 1)}, "items"),
    ],
)
def test_malformed_requests_get_422_naming_the_field(
    strict_service_url: str, body: dict[str, Any], field: str
) -> None:
    headers = {"Authorization": f"Bearer {API_KEY}"}
    response = httpx.post(f"{strict_service_url}/score", json=body, headers=headers)
    assert response.status_code == 422
    problems = response.json()["detail"]
    assert any(field in [str(p) for p in problem["loc"]] for problem in problems), problems


def test_invalid_json_gets_422(strict_service_url: str) -> None:
    headers = {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"}
    response = httpx.post(f"{strict_service_url}/score", content=b"{not json", headers=headers)
    assert response.status_code == 422
    assert "not valid JSON" in response.json()["detail"][0]["msg"]
    grade = httpx.post(f"{strict_service_url}/grade", json={"answer": 1}, headers=headers)
    assert grade.status_code == 422


def test_openrlhf_get_reward(client: httpx.Client) -> None:
    prompts = ["Q: 1+1? A:", "Q: 2+2? A:", "Q: 3+3? A:"]
    responses = [" it is \\boxed{2}", " \\boxed{5}", " no idea, sorry about that."]
    body = {
        "query": [p + r for p, r in zip(prompts, responses, strict=True)],
        "prompts": prompts,
        "labels": ["2", "4", "6"],
    }
    reply = client.post("/get_reward", json=body)
    assert reply.status_code == 200
    data = reply.json()
    assert data["rewards"] == [1.0, -1.0, -0.5]
    assert data["scores"] == [1.0, 0.0, 0.0]
    assert data["extra_logs"]["error"] == [0.0, 0.0, 0.0]
    assert data["extra_logs"]["no_answer"] == [0.0, 0.0, 1.0]
    mismatched = client.post("/get_reward", json={**body, "labels": ["2"]})
    assert mismatched.status_code == 422 and "same length" in mismatched.text
