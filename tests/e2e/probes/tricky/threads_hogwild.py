"""Several threads running forward and backward at once on shared parameters (hogwild)."""
import threading

import torch

torch.manual_seed(0)
w = torch.ones(5, 5, requires_grad=True)
errors = []


def train():
    try:
        for _ in range(20):
            y = ((w + 3) * (w + 4) * 0.5).sum()
            y.backward()
    except Exception as exc:  # noqa: BLE001
        errors.append(exc)


threads = [threading.Thread(target=train) for _ in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(errors, w.grad[0, 0].item())
