"""q's set-up in the worker: the licence copied to where q jobs read it (``QLIC``).

Stdlib only: shipped to the worker as source (``sandbox/worker_main.py``). The host finds
or decodes the licence (``sandbox/q_license.py``) and names it in the worker's config;
Python workers get no licence.
"""

import os

from .frames import WorkerConfig


def install_license(cfg: WorkerConfig, uid: int | None) -> None:
    """Copy the q licence (readable only by the host's uid) to a tmpfs the job uid owns."""
    src, dst = cfg.get("qlic_src"), cfg.get("qlic")
    if not src or not dst:
        return
    os.makedirs(dst, exist_ok=True)
    for name in os.listdir(src):
        with open(os.path.join(src, name), "rb") as f:
            data = f.read()
        target = os.path.join(dst, name)
        with open(target, "wb") as f:
            f.write(data)
        os.chmod(target, 0o400)
        if os.getuid() == 0 and uid is not None:
            os.chown(target, uid, uid)
    os.chmod(dst, 0o500)
    if os.getuid() == 0 and uid is not None:
        os.chown(dst, uid, uid)


def license_env(cfg: WorkerConfig, env: dict[str, str]) -> None:
    """A job's ``QLIC``, where the worker holds a licence copy and the job sets none."""
    if cfg.get("qlic"):
        env.setdefault("QLIC", cfg["qlic"])
