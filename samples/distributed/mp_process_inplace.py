"""A worker process (multiprocessing.Process) whose backward fails: `torch.sigmoid` saves its
output for backward, and `y.mul_(2)` changes it in place first. gradscope records the worker
and names both lines in its report (`[child1]: ...`); the parent sees exit code 1.
Run: gradscope run mp_process_inplace.py [fork|spawn|forkserver]"""
import sys

import torch
import torch.multiprocessing as mp


def worker():
    x = torch.randn(4, requires_grad=True)
    y = torch.sigmoid(x)
    y.mul_(2)
    y.sum().backward()


if __name__ == "__main__":
    method = sys.argv[1] if len(sys.argv) > 1 else "spawn"
    process = mp.get_context(method).Process(target=worker)
    process.start()
    process.join()
    print("worker exit code:", process.exitcode)
