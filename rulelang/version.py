"""The one place the version is written: pyproject.toml reads it, and the
package offers it as ``rulelang.__version__`` (a module of its own, so
the build reads it without importing the package).  Bump it with every
change of behaviour, and say what in CHANGELOG.md."""

__version__ = "0.2.0"
