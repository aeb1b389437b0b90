"""The contract between the service and its callers: the wire models (``protocol``), the
HTTP policy (``http_policy``: timeouts, retries) and the client (``client``). It is the one
part of ``services/`` the trainer and other callers import."""
