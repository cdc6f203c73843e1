"""gpu_lock.py: the exclusive flock that keeps GPU timings apart on the GPU
machine: bench/gpu/reductions.sh's fuser runs hold it (flock(1)), and so do
bench/reductions/sweep_peers.py's torch.compile timings and
bench/check_torch.py's float64 checks (this context manager)."""
import contextlib
import fcntl


@contextlib.contextmanager
def gpu_lock(path):
    """Holds an exclusive flock on path (no lock when path is empty)."""
    if not path:
        yield
        return
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)
