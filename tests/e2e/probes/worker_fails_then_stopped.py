"""A worker fails at its own error; its parent stops it (SIGTERM) while multiprocessing's ending
still waits for the worker's other thread. The worker's report is its error's."""
import multiprocessing as mp
import threading
import time

import torch


def work(failed):
    threading.Thread(target=time.sleep, args=(20,)).start()  # not a daemon: the worker's end waits for it
    x = torch.randn(3, requires_grad=True)
    y = (x * 2).sum()
    y.backward()
    try:
        y.backward()  # the worker's own error
    finally:
        failed.set()


if __name__ == "__main__":
    context = mp.get_context("spawn")
    failed = context.Event()
    worker = context.Process(target=work, args=(failed,))
    worker.start()
    failed.wait(60)
    time.sleep(1)  # the error is shown by now; the worker waits for its thread
    worker.terminate()
    worker.join()
    print("worker exit code:", worker.exitcode)
