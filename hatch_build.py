"""Build hook: compile the rules engine with mypyc when a C compiler is at hand.

The engine modules listed in ``cardkit/_compiled.py`` are typed Python; mypyc
turns them into C extension modules that play the same games two to three times
faster.  Nothing here is required: without a C compiler or Python headers, with
``CARDKIT_PURE=1``, or when compiling fails for any reason, the install goes on
with the pure-Python engine and says why (``pip install -v`` shows it).

Editable installs compile in place, next to the sources; ``cardkit/_compiled.json``
records the hash of every compiled source so that an engine edited afterwards
runs from its sources until the next install (see ``cardkit/_compiled.py``).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


COMPILE = r"""
import sys
from setuptools import setup
from mypyc.build import mypycify

mode, out, c_dir, group, *sources = sys.argv[1:]
exts = mypycify(sources, opt_level="3", target_dir=c_dir, group_name=group)
where = ["--inplace"] if mode == "editable" else ["--build-lib", out]
setup(name="cardkit-engine", packages=[], py_modules=[], ext_modules=exts,
      script_args=["build_ext", "--build-temp", c_dir + "/temp", *where])
"""


def _compiled_settings(root: Path) -> ModuleType:
    """cardkit/_compiled.py (MODULES, GROUP, MANIFEST, source_path, source_hashes),
    loaded by path: it needs only the standard library, the package may not import yet."""
    spec = importlib.util.spec_from_file_location("_cardkit_compiled", root / "cardkit" / "_compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _artifacts(root: Path, c: ModuleType) -> list[Path]:
    """Compiled files of an earlier in-place build."""
    pkg = root / "cardkit"
    found = [pkg / c.MANIFEST]
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        found.append(root / f"{c.GROUP}__mypyc{suffix}")
        found += [c.source_path(m, pkg).with_suffix(suffix) for m in c.MODULES]
    return [p for p in found if p.exists()]


def why_not_compile() -> str | None:
    if os.environ.get("CARDKIT_PURE", "") not in ("", "0"):
        return "CARDKIT_PURE is set"
    if sys.implementation.name != "cpython":
        return f"{sys.implementation.name} is not CPython"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed in the build environment"
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if os.name != "nt" and shutil.which(cc) is None:  # (on Windows setuptools looks for MSVC itself)
        return f"no C compiler ({cc})"
    if not Path(sysconfig.get_paths()["include"], "Python.h").is_file():
        return "no Python headers (Python.h)"
    return None


class CompiledEngineHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        pkg = root / "cardkit"
        c = _compiled_settings(root)
        editable = version == "editable"
        if editable:  # never leave an old build beside new sources
            for p in _artifacts(root, c):
                p.unlink()
        reason = why_not_compile()
        if reason is not None:
            self.app.display_warning(f"cardkit: pure-Python rules engine ({reason})")
            return
        self.app.display_info("cardkit: compiling the rules engine with mypyc (about a minute)")
        work = Path(tempfile.mkdtemp(prefix="cardkit-mypyc-"))
        self._work = work
        out = work / "lib"
        sources = [str(c.source_path(m, pkg).relative_to(root)) for m in c.MODULES]
        env = dict(os.environ, MYPY_CACHE_DIR=str(work / "mypy-cache"))
        proc = subprocess.run([sys.executable, "-c", COMPILE, version, str(out), str(work / "c"), c.GROUP, *sources],
                              cwd=root, env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
            self.app.display_warning(f"cardkit: compiling the rules engine failed; using the pure-Python engine\n{tail}")
            if editable:
                for p in _artifacts(root, c):
                    p.unlink()
            return
        import mypy.version

        manifest = {"mypy": mypy.version.__version__, "sources": c.source_hashes(pkg)}
        text = json.dumps(manifest, indent=1, sort_keys=True) + "\n"
        if editable:
            (pkg / c.MANIFEST).write_text(text, encoding="utf-8")
            return
        (out / "cardkit" / c.MANIFEST).write_text(text, encoding="utf-8")
        for f in sorted(out.rglob("*")):
            if f.is_file():
                build_data["force_include"][str(f)] = f.relative_to(out).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
