"""Shared by the Python binding's tests: skip (exit 77, ctest SKIP_RETURN_CODE)
when torch is absent; tiny assertion helpers."""
import os
import sys

SKIP = 77


def need_torch():
    try:
        import torch  # noqa: F401
    except ImportError:
        print("SKIP: torch is not installed (python3-torch)")
        sys.exit(SKIP)


def corpus_dir():
    d = os.environ.get("FUSER_CORPUS_DIR")
    return d if d and os.path.isdir(d) else None


failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def raises(fn, exc, contains, what):
    try:
        fn()
    except exc as e:
        good = all(c in str(e) for c in contains)
        check(good, f"{what}: {type(e).__name__}: {e}")
        return
    except Exception as e:  # the wrong kind of exception
        check(False, f"{what}: {type(e).__name__} instead of {exc.__name__}: {e}")
        return
    check(False, f"{what}: no exception")


def finish():
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)
    print("all checks passed")
