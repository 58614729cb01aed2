"""The one place the version is written: pyproject.toml reads it, the
package offers it as ``rulelang.__version__``, and the cache key includes
it (a module of its own, so the cache reads it without importing the
package that imports the cache).  Bump it with every change of behaviour,
and say what in CHANGELOG.md."""

__version__ = "0.2.0"
