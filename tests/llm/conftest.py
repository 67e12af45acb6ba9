from fakes.llm_server import fake_llm_server  # noqa: F401  (a pytest fixture)
