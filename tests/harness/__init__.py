"""What tests and benchmarks start and build: real services on free loopback ports (PostgreSQL,
Azurite, the OpenID provider, a Dask cluster), trajectory folders of every generation and layout,
HAR files, the hostile corpus, traces recorded by Playwright, verifier score files.

An importable package (the checkout is on the virtualenv's path): benchmarks import it as
`tests.harness.<module>`, never through sys.path edits.
"""
