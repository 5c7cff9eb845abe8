"""Build hook of the transparse Python package (setuptools).

The package is a ctypes binding: it carries no Python extension, but it
carries ``libtransparse.so.0``, a native library, so its wheel is a platform
wheel (``py3-none-linux_x86_64`` on x86-64 Linux) and not ``py3-none-any``.

Before the package files are copied, ``build_py`` makes sure that
``transparse/libtransparse.so.0`` exists:

* if ``./build.sh`` already put it there, it is used as it is;
* else, in a transparse clone (this directory is ``bindings/python`` of a
  tree whose ``go.mod`` names the transparse module), the library is built
  with ``go build -buildmode=c-shared ./capi``, as ``build.sh`` builds it;
* else the build stops with a message saying what is missing and what to
  do. It never builds a package that cannot import.

The default model (``models/en_ewt.tpm`` of the clone) is copied to
``transparse/models/en_ewt.tpm``, so that a wheel parses out of the box
(:func:`transparse.default_model`); outside a clone, a model already there
is kept, and without one the package is built without a model.

Environment: ``GO`` (default ``go``) is the Go command.
"""

import os
import pathlib
import shutil
import subprocess
import sys

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:  # setuptools >= 70.1 has its own bdist_wheel (pyproject.toml asks for 77)
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # older setuptools: the wheel package's
    from wheel.bdist_wheel import bdist_wheel

HERE = pathlib.Path(__file__).resolve().parent
PKG = HERE / "transparse"
SONAME = "libtransparse.so.0"
MODULE = "module github.com/transparse/transparse"
MODEL = pathlib.Path("models") / "en_ewt.tpm"


class BuildError(SystemExit):
    pass


def fail(msg):
    raise BuildError("\ntransparse: cannot build the Python package: " + msg + "\n")


def repo_root():
    """The transparse clone this package directory belongs to, or None."""
    root = HERE.parent.parent
    gomod = root / "go.mod"
    try:
        if gomod.is_file() and gomod.read_text().splitlines()[0].strip() == MODULE and (root / "capi").is_dir():
            return root
    except (OSError, IndexError):
        pass
    return None


def ensure_library():
    lib = PKG / SONAME
    if lib.is_file():
        return
    root = repo_root()
    if root is None:
        fail(
            f"{lib} does not exist and {HERE} is not inside a transparse clone, so it cannot be "
            "built here.\nBuild it in a clone (./build.sh, which needs Go and a C compiler) and "
            "install from there (pip install bindings/python), or install a built wheel "
            "(./build.sh wheel)."
        )
    go = os.environ.get("GO", "go")
    if shutil.which(go) is None:
        fail(
            f"{lib} does not exist and building it needs Go ({go!r} is not on PATH) and a C "
            f"compiler.\nInstall Go, or run ./build.sh in {root} first, then install again."
        )
    # As build.sh builds it: the soname, and only the tp_* API exported when
    # the clone has the linker version script.
    ext = f"-Wl,-soname,{SONAME}"
    vscript = root / "packaging" / "libtransparse.map"
    if vscript.is_file():
        ext += f" -Wl,--version-script={vscript}"
    cmd = [
        go, "build", "-buildmode=c-shared", "-trimpath",
        # Go splits -ldflags into fields and honours quotes only around a
        # whole field: the quoted value is a field of its own.
        f"-ldflags=-extldflags '{ext}'",
        "-o", str(lib), "./capi",
    ]
    print("transparse: building the library:", " ".join(cmd), f"(in {root})", file=sys.stderr)
    env = dict(os.environ, CGO_ENABLED="1")
    try:
        subprocess.run(cmd, cwd=root, env=env, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        lib.unlink(missing_ok=True)
        fail(f"building {SONAME} with Go failed ({e}); see the output above. "
             "It needs Go and a C compiler (cgo).")
    finally:
        # cgo writes a header of its internal entry points next to the library.
        (PKG / "libtransparse.so.h").unlink(missing_ok=True)
    if not lib.is_file():
        fail(f"go build did not write {lib}")


def ensure_model():
    dest = PKG / MODEL
    root = repo_root()
    src = root / MODEL if root else None
    if src is not None and src.is_file():
        dest.parent.mkdir(exist_ok=True)
        shutil.copyfile(src, dest)  # the clone's current model
        # The licences of the code and of the model travel with them.
        for lic in ("LICENSE", "models/LICENSE", "models/LICENSE.CC-BY-SA-4.0"):
            if (root / lic).is_file():
                shutil.copyfile(root / lic, PKG / lic)
    elif not dest.is_file():
        print("transparse: no default model to bundle; transparse.default_model() will look for "
              "an installed one", file=sys.stderr)


class BuildPy(build_py):
    def run(self):
        ensure_library()
        ensure_model()
        super().run()


class PlatformWheel(bdist_wheel):
    """A wheel for this platform (the library is native code) that any
    Python 3 can use (ctypes, no extension module): py3-none-PLATFORM."""

    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        _, _, plat = super().get_tag()
        return "py3", "none", plat


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True


setup(
    distclass=BinaryDistribution,
    cmdclass={"build_py": BuildPy, "bdist_wheel": PlatformWheel},
)
