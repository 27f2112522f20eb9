import torch
import torch.nn as nn
import torch.nn.functional as F

from neurons import Leaky, reset

NUM_STEPS = 8
BATCH = 16


def build_net(beta=0.5):
    return nn.Sequential(
        nn.Conv2d(1, 8, 5), nn.MaxPool2d(2), Leaky(beta=beta),
        nn.Conv2d(8, 16, 5), nn.MaxPool2d(2), Leaky(beta=beta),
        nn.Flatten(),
        nn.Linear(16 * 4 * 4, 10), Leaky(beta=beta, output=True),
    )


def forward_pass(net, num_steps, data):
    spk_rec, mem_rec = [], []
    for _ in range(num_steps):
        spk_out, mem_out = net(data)
        spk_rec.append(spk_out)
        mem_rec.append(mem_out)
    return torch.stack(spk_rec), torch.stack(mem_rec)


def ce_rate_loss(spk_rec, targets):
    logits = spk_rec.sum(0)
    return F.cross_entropy(logits, targets)


def batch_accuracy(net, loader):
    with torch.no_grad():
        correct = total = 0
        for data, targets in loader:
            reset(net)
            spk_rec, _ = forward_pass(net, NUM_STEPS, data)
            correct += (spk_rec.sum(0).argmax(1) == targets).sum().item()
            total += targets.numel()
    return correct / total


def make_loader(n_batches, seed):
    g = torch.Generator().manual_seed(seed)
    return [(torch.rand(BATCH, 1, 28, 28, generator=g), torch.randint(0, 10, (BATCH,), generator=g))
            for _ in range(n_batches)]


def main():
    torch.manual_seed(0)
    net = build_net()
    optimizer = torch.optim.Adam(net.parameters(), lr=5e-4, betas=(0.9, 0.999))
    train_loader = make_loader(4, seed=1)
    test_loader = make_loader(2, seed=2)
    for epoch in range(2):
        for i, (data, targets) in enumerate(train_loader):
            net.train()
            spk_rec, _ = forward_pass(net, NUM_STEPS, data)
            loss = ce_rate_loss(spk_rec, targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if i % 2 == 0:
                print(f"epoch {epoch} iter {i} loss {loss.item():.3f}")
        print(f"epoch {epoch} test acc {batch_accuracy(net, test_loader):.3f}")


if __name__ == "__main__":
    main()
