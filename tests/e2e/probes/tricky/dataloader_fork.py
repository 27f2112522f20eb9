"""A DataLoader with fork-started workers feeding a short training loop."""
import torch
from torch.utils.data import DataLoader, TensorDataset

if __name__ == "__main__":
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(32, 3), torch.randn(32, 1))
    loader = DataLoader(data, batch_size=8, num_workers=2, multiprocessing_context="fork")
    w = torch.zeros(3, 1, requires_grad=True)
    for xb, yb in loader:
        loss = ((xb @ w - yb) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= 0.1 * w.grad
        w.grad = None
    print([round(v, 4) for v in w.flatten().tolist()])
