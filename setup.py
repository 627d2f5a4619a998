"""The build step pyproject.toml cannot say: the C client (hmux_core/native/client.c) becomes the
installed ``hmux`` wherever a C compiler is found, so a command to a running server does not
start Python (docs/performance.md). Without a compiler, or where the file does not build,
``hmux`` stays the Python script (scripts/hmux) and nothing else changes."""

import importlib.util
import os
import subprocess

from setuptools import setup

# setuptools has no build_scripts of its own; once it is imported, distutils is its copy.
from distutils.command.build_scripts import build_scripts  # isort: skip


def _native_build():
    """hmux_core/native/build.py, loaded by path: the package itself is not imported here."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hmux_core", "native",
                        "build.py")
    spec = importlib.util.spec_from_file_location("_hmux_native_build", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildScripts(build_scripts):
    """The scripts as usual, then ``hmux`` replaced by the compiled client when it builds."""

    def run(self) -> None:
        super().run()
        try:
            _native_build().compile_client(os.path.join(self.build_dir, "hmux"))
        except (OSError, subprocess.CalledProcessError) as e:
            output = (getattr(e, "stdout", None) or b"").decode(errors="replace")
            self.warn(f"the C client was not built, so hmux is the Python script: {e}\n{output}")


setup(cmdclass={"build_scripts": BuildScripts})
