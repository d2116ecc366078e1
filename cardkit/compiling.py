"""Compile a package's hot modules with mypyc when asked to (``CARDKIT_COMPILE=1``): cardkit's own
engine and an outside plugin's alike (``docs/engines.md``, "A compiled engine").

A build hook (hatchling's, in the project's ``hatch_build.py``) describes what to compile in a
:class:`CompileSpec` and calls :func:`build_compiled` from its ``initialize`` and
:func:`cleanup` from its ``finalize``; :func:`compile_requirements` is its ``dependencies``.
Nothing of this runs on a plain install: it builds no C and asks for no compiler-only build
requirement.  With ``CARDKIT_COMPILE=1``:

* the listed modules are compiled together as one mypyc group (``<group>__mypyc.<abi>.so`` beside
  the package, one extension module beside each source); without a C compiler or Python headers,
  with ``CARDKIT_PURE=1``, or when compiling fails for any reason, the install still goes on with
  the sources and says why (``pip install -v`` shows it);
* editable installs compile in place, next to the sources, and never leave an old build beside
  new sources; a manifest (``_compiled.json`` beside the package's ``__init__.py``) records the
  hash of every compiled source, so that a source edited afterwards runs from its source until
  the next install (:func:`cardkit._compiled.activate_package`, which the package's
  ``__init__.py`` calls, re-exported here);
* with GCC and a training script, the build is profile-guided, as CPython's own release builds
  are: an instrumented build plays the training games first, and GCC compiles again knowing which
  branches and calls are hot.  The C code is the same either way and so are the games;
  ``CARDKIT_PGO=0``, another compiler, or any failure along the way gives the plain ``-O3`` build.

An outside package's build runs in pip's isolated build environment, where cardkit itself is not
installed: the compile and the training games then run on the installing interpreter with its
own packages (``python -I``: cardkit, with its types, and the game's data libraries), the build
environment's (mypy, setuptools) put first.  This module needs the standard library alone (a
build hook imports it before anything else is there).
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from cardkit._compiled import MANIFEST, activate_package, package_build, source_hashes, source_path

__all__ = ["CompileSpec", "activate_package", "build_compiled", "cleanup", "compile_requested",
           "compile_requirements", "package_build", "why_not_compile", "why_not_gcc"]

# run as a child process: mypyc turns the sources into C, setuptools builds the extension modules
COMPILE = r"""
import sys
from setuptools import setup
from mypyc.build import mypycify

mode, out, c_dir, group, name, *sources = sys.argv[1:]
exts = mypycify(sources, opt_level="3", target_dir=c_dir, group_name=group)
where = ["--inplace", "--build-lib", c_dir + "/lib"] if mode == "editable" else ["--build-lib", out]
setup(name=name, packages=[], py_modules=[], ext_modules=exts,
      script_args=["build_ext", "--build-temp", c_dir + "/temp", *where])
"""
# the child process of an outside package, on the installing interpreter (python -I): the paths
# passed in CARDKIT_BUILD_PATH go first (the build environment's mypy and setuptools, or the
# instrumented training build)
BOOT = "import json, os, sys\nsys.path[:0] = json.loads(os.environ['CARDKIT_BUILD_PATH'])\n"

PGO_GENERATE = ("-fprofile-generate", "-fprofile-update=single")
PGO_USE = ("-fprofile-use", "-fprofile-partial-training", "-fprofile-correction",
           "-Wno-missing-profile", "-Wno-error=coverage-mismatch")
# With GCC: calls between the compiled C functions inside the one shared library need not allow
# for symbol interposition, so they may be direct and inlined (as in CPython's own build)
GCC_FLAGS = ("-fno-semantic-interposition",)

#: what a compiled build needs in its build environment (asked for only when CARDKIT_COMPILE=1):
#: mypyc comes with mypy, setuptools drives the C compiler
COMPILE_REQUIREMENTS = ("mypy>=1.11", "setuptools>=69")


class BuildHook(Protocol):
    """What :func:`build_compiled` uses of a hatchling build hook (``BuildHookInterface``)."""

    @property
    def root(self) -> str: ...

    @property
    def target_name(self) -> str: ...

    @property
    def app(self) -> Any: ...  # display_info, display_warning


@dataclass(frozen=True)
class CompileSpec:
    """What a project compiles: ``modules`` (dotted names of ``package``, typed Python that mypyc
    accepts) as the mypyc group ``group``; ``root`` is the project folder (``pyproject.toml``),
    the package's folder ``root/package``.  ``train`` is the source of a Python script the
    instrumented build runs for the profile (``sys.argv[1]`` is ``root``; None: no profile-guided
    build); ``prepare_train`` may add files to the training tree (the package's copy is made).
    ``outside``: the package is not cardkit, whose build environment lacks cardkit: the compile
    and the training run on the installing interpreter (see the module's text).  ``label`` names
    what is compiled in the build's messages; ``requirements``: the build requirements it adds."""

    root: Path
    package: str
    modules: tuple[str, ...]
    group: str
    label: str
    train: str | None = None
    prepare_train: Callable[[Path], None] | None = None
    outside: bool = True
    requirements: tuple[str, ...] = COMPILE_REQUIREMENTS

    @property
    def package_dir(self) -> Path:
        return self.root / self.package

    def sources(self) -> list[Path]:
        return [source_path(m, self.package_dir) for m in self.modules]


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def compile_requested() -> bool:
    """``CARDKIT_COMPILE=1`` asks for the compiled build; ``CARDKIT_PURE=1`` wins."""
    return _flag("CARDKIT_COMPILE") and not _flag("CARDKIT_PURE")


def compile_requirements(spec: CompileSpec) -> list[str]:
    """The build hook's ``dependencies()``: the compiler's build requirements, only when compiling."""
    return list(spec.requirements) if compile_requested() else []


def why_not_compile() -> str | None:
    """Why this build compiles nothing, or None when it compiles."""
    if _flag("CARDKIT_PURE"):
        return "CARDKIT_PURE is set"
    if not _flag("CARDKIT_COMPILE"):
        return "the default; CARDKIT_COMPILE=1 pip install ... compiles it for large playtest sweeps"
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


def why_not_gcc() -> str | None:
    """GCC's flags (profile-guided optimisation, :data:`GCC_FLAGS`) only with GCC."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    try:
        proc = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return f"cannot run {cc}"
    first = (proc.stdout.splitlines() or [""])[0].lower()  # "gcc (Debian 12.2.0-14) 12.2.0", "cc (GCC) 13.2.1"
    if proc.returncode != 0 or "gcc" not in first or "clang" in first:
        return f"{cc} is not GCC"
    return None


def _with_flags(env: dict[str, str], flags: tuple[str, ...]) -> dict[str, str]:
    """``env`` with ``flags`` added to the compile and link flags setuptools reads."""
    extra = " ".join(flags)
    return dict(env, CFLAGS=f"{env.get('CFLAGS', '')} {extra}".strip(),
                LDFLAGS=f"{env.get('LDFLAGS', '')} {extra}".strip())


def manifest_text(spec: CompileSpec, package_dir: Path, profile_guided: bool) -> str:
    """The build manifest :func:`cardkit._compiled.decide` checks at import."""
    import mypy.version

    manifest = {"mypy": mypy.version.__version__, "sources": source_hashes(package_dir, spec.modules),
                "group": spec.group, "profile_guided": profile_guided}
    return json.dumps(manifest, indent=1, sort_keys=True) + "\n"


def artifacts(spec: CompileSpec) -> list[Path]:
    """The compiled files of an earlier in-place build."""
    found = [spec.package_dir / MANIFEST]
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        found.append(spec.root / f"{spec.group}__mypyc{suffix}")
        found += [src.with_suffix(suffix) for src in spec.sources()]
    return [p for p in found if p.exists()]


def _failed(proc: subprocess.CompletedProcess[str]) -> str:
    return "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])


def _child(spec: CompileSpec, script: str, env: dict[str, str], first: list[str]) -> tuple[list[str], dict[str, str]]:
    """The command and environment of a child process that runs ``script``: cardkit's own build
    as it is (its build environment has what it needs); an outside package's on the installing
    interpreter in isolated mode (its own packages: cardkit), ``first`` put first on its path."""
    if not spec.outside:
        return [sys.executable, "-c", script], env
    return [sys.executable, "-I", "-c", BOOT + script], dict(env, CARDKIT_BUILD_PATH=json.dumps(first))


def build_compiled(hook: BuildHook, version: str, build_data: dict[str, Any], spec: CompileSpec) -> bool:
    """The build hook's ``initialize``: compile ``spec`` when asked to (see the module's text) and
    put the compiled files into the wheel (an editable install: beside the sources).  Returns
    whether it compiled; it never fails the install."""
    if hook.target_name != "wheel":
        return False
    editable = version == "editable"
    if editable:  # never leave an old build beside new sources
        for p in artifacts(spec):
            p.unlink()
    reason = why_not_compile()
    if reason is not None:
        show = hook.app.display_warning if compile_requested() else hook.app.display_info
        show(f"{spec.package}: pure-Python {spec.label} ({reason})")
        return False
    hook.app.display_info(f"{spec.package}: compiling the {spec.label} with mypyc")
    work = Path(tempfile.mkdtemp(prefix=f"{spec.package}-mypyc-"))
    _WORK[id(hook)] = work
    out = work / "lib"
    sources = [str(p.relative_to(spec.root)) for p in spec.sources()]
    env = dict(os.environ, MYPY_CACHE_DIR=str(work / "mypy-cache"))
    env.pop("CARDKIT_BUILD_PATH", None)
    pgo = why_not_gcc() if spec.train is not None else "no training games"
    if pgo is None:
        env = _with_flags(env, GCC_FLAGS)
        if os.environ.get("CARDKIT_PGO", "") == "0":
            pgo = "CARDKIT_PGO=0"
    if pgo is None:
        hook.app.display_info(f"{spec.package}: profile-guided build: an instrumented build plays training games first")
        pgo = _profile(spec, work, sources, env)
    if pgo is not None:
        hook.app.display_info(f"{spec.package}: no profile-guided optimisation ({pgo}); plain -O3 build")
    args = [version, str(out), str(work / "c"), spec.group, f"{spec.package}-compiled", *sources]
    command, run_env = _child(spec, COMPILE, env if pgo else _with_flags(env, PGO_USE), list(sys.path))
    proc = subprocess.run(command + args, cwd=spec.root, env=run_env, capture_output=True, text=True)
    if proc.returncode != 0 and pgo is None:
        pgo = "the profile-guided build failed"
        hook.app.display_warning(f"{spec.package}: {pgo}; plain -O3 build\n{_failed(proc)}")
        command, run_env = _child(spec, COMPILE, env, list(sys.path))
        proc = subprocess.run(command + args, cwd=spec.root, env=run_env, capture_output=True, text=True)
    if proc.returncode != 0:
        hook.app.display_warning(f"{spec.package}: compiling the {spec.label} failed; using the pure-Python "
                                 f"{spec.label}\n{_failed(proc)}")
        if editable:
            for p in artifacts(spec):
                p.unlink()
        return False
    text = manifest_text(spec, spec.package_dir, profile_guided=pgo is None)
    if editable:
        (spec.package_dir / MANIFEST).write_text(text, encoding="utf-8")
        return True
    (out / spec.package / MANIFEST).write_text(text, encoding="utf-8")
    for f in sorted(out.rglob("*")):
        if f.is_file():
            build_data["force_include"][str(f)] = f.relative_to(out).as_posix()
    build_data["pure_python"] = False
    build_data["infer_tag"] = True
    return True


#: each build hook's working folder, removed by cleanup()
_WORK: dict[int, Path] = {}


def _profile(spec: CompileSpec, work: Path, sources: list[str], env: dict[str, str]) -> str | None:
    """Build an instrumented group, play the training games with it and leave GCC's profile
    (``*.gcda``) where the real build looks for it (the same C files and object paths).  Returns
    why not, or None when done."""
    assert spec.train is not None
    train = work / "train"
    command, run_env = _child(spec, COMPILE, _with_flags(env, PGO_GENERATE), list(sys.path))
    proc = subprocess.run(command + ["wheel", str(train), str(work / "c"), spec.group, f"{spec.package}-compiled",
                                     *sources], cwd=spec.root, env=run_env, capture_output=True, text=True)
    if proc.returncode != 0:
        return f"the instrumented build failed:\n{_failed(proc)}"
    shutil.copytree(spec.package_dir, train / spec.package, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", MANIFEST, "__pycache__"))
    if spec.prepare_train is not None:
        spec.prepare_train(train)
    (train / spec.package / MANIFEST).write_text(manifest_text(spec, train / spec.package, profile_guided=False),
                                                 encoding="utf-8")
    run_env = dict(env, PYTHONPATH=os.pathsep.join([str(train), env.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    run_env.pop("CARDKIT_PURE", None)
    command, run_env = _child(spec, spec.train, run_env, [str(train)])
    try:
        proc = subprocess.run(command + [str(spec.root)], cwd=work, env=run_env,
                              capture_output=True, text=True, timeout=900)
    except subprocess.TimeoutExpired:
        return "the training games took too long"
    if proc.returncode != 0:
        return f"the training games failed:\n{_failed(proc)}"
    if not any((work / "c").rglob("*.gcda")):
        return "the training games wrote no profile"
    for obj in (work / "c").rglob("*.o"):  # compile again, with the profile
        obj.unlink()
    return None


def cleanup(hook: BuildHook) -> None:
    """The build hook's ``finalize``: remove the build's working folder."""
    work = _WORK.pop(id(hook), None)
    if work is not None:
        shutil.rmtree(work, ignore_errors=True)
