"""What a part that needs the LLM verifier says when no verifier URL is configured."""

NOT_CONFIGURED = "no LLM verifier is configured (set VERIFIER_LLM_URL)"
