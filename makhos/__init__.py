"""makhos-cam: a camera watches a Thai checkers (หมากฮอส) board; the game is read, refereed,
recorded and broadcast.

The installed product is this one namespace. Its packages live in the repository's
top-level folders (``engine/``, ``vision/``, ``server/`` ...), mapped here by
``[tool.setuptools.package-dir]`` in ``pyproject.toml``; the lab (``lab/``, ``bench/``)
imports them from here and is never imported by them.
"""
