import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, in_dim=12, hidden=48):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.Tanh())

    def forward(self, x):
        return self.net(x)


class TwoHeadModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.recon = nn.Linear(48, 12)
        self.classifier = nn.Linear(48, 3)

    def forward(self, x):
        z = self.encoder(x)
        return self.recon(z), self.classifier(z)


def grad_norm(module):
    return torch.sqrt(sum((p.grad ** 2).sum() for p in module.parameters() if p.grad is not None)).item()


def main():
    torch.manual_seed(0)
    model = TwoHeadModel()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(5):
        x = torch.randn(24, 12)
        y = torch.randint(0, 3, (24,))
        recon, logits = model(x)
        recon_loss = F.mse_loss(recon, x)
        cls_loss = F.cross_entropy(logits, y)

        optimizer.zero_grad()
        # first backward keeps the shared encoder graph alive for the second one
        recon_loss.backward(retain_graph=True)
        g_recon = grad_norm(model.encoder)
        cls_loss.backward()
        g_total = grad_norm(model.encoder)
        optimizer.step()
        print(f"step {step} recon {recon_loss.item():.4f} cls {cls_loss.item():.4f} "
              f"encoder grad {g_recon:.4f} -> {g_total:.4f}")


if __name__ == "__main__":
    main()
