import torch
import torch.nn.functional as F
from torch import nn

from quant import QuantLinear

QAT_CONFIG = {"bits": {"fc1": 8, "fc2": 4, "fc3": 8}, "steps": 25, "lr": 1e-2, "batch": 32}


class MLP(nn.Module):
    def __init__(self, bits):
        super().__init__()
        self.fc1 = QuantLinear(16, 64, bits=bits["fc1"])
        self.fc2 = QuantLinear(64, 64, bits=bits["fc2"])
        self.fc3 = QuantLinear(64, 3, bits=bits["fc3"])

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


def main():
    torch.manual_seed(0)
    model = MLP(QAT_CONFIG["bits"])
    opt = torch.optim.Adam(model.parameters(), lr=QAT_CONFIG["lr"])
    x = torch.randn(256, 16)
    y = (x[:, :3].argmax(1))
    model.train()
    for step in range(QAT_CONFIG["steps"]):
        idx = torch.randint(0, x.size(0), (QAT_CONFIG["batch"],))
        loss = F.cross_entropy(model(x[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            print(f"step {step} loss {loss.item():.4f}")
    model.eval()
    with torch.no_grad():
        acc = (model(x).argmax(1) == y).float().mean().item()
    print(f"acc {acc:.3f}")
    return model


if __name__ == "__main__":
    model = main()
