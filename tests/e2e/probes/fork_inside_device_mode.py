"""A worker forked inside the program's own `with torch.device("meta")` and inside an `except`
block: under gradscope it must still make its tensors on `meta` (the program's mode stays when
the inherited recording is dropped), and its report must not claim the parent's handled error."""
import multiprocessing as mp
import torch

def worker(q):
    q.put(str(torch.empty(2).device))
    x = torch.ones(2, requires_grad=True, device="cpu")
    (x * 2).sum().backward()

if __name__ == "__main__":
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    with torch.device("meta"):
        try:
            raise KeyError("handled in the parent")
        except KeyError:
            p = ctx.Process(target=worker, args=(q,))
            p.start()
            print("child device:", q.get())
            p.join()
    print("exit", p.exitcode)
