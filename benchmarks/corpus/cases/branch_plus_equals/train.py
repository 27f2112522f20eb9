import torch
import torch.nn.functional as F

from model import BranchNet


def train_epoch(model, optimizer, batches):
    model.train()
    for images, labels in batches:
        out, aux = model(images)
        loss = F.cross_entropy(out, labels) + 0.4 * F.cross_entropy(aux, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    net = BranchNet()
    opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    data = [(torch.randn(8, 3, 16, 16), torch.randint(0, 10, (8,))) for _ in range(3)]
    train_epoch(net, opt, data)
