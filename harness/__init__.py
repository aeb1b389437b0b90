"""Process harnesses for the tests and the benchmarks (not part of the installed package).

Each starts a real component on loopback and stops it again: the service (``service``), a
CPU vLLM server in its own virtualenv (``vllm``), the nginx gateway with the deployed
configuration (``gateway``); ``compose_files`` reads the compose files the way compose does.
"""
