"""The bubblewrap command line of a warm worker: what it isolates, binds and passes on."""

from __future__ import annotations

import os

from sandbox.bwrap import QLIC, QLIC_SRC, SANDBOX_PATH, SCRATCH, BwrapPlan, bwrap_argv


def _pairs(argv: list[str], flag: str) -> list[tuple[str, str]]:
    """The two arguments after each occurrence of ``flag``."""
    return [(argv[i + 1], argv[i + 2]) for i, arg in enumerate(argv) if arg == flag]


def _after(argv: list[str], flag: str) -> list[str]:
    return [argv[i + 1] for i, arg in enumerate(argv) if arg == flag]


def test_unprivileged_plan_unshares_everything_and_forbids_new_user_namespaces() -> None:
    argv = bwrap_argv(BwrapPlan("/usr/bin/bwrap"))
    assert argv[0] == "/usr/bin/bwrap"
    for flag in ("--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent"):
        assert flag in argv
    assert _after(argv, "--cap-drop") == ["ALL"]
    assert argv[-3:] == ["--chdir", SCRATCH, "--"]


def test_root_plan_keeps_no_user_namespace_and_only_the_caps_to_drop_uid() -> None:
    argv = bwrap_argv(BwrapPlan("bwrap", as_root=True))
    assert "--unshare-user" not in argv and "--unshare-all" not in argv
    assert "--unshare-net" in argv and "--unshare-pid" in argv
    assert sorted(_after(argv, "--cap-add")) == ["CAP_CHOWN", "CAP_SETGID", "CAP_SETUID"]


def test_the_system_is_read_only_and_scratch_is_a_sized_tmpfs() -> None:
    argv = bwrap_argv(BwrapPlan("bwrap", tmpfs_mb=32))
    assert ("/usr", "/usr") in _pairs(argv, "--ro-bind")
    assert _after(argv, "--remount-ro") == ["/"]
    size = argv.index("--size")
    assert argv[size : size + 4] == ["--size", str(32 * 1024 * 1024), "--tmpfs", SCRATCH]
    # No secrets of the host's /etc: only what the loader needs.
    bound = {src for src, _ in _pairs(argv, "--ro-bind-try")}
    assert "/etc/passwd" not in bound and "/etc/shadow" not in bound
    assert "/etc/ld.so.cache" in bound


def test_extra_paths_are_bound_once_and_parents_made_traversable() -> None:
    venv = "/opt/venvs/py/lib"
    argv = bwrap_argv(BwrapPlan("bwrap", ro_paths=[venv, venv + "/site", "/usr/lib/x"]))
    bound = [src for src, _ in _pairs(argv, "--ro-bind")]
    assert bound.count(venv) == 1
    assert venv + "/site" not in bound  # covered by its parent
    assert "/usr/lib/x" not in bound  # covered by /usr
    chmods = _pairs(argv, "--chmod")
    assert ("0755", "/opt") in chmods and ("0755", "/opt/venvs/py") in chmods


def test_a_licence_is_bound_read_only_beside_a_private_tmpfs() -> None:
    argv = bwrap_argv(BwrapPlan("bwrap", license_dir="/secrets/kx"))
    assert ("/secrets/kx", QLIC_SRC) in _pairs(argv, "--ro-bind")
    assert QLIC in _after(argv, "--tmpfs")
    assert "/secrets/kx" not in _after(argv, "--chmod")


def test_the_environment_is_cleared_and_only_the_plans_is_set() -> None:
    argv = bwrap_argv(BwrapPlan("bwrap", env={"PYTHONHASHSEED": "0"}))
    assert "--clearenv" in argv
    env = dict(_pairs(argv, "--setenv"))
    assert env["PATH"] == SANDBOX_PATH and env["HOME"] == SCRATCH
    assert env["PYTHONHASHSEED"] == "0"
    assert not set(env) & {name for name in os.environ if name.startswith("VERIFIER_")}
