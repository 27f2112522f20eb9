import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cpu")
dtype = torch.float64


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, padding=1)
        self.fc = nn.Linear(8 * 14 * 14, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv(x)), 2)
        return self.fc(x.flatten(1))


def pgd_attack(model, images, labels, eps=0.1, alpha=0.02, steps=5):
    delta = torch.zeros_like(images, requires_grad=True).to(device, dtype)
    images, labels = images.to(device, dtype), labels.to(device)
    for _ in range(steps):
        loss = F.cross_entropy(model(images + delta), labels)
        loss.backward()
        with torch.no_grad():
            delta += alpha * delta.grad.sign()
            delta.clamp_(-eps, eps)
            delta.grad.zero_()
    return (images + delta).detach()


model = SmallCNN().to(device, dtype).eval()
for p in model.parameters():
    p.requires_grad_(False)
images = torch.rand(4, 1, 28, 28)          # float32 batch from the loader
labels = torch.randint(0, 10, (4,))
adv = pgd_attack(model, images, labels)
images, labels = images.to(device, dtype), labels.to(device)
clean_acc = (model(images).argmax(1) == labels).float().mean().item()
adv_acc = (model(adv).argmax(1) == labels).float().mean().item()
print(f"clean acc {clean_acc:.2f}  adversarial acc {adv_acc:.2f}")
