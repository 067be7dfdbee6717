"""The wheel's build step: besides the packages (pyproject.toml), ship the texts that ``comet site`` and the
listings read (``comet.shipped.SHIPPED``) into ``comet/checkout/``, so that an installed package builds the
site without a clone.  An editable install ships nothing: it reads the clone."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class BuildPyShipping(build_py):  # type: ignore[misc]
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False) or not (HERE / "spec").is_dir():
            return
        spec = importlib.util.spec_from_file_location("comet_shipped", HERE / "model" / "comet" / "shipped.py")
        assert spec is not None and spec.loader is not None
        shipped = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(shipped)
        shipped.ship(HERE, Path(self.build_lib) / "comet" / shipped.FOLDER)


setup(cmdclass={"build_py": BuildPyShipping})
