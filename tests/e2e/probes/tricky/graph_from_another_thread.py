"""A graph built in a worker thread, backpropagated from the main thread (and the reverse)."""
import threading

import torch

torch.manual_seed(0)
w = torch.randn(4, 4, requires_grad=True)
made = {}


def forward():
    made["loss"] = (w.sin() * w.exp()).sum()


worker = threading.Thread(target=forward)
worker.start()
worker.join()
made["loss"].backward()  # nodes the main thread never saw being made
first = w.grad.clone()

loss = (w.tanh() @ w).sum()
backward = threading.Thread(target=loss.backward)
backward.start()
backward.join()
print(first.sum().item(), (w.grad - first).sum().item())
