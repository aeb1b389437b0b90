"""The warm worker's entry point: it wires the worker's pieces and starts the supervisor.

The worker runs inside bubblewrap, where the repository is not visible, as
``python -I -c <this source> <pieces> <config>``: ``pieces`` is a JSON object of module
name to source text, the files of ``PIECES`` as the host read them (``sandbox/pool.py``),
and ``config`` the ``WorkerConfig``. Each piece is stdlib only and runs as
``sandbox.<name>``, so the pieces import each other as they do on the host, where the
same files are the modules the host imports:

- ``typed_check``: the check of a decoded frame against its TypedDict;
- ``frames``: the frames and their framing;
- ``job_process``: a job's descriptors, rlimits and ``prctl``;
- ``q_license_copy``: q's licence, copied for the job uid;
- ``python_harness``: how a Python job runs its program and then its test;
- ``supervisor``: the worker's set-up and its loop of jobs.
"""

import json
import sys
import types

PACKAGE = "sandbox"
# In import order: each piece imports only pieces before it.
PIECES = (
    "typed_check",
    "frames",
    "job_process",
    "q_license_copy",
    "python_harness",
    "supervisor",
)


def install(sources: dict[str, str]) -> None:
    """Run each piece's source as the module ``sandbox.<name>``, in the order given."""
    package = types.ModuleType(PACKAGE)
    package.__path__ = []
    sys.modules[PACKAGE] = package
    for name, source in sources.items():
        module = types.ModuleType(f"{PACKAGE}.{name}")
        module.__package__ = PACKAGE
        sys.modules[module.__name__] = module
        exec(compile(source, f"<{module.__name__}>", "exec"), module.__dict__)
        setattr(package, name, module)


def main() -> None:
    install(json.loads(sys.argv[1]))
    from sandbox.frames import parse_config
    from sandbox.supervisor import Worker

    worker = Worker(parse_config(json.loads(sys.argv[2])))
    worker.setup()
    worker.serve()


if __name__ == "__main__":
    main()
