"""The gateway's nginx configuration as the harness renders it: the template's variables
substituted (an unknown one refused), compose's upstream line turned into one loopback
line per replica, and the result accepted by the real nginx (``nginx -t``, no server
started). ``running_gateway`` itself starts nginx in front of real replicas and is
exercised by tests/deploy/test_gateway.py and test_gateway_backpressure.py."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from harness.gateway import (
    TEMPLATE,
    _main_config,
    compose_gateway_environment,
    find_nginx,
    loopback_servers,
    render_template,
)


def test_render_template_substitutes_only_the_given_variables() -> None:
    text = "listen ${LISTEN}; set $host_name $host; ${LISTEN}"
    assert render_template(text, {"LISTEN": "1.2.3.4:80"}) == (
        "listen 1.2.3.4:80; set $host_name $host; 1.2.3.4:80"
    )
    with pytest.raises(KeyError, match=r"uses \$\{OTHER\}, which is not provided"):
        render_template("a ${OTHER} b", {"LISTEN": "x"})


def test_loopback_servers_keep_composes_parameters_without_resolve() -> None:
    compose_line = compose_gateway_environment()["GATEWAY_UPSTREAM_SERVERS"]
    params = compose_line.split(maxsplit=2)[2].rstrip(";").replace("resolve ", "")
    assert loopback_servers([8001, 8002]) == (
        f"server 127.0.0.1:8001 {params}; server 127.0.0.1:8002 {params};"
    )
    assert "resolve" not in loopback_servers([8001])
    assert loopback_servers([]) == ""


def test_main_config_keeps_every_writable_path_in_its_directory(tmp_path: Path) -> None:
    config = _main_config(tmp_path, workers=3)
    assert "worker_processes 3;" in config
    assert "daemon off;" in config
    for directive in ("pid", "error_log", "client_body_temp_path", "proxy_temp_path", "include"):
        (line,) = [x.strip() for x in config.splitlines() if x.strip().startswith(directive + " ")]
        assert line.split()[1].startswith(f"{tmp_path}/"), line


@pytest.mark.skipif(find_nginx() is None, reason="nginx not installed")
def test_the_rendered_config_is_accepted_by_nginx(tmp_path: Path) -> None:
    nginx = find_nginx()
    assert nginx is not None
    variables = {
        "GATEWAY_LISTEN": "127.0.0.1:18080",
        "GATEWAY_UPSTREAM_SERVERS": loopback_servers([18001, 18002]),
        "GATEWAY_MAX_BODY_SIZE": compose_gateway_environment()["GATEWAY_MAX_BODY_SIZE"],
    }
    (tmp_path / "gateway.conf").write_text(render_template(TEMPLATE.read_text(), variables))
    (tmp_path / "nginx.conf").write_text(_main_config(tmp_path, workers=1))
    check = subprocess.run(
        [nginx, "-t", "-e", str(tmp_path / "error.log"), "-p", str(tmp_path),
         "-c", str(tmp_path / "nginx.conf")],
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    assert check.returncode == 0, check.stderr
    assert "syntax is ok" in check.stderr
