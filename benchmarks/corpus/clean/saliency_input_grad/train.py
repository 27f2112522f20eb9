import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallCNN(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(16, n_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def input_saliency(model, x, y):
    x = x.clone().requires_grad_(True)
    loss = F.cross_entropy(model(x), y)
    (grad_x,) = torch.autograd.grad(loss, x)
    return grad_x


def fgsm_examples(model, x, y, eps=0.05):
    grad_x = input_saliency(model, x, y)
    return (x + eps * grad_x.sign()).clamp(-3, 3).detach()


def main():
    torch.manual_seed(0)
    model = SmallCNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(4):
        x = torch.randn(8, 1, 16, 16)
        y = torch.randint(0, 4, (8,))
        x_adv = fgsm_examples(model, x, y)
        optimizer.zero_grad()
        loss = 0.5 * F.cross_entropy(model(x), y) + 0.5 * F.cross_entropy(model(x_adv), y)
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")

    model.eval()
    x = torch.randn(2, 1, 16, 16)
    y = model(x).argmax(dim=1)
    sal = input_saliency(model, x, y).abs().amax(dim=1)
    peak = sal.flatten(1).argmax(dim=1)
    print("saliency map shape", tuple(sal.shape), "peak pixels", peak.tolist())


if __name__ == "__main__":
    main()
