"""Model files that are not files, lie about their size, or must not be
overwritten: loads stay bounded, saves never destroy what is at the path."""
import os
import stat
import struct
import subprocess
import sys
import textwrap
import threading

import pytest

import transparse

from conftest import HERE

PACKAGE = str(HERE.parent)


def run_child(body, *args):
    """Run body in a fresh interpreter with the library loaded and its Go
    runtime started; return its stdout lines as a dict of KEY -> rest."""
    script = textwrap.dedent("""\
        import resource, sys, time
        sys.path.insert(0, sys.argv[1])
        import transparse
        transparse.systems()  # the Go runtime has started
        def status(field):
            # From /proc: getrusage's maxrss would count the parent's
            # memory, which a forked child keeps until it executes.
            for line in open("/proc/self/status"):
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
        """) + textwrap.dedent(body)
    proc = subprocess.run([sys.executable, "-c", script, PACKAGE, *args],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = {}
    for line in proc.stdout.splitlines():
        key, _, rest = line.partition(" ")
        out[key] = rest
    return out


def test_load_dev_zero_is_refused_at_once():
    # A device that never ends is refused on its first bytes, not read
    # whole; the time bound only catches such a read.
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    out = run_child("""
        start = time.monotonic()
        try:
            transparse.Model.load("/dev/zero")
            print("LOADED")
        except transparse.ModelFormatError as e:
            print("ERROR", e.message)
        print("SECONDS", time.monotonic() - start)
        print("MAXRSS", status("VmHWM"))
        """)
    assert out["ERROR"] == ("tp_model_load: modelfmt: /dev/zero: not a transparse model "
                            "(first bytes 0000000000000000...)")
    assert float(out["SECONDS"]) < 1.0
    assert int(out["MAXRSS"]) < 64 << 20


def huge_declared(model_file, path, size=100_000_000):
    """Write the bundled model with a header that declares a 2 GiB - 1
    document, padded with snappy padding chunks to about size bytes."""
    data = bytearray(model_file.read_bytes())
    struct.pack_into("<Q", data, 12, 2**31 - 1)
    pad = b"\xfe" + (76494).to_bytes(3, "little") + bytes(76494)
    with open(path, "wb") as f:
        f.write(data)
        n = len(data)
        while n + len(pad) <= size:
            f.write(pad)
            n += len(pad)
    return len(model_file.read_bytes())


def test_declared_size_is_not_reserved(model_file, tmp_path):
    # A 100 MB file whose header declares 2 GiB of document is refused by a
    # process that may map only 256 MB more than it has once the library
    # has started: the loader no longer reserves what the header declares.
    # The limit is relative because the interpreter and the Go runtime
    # reserve far more than 256 MB of address space at start-up (heap
    # metadata, thread stacks, malloc arenas): no absolute limit of 256 MB
    # lets them start at all.
    path = tmp_path / "huge.tpm"
    huge_declared(model_file, path)
    out = run_child("""
        limit = status("VmSize") + (256 << 20)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        try:
            transparse.Model.load(sys.argv[2])
            print("LOADED")
        except transparse.ModelFormatError as e:
            print("ERROR", e.message)
        """, str(path))
    doc_len = int.from_bytes(model_file.read_bytes()[12:20], "little")
    assert out["ERROR"] == (f"tp_model_load: modelfmt: {path}: truncated: {doc_len} of 2147483647 "
                            "bytes of document (the input ends early)")


def test_load_from_a_pipe(model, model_file, tmp_path):
    fifo = tmp_path / "model.fifo"
    os.mkfifo(fifo)
    data = model_file.read_bytes()

    def feed():
        with open(fifo, "wb") as f:
            f.write(data)

    t = threading.Thread(target=feed)
    t.start()
    try:
        piped = transparse.Model.load(fifo)
    finally:
        t.join()
    words = ["They", "saw", "it", "."]
    a, b = model.parse(words), piped.parse(words)
    assert [w.head for w in a] == [w.head for w in b]
    assert [w.deprel for w in a] == [w.deprel for w in b]
    piped.close()


def test_save_writes_through_a_symlink(model, tmp_path):
    real = tmp_path / "store" / "real.tpm"
    real.parent.mkdir()
    real.write_bytes(b"old")
    os.chmod(real, 0o600)
    link = tmp_path / "link.tpm"
    link.symlink_to("store/real.tpm")
    model.save(link)
    assert link.is_symlink() and os.readlink(link) == "store/real.tpm"
    assert stat.S_IMODE(real.stat().st_mode) == 0o600
    assert real.read_bytes()[:8] == b"\x89TPM\r\n\x1a\n"
    transparse.Model.load(link).close()


def test_save_refuses_what_is_not_a_regular_file(model, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    sub = tmp_path / "sub"
    sub.mkdir()
    cases = [(fifo, "is a FIFO", stat.S_ISFIFO), (sub, "is a directory", stat.S_ISDIR)]
    # A device: a fresh node made here (never a system one such as
    # /dev/null, which this test must not risk), so only as root.
    dev = tmp_path / "null"
    try:
        os.mknod(dev, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        cases.append((dev, "is a character device", stat.S_ISCHR))
    except PermissionError:
        pass
    for path, what, kind in cases:
        with pytest.raises(transparse.IoError) as e:
            model.save(path)
        assert e.value.message == (f"tp_model_save: modelfmt: {path}: {what}, not a regular file; "
                                   "a model is only saved to a regular file or a new path")
        assert kind(os.lstat(path).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p, _, _ in cases)
    if len(cases) < 3:
        pytest.skip("the device case needs root (mknod)")
