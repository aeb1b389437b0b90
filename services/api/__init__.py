"""The HTTP layer: thin routers that translate requests into calls on the backends.

``score`` holds the batch routes, ``compat`` the routes other frameworks call (``/grade``,
OpenRLHF's ``/get_reward``), ``ops`` liveness, readiness and metrics.
"""

from fastapi import FastAPI

from services.api import compat, ops, score


def attach_routers(app: FastAPI) -> None:
    """Every route of the service, in the order the OpenAPI spec lists them."""
    for module in (score, compat, ops):
        app.include_router(module.router)
